package http

import (
	"errors"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"overwatch"
)

// guard runs before Fiber's router on every request the server reads: it
// sets the headers every response carries (CORS, nosniff), refuses what
// admit refuses from the headers alone (a request framed ambiguously, one
// announcing more body than its route takes) and closes its connection,
// answers methods the router does not know, which Fiber would answer in
// plain text, through the one error path, and reads the body of a route
// that does not stream it whole (readWhole) before the route's checks run.
func guard(app *fiber.App, bounds *bodyBounds, next fasthttp.RequestHandler) fasthttp.RequestHandler {
	known := map[string]bool{}
	for _, m := range app.Config().RequestMethods {
		known[m] = true
	}
	return func(fctx *fasthttp.RequestCtx) {
		commonHeaders(&fctx.Response.Header, fctx.IsOptions())
		body, err := admit(&fctx.Request.Header, bounds)
		switch {
		case err != nil:
			fctx.SetConnectionClose()
		case !known[string(fctx.Method())]:
			err = fiber.ErrMethodNotAllowed
		case !body.Stream:
			if err = readWhole(fctx, body.Max); err != nil {
				fctx.SetConnectionClose()
			}
		}
		if err == nil {
			next(fctx)
			return
		}
		answer(app, fctx, err)
	}
}

// answer writes err through the app's error path, for a request no route
// has seen.
func answer(app *fiber.App, fctx *fasthttp.RequestCtx, err error) {
	c := app.AcquireCtx(fctx)
	defer app.ReleaseCtx(c)
	if herr := app.ErrorHandler(c, err); herr != nil {
		fctx.Error(`{"error":"internal error"}`, fiber.StatusInternalServerError)
	}
}

// serverErrors answers what the HTTP server refuses while it reads a
// request, before the guard: a second Content-Length, or an HTTP/1.1
// request without a Host header, is a 400 saying so (the server's own
// message quotes the request, key included: it is never sent); the rest
// goes to Fiber's own handler (next), which maps them onto the app's
// error path.
func serverErrors(app *fiber.App, next func(*fasthttp.RequestCtx, error)) func(*fasthttp.RequestCtx, error) {
	return func(fctx *fasthttp.RequestCtx, err error) {
		switch {
		case errors.Is(err, fasthttp.ErrDuplicateContentLength):
			answer(app, fctx, overwatch.Errorf(overwatch.Invalid, "a request may carry only one Content-Length header"))
		case strings.Contains(err.Error(), "missing required host header"):
			answer(app, fctx, overwatch.Errorf(overwatch.Invalid, "an HTTP/1.1 request must carry a Host header"))
		default:
			next(fctx, err)
		}
	}
}

// commonHeaders are on every response of the API: any origin may call it
// (the public surface is meant for browsers; the keyed surface takes no
// cookies, only keys in headers), browsers may read the rate-limit
// headers, and no response is sniffed for another content type. Header
// names go out exactly as set (X-RateLimit-*, as the README spells them);
// request headers are still matched case-insensitively.
func commonHeaders(h *fasthttp.ResponseHeader, preflight bool) {
	h.DisableNormalizing()
	h.SetCanonical(headerAllowOrigin, anyOrigin)
	h.SetCanonical(headerContentTypeOptions, nosniff)
	if !preflight {
		h.SetCanonical(headerExposeHeaders, exposedHeaders)
	}
}

// The common headers, as bytes: set on every response without conversions.
var (
	headerAllowOrigin        = []byte(fiber.HeaderAccessControlAllowOrigin)
	anyOrigin                = []byte("*")
	headerContentTypeOptions = []byte(fiber.HeaderXContentTypeOptions)
	nosniff                  = []byte("nosniff")
	headerExposeHeaders      = []byte(fiber.HeaderAccessControlExposeHeaders)
	exposedHeaders           = []byte("Retry-After, X-RateLimit-Limit-Minute, X-RateLimit-Remaining-Minute, X-RateLimit-Limit-Day, X-RateLimit-Remaining-Day")
)

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
