package main

import (
	"bytes"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"overwatch"
)

// guard runs before Fiber's router on every request the server reads: it
// sets the headers every response carries (CORS, nosniff), refuses a
// request that frames its body twice (Content-Length and
// Transfer-Encoding: a request-smuggling vector behind proxies), and
// answers methods the router does not know, which Fiber would answer in
// plain text, through the one error path.
func guard(app *fiber.App, next fasthttp.RequestHandler) fasthttp.RequestHandler {
	known := map[string]bool{}
	for _, m := range app.Config().RequestMethods {
		known[m] = true
	}
	return func(fctx *fasthttp.RequestCtx) {
		commonHeaders(&fctx.Response.Header, fctx.IsOptions())
		var err error
		switch {
		case framedTwice(fctx.Request.Header.RawHeaders()):
			fctx.SetConnectionClose()
			err = overwatch.Errorf(overwatch.Invalid, "a request may not carry both Content-Length and Transfer-Encoding")
		case !known[string(fctx.Method())]:
			err = fiber.ErrMethodNotAllowed
		default:
			next(fctx)
			return
		}
		c := app.AcquireCtx(fctx)
		defer app.ReleaseCtx(c)
		if herr := app.ErrorHandler(c, err); herr != nil {
			fctx.Error(`{"error":"internal error"}`, fiber.StatusInternalServerError)
		}
	}
}

// commonHeaders are on every response of the API: any origin may call it
// (the public surface is meant for browsers; the keyed surface takes no
// cookies, only keys in headers), browsers may read the rate-limit
// headers, and no response is sniffed for another content type. Header
// names go out exactly as set (X-RateLimit-*, as the spec spells them);
// request headers are still matched case-insensitively.
func commonHeaders(h *fasthttp.ResponseHeader, preflight bool) {
	h.DisableNormalizing()
	h.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	h.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if !preflight {
		h.Set(fiber.HeaderAccessControlExposeHeaders,
			"Retry-After, X-RateLimit-Limit-Minute, X-RateLimit-Remaining-Minute, X-RateLimit-Limit-Day, X-RateLimit-Remaining-Day")
	}
}

// framedTwice reports whether raw request headers hold both a
// Content-Length and a Transfer-Encoding header.
func framedTwice(raw []byte) bool {
	var length, encoding bool
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		name, _, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		switch {
		case bytes.EqualFold(bytes.TrimSpace(name), []byte(fiber.HeaderContentLength)):
			length = true
		case bytes.EqualFold(bytes.TrimSpace(name), []byte(fiber.HeaderTransferEncoding)):
			encoding = true
		}
	}
	return length && encoding
}

// routeIndex knows the methods of every path of the app, for the Allow
// header of a 405 and to tell a wrong method from an unknown path.
type routeIndex struct {
	routes []indexedRoute
}

type indexedRoute struct {
	method string
	parts  []string // lower-case segments; ":x" matches one segment, "*" the rest
}

// index records the app's routes; call it once every route is mounted.
func (x *routeIndex) index(routes []fiber.Route) {
	for _, r := range routes {
		x.routes = append(x.routes, indexedRoute{method: r.Method, parts: segments(r.Path)})
	}
}

// allowed returns the methods path answers, in a stable order; none for a
// path that only the keyed surface's wildcard preflight (OPTIONS on any
// /v1 path) matches.
func (x *routeIndex) allowed(path string) []string {
	if x == nil {
		return nil
	}
	parts := segments(path)
	var out []string
	for _, r := range x.routes {
		if matches(r.parts, parts) && !slices.Contains(out, r.method) {
			out = append(out, r.method)
		}
	}
	if len(out) == 0 || len(out) == 1 && out[0] == fiber.MethodOptions {
		return nil
	}
	order := func(m string) int { return slices.Index(fiber.DefaultMethods, m) }
	slices.SortFunc(out, func(a, b string) int { return order(a) - order(b) })
	return out
}

func segments(path string) []string {
	path = strings.Trim(strings.ToLower(path), "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}

func matches(route, path []string) bool {
	for i, p := range route {
		if p == "*" {
			return true
		}
		if i >= len(path) {
			return false
		}
		if strings.HasPrefix(p, ":") {
			if path[i] == "" {
				return false
			}
			continue
		}
		if p != path[i] {
			return false
		}
	}
	return len(route) == len(path)
}
