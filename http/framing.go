package http

import (
	"bytes"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"overwatch"
)

// rawFraming is what a request's header block, as it came over the wire,
// says of how its body is framed.
type rawFraming struct {
	lengths   int   // Content-Length lines
	length    int64 // the value of the last one; -1 when none or unreadable
	encodings int   // Transfer-Encoding lines
	encoding  []byte
	host      bool   // a Host line
	malformed string // why a line is malformed: "" when none is
}

// scanFraming reads the raw header block (the lines after the request
// line, through the empty line that ends them). A line is malformed when
// it does not end in CRLF (a bare LF), continues the line before it
// (obs-fold: it starts with a space or a tab), or holds a control
// character (NUL, a bare CR, ...) other than a tab.
func scanFraming(raw []byte) rawFraming {
	f := rawFraming{length: -1}
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			break
		}
		line := raw[:i]
		raw = raw[i+1:]
		if len(line) == 0 || line[len(line)-1] != '\r' {
			f.malformed = "a header line ends in a bare LF; lines end in CRLF"
			return f
		}
		line = line[:len(line)-1]
		if len(line) == 0 {
			break // the end of the header block
		}
		if line[0] == ' ' || line[0] == '\t' {
			f.malformed = "a header line is folded onto the next one (obs-fold); send each header on one line"
			return f
		}
		for _, c := range line {
			if c < ' ' && c != '\t' || c == 0x7f {
				f.malformed = "a header line holds a control character (" + strconv.QuoteRune(rune(c)) + ")"
				return f
			}
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		value = bytes.Trim(value, " \t")
		switch {
		case bytes.EqualFold(name, []byte(fiber.HeaderContentLength)):
			f.lengths++
			f.length = -1
			if n, err := strconv.ParseInt(string(value), 10, 64); err == nil && n >= 0 {
				f.length = n
			}
		case bytes.EqualFold(name, []byte(fiber.HeaderTransferEncoding)):
			f.encodings++
			f.encoding = value
		case bytes.EqualFold(name, []byte(fiber.HeaderHost)):
			f.host = true
		}
	}
	return f
}

// framingError is the 400 of a request whose framing is ambiguous or
// malformed (RFC 9112): a proxy in front may read it otherwise than the
// server does, and smuggle a second request in its body. nil when it is
// sound.
func framingError(h *fasthttp.RequestHeader, f rawFraming) error {
	var msg string
	switch {
	case f.malformed != "":
		msg = f.malformed
	case f.lengths > 1:
		msg = "a request may carry only one Content-Length header"
	case f.lengths > 0 && f.encodings > 0:
		msg = "a request may not carry both Content-Length and Transfer-Encoding"
	case f.encodings > 1:
		msg = "a request may carry only one Transfer-Encoding header"
	case f.encodings == 1 && !bytes.EqualFold(f.encoding, []byte("chunked")):
		msg = "Transfer-Encoding " + strconv.Quote(string(clip(f.encoding, 40))) + " is not supported: send chunked, or a Content-Length"
	case h.IsHTTP11() && !f.host:
		msg = "an HTTP/1.1 request must carry a Host header"
	default:
		return nil
	}
	return overwatch.Errorf(overwatch.Invalid, "%s", msg)
}

func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
