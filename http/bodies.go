package http

import (
	"errors"
	"io"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"overwatch"
	"overwatch/route"
	"overwatch/write"
)

// bodyBounds are the request bodies the routes take, found from a
// request's method and path before any of its body is read: none for
// GET, HEAD, OPTIONS and the methods the router does not know; the
// route's own for a route mounted with one (HandleBody); route.SmallBody
// for every other POST, PUT, PATCH and DELETE.
type bodyBounds struct {
	routes []boundRoute
}

type boundRoute struct {
	method string
	parts  []string // as routeIndex's
	body   route.Body
}

// add records the body of the route method path (the full path, /v1
// included).
func (b *bodyBounds) add(method, path string, body route.Body) {
	b.routes = append(b.routes, boundRoute{method: method, parts: segments(path), body: body})
}

// of is the body the request of these headers may send: the route's as
// the router will find it (its path as sent, any case, trailing slashes
// ignored).
func (b *bodyBounds) of(h *fasthttp.RequestHeader) route.Body {
	method := string(h.Method())
	switch method {
	case fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch, fiber.MethodDelete:
	default:
		return route.Body{}
	}
	small := route.Body{Max: route.SmallBody}
	if b == nil || len(b.routes) == 0 {
		return small
	}
	u := fasthttp.AcquireURI()
	defer fasthttp.ReleaseURI(u)
	if u.Parse(h.Host(), h.RequestURI()) != nil {
		return small // the server refuses the target next
	}
	parts := segments(string(u.PathOriginal()))
	for _, r := range b.routes {
		if r.method == method && matches(r.parts, parts) {
			return r.body
		}
	}
	return small
}

// admit judges a request from its headers alone, before any of its body
// is read: its framing (framingError), then the length it announces
// against its route's body (a 413). It returns the route's body.
func admit(h *fasthttp.RequestHeader, bounds *bodyBounds) (route.Body, error) {
	f := scanFraming(h.RawHeaders())
	if err := framingError(h, f); err != nil {
		return route.Body{}, err
	}
	body := bounds.of(h)
	if f.length > int64(body.Max) {
		return body, bodyTooLarge(body.Max)
	}
	return body, nil
}

func bodyTooLarge(max int) error {
	if max == 0 {
		return overwatch.Errorf(overwatch.TooLarge, "request body too large: this request takes no body")
	}
	return overwatch.Errorf(overwatch.TooLarge, "request body too large (at most %d bytes)", max)
}

// headerReceived runs once a request's headers are read, before its body
// is: a request admit refuses is marked to have no body, so that none of
// it is read (the guard answers it from the same headers and closes the
// connection); the others may send up to their route's bound, read as it
// arrives (the server streams every request body).
func headerReceived(bounds *bodyBounds) func(*fasthttp.RequestHeader) fasthttp.RequestConfig {
	return func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		body, err := admit(h, bounds)
		if err != nil {
			h.SetContentLength(0)
			h.Del(fiber.HeaderExpect)
			h.SetConnectionClose()
			return fasthttp.RequestConfig{}
		}
		return fasthttp.RequestConfig{MaxRequestBodySize: max(body.Max, 1)}
	}
}

// readWhole reads the request's streamed body whole, at most max bytes
// once decoded (a Content-Encoding the server knows is decoded here, its
// output bounded too, and the header dropped: the handlers see the body
// as sent before compression), its buffer growing with the bytes
// received.
func readWhole(fctx *fasthttp.RequestCtx, max int) error {
	s := fctx.RequestBodyStream()
	if s == nil {
		return nil
	}
	data, err := io.ReadAll(write.LimitBody(s, fctx.Request.Header.ContentLength(), max))
	if err != nil {
		return err
	}
	fctx.Request.SetBodyRaw(data)
	enc := fctx.Request.Header.ContentEncoding()
	if len(enc) == 0 || strings.EqualFold(string(enc), "identity") {
		return nil
	}
	decoded, err := fctx.Request.BodyUncompressedWithLimit(max)
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return bodyTooLarge(max)
	case errors.Is(err, fasthttp.ErrContentEncodingUnsupported):
		return overwatch.Errorf(overwatch.Invalid, "Content-Encoding %q is not supported: send the body as it is, or with gzip, deflate, br or zstd", clip(enc, 40)).With("parameter", "Content-Encoding")
	case err != nil:
		return overwatch.Wrap(overwatch.Invalid, err, "the request body could not be decompressed ("+string(clip(enc, 40))+")").With("parameter", "body")
	}
	fctx.Request.SetBodyRaw(decoded)
	fctx.Request.Header.Del(fiber.HeaderContentEncoding)
	return nil
}
