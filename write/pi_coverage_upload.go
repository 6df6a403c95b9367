package write

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// MaxPICoverageUpload is the body of a coverage import: the file and
// what a multipart upload adds to it (boundaries, part headers). A body
// announced over it is refused before any of it is read.
const MaxPICoverageUpload = MaxPICoverageBody + 64<<10

// piCoverageFile is the uploaded file, read as it arrives: the body of a
// text/csv request, or the one part named "file" of a multipart one. A
// part by another name, a second file part, or a multipart body that ends
// before its closing boundary is a 400 saying which.
func piCoverageFile(c *fiber.Ctx) ([]byte, error) {
	mt, params, _ := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	switch mt {
	case "text/csv", "application/csv", "text/plain":
		body, err := BodyReader(c, MaxPICoverageBody)
		if err != nil {
			return nil, err
		}
		return io.ReadAll(body)
	case fiber.MIMEMultipartForm:
		if params["boundary"] == "" {
			return nil, overwatch.Errorf(overwatch.Invalid, "Content-Type multipart/form-data needs its boundary parameter").With("parameter", "Content-Type")
		}
		body, err := BodyReader(c, MaxPICoverageUpload)
		if err != nil {
			return nil, err
		}
		return piMultipartFile(body, params["boundary"])
	default:
		return nil, overwatch.Errorf(overwatch.Invalid, "Content-Type must be text/csv (the file as the body) or multipart/form-data (the file as the part \"file\")").With("parameter", "file")
	}
}

// piMultipartFile reads the parts of a multipart upload: exactly one,
// named "file", of at most MaxPICoverageBody bytes, then the closing
// boundary.
func piMultipartFile(body io.Reader, boundary string) ([]byte, error) {
	closing := &closingSeen{r: body, delim: []byte("\n--" + boundary + "--"), tail: []byte("\n")}
	mr := multipart.NewReader(closing, boundary)
	var data []byte
	found := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF { //nolint:errorlint // the reader's own end; a wrapped EOF is a truncated body
			if !closing.seen {
				return nil, piMultipartError(io.ErrUnexpectedEOF, boundary)
			}
			break
		}
		if err != nil {
			return nil, piMultipartError(err, boundary)
		}
		switch name := part.FormName(); {
		case name != "file":
			if name == "" {
				return nil, overwatch.Errorf(overwatch.Invalid, "the multipart upload has a part without a form-data name; send the CSV as the one part \"file\"").With("parameter", "file")
			}
			return nil, overwatch.Errorf(overwatch.Invalid, "the multipart upload has a part %q; send the CSV as the one part \"file\", and no other part", clipText(name, 40)).With("parameter", clipText(name, 40))
		case found:
			return nil, overwatch.Errorf(overwatch.Invalid, "the multipart upload has more than one part \"file\"; send one file per import").With("parameter", "file")
		}
		found = true
		if data, err = io.ReadAll(io.LimitReader(part, MaxPICoverageBody+1)); err != nil {
			return nil, piMultipartError(err, boundary)
		}
		if len(data) > MaxPICoverageBody {
			return nil, overwatch.Errorf(overwatch.TooLarge, "file too large (at most %d bytes)", MaxPICoverageBody)
		}
	}
	if !found {
		return nil, overwatch.Errorf(overwatch.Invalid, "the multipart upload has no part \"file\"; send the CSV as the part \"file\"").With("parameter", "file")
	}
	return data, nil
}

// piMultipartError is the answer to a multipart body that could not be
// read: the body's own error (too large, too slow, shorter than its
// Content-Length), or a malformed or truncated multipart framing.
func piMultipartError(err error, boundary string) error {
	var oe *overwatch.Error
	if errors.As(err, &oe) {
		return oe
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return overwatch.Wrap(overwatch.Invalid, err, "the multipart upload ends before its closing boundary --"+clipText(boundary, 70)+"--").With("parameter", "file")
	}
	return overwatch.Wrap(overwatch.Invalid, err, "the multipart upload is malformed: "+clipText(err.Error(), 100)).With("parameter", "file")
}

// closingSeen passes a multipart body through, noting whether its closing
// delimiter went by: the multipart reader ends alike (io.EOF) at the
// closing boundary and in a body cut inside a part's headers.
type closingSeen struct {
	r     io.Reader
	delim []byte // CRLF or LF, then --boundary--
	tail  []byte // the last bytes read, fewer than delim's
	seen  bool
}

func (c *closingSeen) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if !c.seen && n > 0 {
		c.tail = append(c.tail, p[:n]...)
		c.seen = bytes.Contains(c.tail, c.delim)
		if k := len(c.delim) - 1; len(c.tail) > k {
			c.tail = append(c.tail[:0], c.tail[len(c.tail)-k:]...)
		}
	}
	return n, err
}
