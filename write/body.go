package write

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// BodyReader is the request body of a route mounted with a streamed Body,
// read as it arrives (what the edge already read, when it read the body
// whole): LimitBody of max bytes once decoded (Content-Encoding gzip is
// decoded as it is read; identity and none pass as they are; another is a
// 400 naming Content-Encoding).
func BodyReader(c *fiber.Ctx, max int) (io.Reader, error) {
	var raw io.Reader
	if s := c.Context().RequestBodyStream(); s != nil {
		raw = s
	} else {
		raw = bytes.NewReader(c.Request().Body())
	}
	cl := c.Request().Header.ContentLength()
	switch enc := strings.ToLower(strings.TrimSpace(c.Get(fiber.HeaderContentEncoding))); enc {
	case "", "identity":
		return LimitBody(raw, cl, max), nil
	case "gzip", "x-gzip":
		z, err := gzip.NewReader(&wireBody{r: raw, want: int64(cl)})
		if err != nil {
			return nil, bodyError(err)
		}
		return &boundedBody{r: &decodedBody{z}, left: int64(max), max: int64(max)}, nil
	default:
		return nil, overwatch.Errorf(overwatch.Invalid, "Content-Encoding %q is not supported: send the body as it is, or gzip-compressed", clipText(enc, 40)).With("parameter", "Content-Encoding")
	}
}

// LimitBody reads a request body as it arrives from raw: at most max
// bytes, Read failing with an overwatch error past them (TooLarge), for a
// body that ends before its Content-Length (contentLength; -1 for a
// chunked body) or whose chunks are malformed (Invalid, naming the
// parameter "body"), and for a client slower than the server's read
// timeout (Timeout).
func LimitBody(raw io.Reader, contentLength, max int) io.Reader {
	return &boundedBody{r: &wireBody{r: raw, want: int64(contentLength)}, left: int64(max), max: int64(max)}
}

// wireBody is the body as received: an end before the Content-Length
// (want, when known) is io.ErrUnexpectedEOF, other errors overwatch ones.
type wireBody struct {
	r    io.Reader
	want int64 // -1: chunked
	got  int64
}

func (b *wireBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.got += int64(n)
	if errors.Is(err, io.EOF) && b.want >= 0 && b.got < b.want {
		err = io.ErrUnexpectedEOF
	}
	if err != nil && !errors.Is(err, io.EOF) {
		err = bodyError(err)
	}
	return n, err
}

// decodedBody turns the decoder's errors into overwatch ones.
type decodedBody struct{ r io.Reader }

func (b *decodedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = bodyError(err)
	}
	return n, err
}

// boundedBody fails with TooLarge past max bytes.
type boundedBody struct {
	r    io.Reader
	left int64 // bytes still allowed
	max  int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, tooLarge(b.max)
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n + int(b.left), tooLarge(b.max)
	}
	return n, err
}

func tooLarge(max int64) error {
	return overwatch.Errorf(overwatch.TooLarge, "request body too large (at most %d bytes)", max)
}

// bodyError is the overwatch error of a failed body read.
func bodyError(err error) error {
	var oe *overwatch.Error
	var ne net.Error
	switch {
	case errors.As(err, &oe):
		return err
	case errors.As(err, &ne) && ne.Timeout():
		return overwatch.Wrap(overwatch.Timeout, err, "the request was not received in time")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return overwatch.Wrap(overwatch.Invalid, err, "the request body ended before its Content-Length").With("parameter", "body")
	}
	return overwatch.Wrap(overwatch.Invalid, err, "the request body could not be read (malformed chunks or compression)").With("parameter", "body")
}
