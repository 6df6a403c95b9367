package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// statusOf maps each error code to its HTTP status: the only place in the
// service that does.
var statusOf = map[overwatch.Code]int{
	overwatch.Invalid:         fiber.StatusBadRequest,
	overwatch.Unauthorized:    fiber.StatusUnauthorized,
	overwatch.Forbidden:       fiber.StatusForbidden,
	overwatch.NotFound:        fiber.StatusNotFound,
	overwatch.NotAllowed:      fiber.StatusMethodNotAllowed,
	overwatch.Timeout:         fiber.StatusRequestTimeout,
	overwatch.Conflict:        fiber.StatusConflict,
	overwatch.Gone:            fiber.StatusGone,
	overwatch.TooLarge:        fiber.StatusRequestEntityTooLarge,
	overwatch.TooManyRequests: fiber.StatusTooManyRequests,
	overwatch.HeaderTooLarge:  fiber.StatusRequestHeaderFieldsTooLarge,
	overwatch.Unavailable:     fiber.StatusServiceUnavailable,
	overwatch.Internal:        fiber.StatusInternalServerError,
}

// errorHandler is the one error path: every handler and middleware returns
// errors, and this writes them as {"error": "<message>", ...fields} with
// the status of their code. Causes are logged, never sent. It also
// answers what the HTTP server refuses before any route runs (a body or
// headers over the limit, a client too slow to send its request), so it
// sets the headers every response carries itself. routes tells a wrong
// method (405 with Allow) from an unknown path (404).
func errorHandler(log *slog.Logger, routes *routeIndex) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		commonHeaders(&c.Response().Header, false)
		var e *overwatch.Error
		var fe *fiber.Error
		switch {
		case errors.As(err, &e):
		case errors.As(err, &fe):
			e = fromFiber(c, fe, routes)
		default:
			e = overwatch.Wrap(overwatch.Internal, err, "internal error")
		}
		status, ok := statusOf[e.Code]
		if !ok {
			status = fiber.StatusInternalServerError
		}
		if status >= 500 {
			log.Error("request failed", "method", c.Method(), "path", c.Path(), "status", status, "err", err)
		}
		var body bytes.Buffer
		body.WriteString(`{"error":`)
		writeJSON(&body, e.Message)
		for _, f := range e.Fields {
			body.WriteByte(',')
			writeJSON(&body, f.Key)
			body.WriteByte(':')
			writeJSON(&body, f.Value)
		}
		body.WriteByte('}')
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		c.Response().Header.Del(fiber.HeaderContentDisposition)
		return c.Status(status).Send(body.Bytes())
	}
}

func writeJSON(b *bytes.Buffer, v any) {
	enc, err := json.Marshal(v)
	if err != nil {
		enc = []byte(`null`)
	}
	b.Write(enc)
}

// fromFiber turns the router's and the HTTP server's own errors (no
// route, a wrong method, body too large, ...) into service errors.
func fromFiber(c *fiber.Ctx, fe *fiber.Error, routes *routeIndex) *overwatch.Error {
	switch fe.Code {
	case fiber.StatusNotFound, fiber.StatusMethodNotAllowed:
		allow := routes.allowed(c.Path())
		c.Response().Header.Del(fiber.HeaderAllow) // the router's guess
		if len(allow) == 0 {
			return overwatch.Errorf(overwatch.NotFound, "no such endpoint: %s %s", c.Method(), c.Path())
		}
		c.Set(fiber.HeaderAllow, strings.Join(allow, ", "))
		return overwatch.Errorf(overwatch.NotAllowed, "method %s is not allowed on %s; allowed: %s", c.Method(), c.Path(), strings.Join(allow, ", "))
	case fiber.StatusRequestEntityTooLarge:
		return overwatch.Errorf(overwatch.TooLarge, "request body too large")
	case fiber.StatusRequestHeaderFieldsTooLarge:
		return overwatch.Errorf(overwatch.HeaderTooLarge, "request line and headers too large (at most %d bytes)", c.App().Config().ReadBufferSize)
	case fiber.StatusRequestTimeout:
		return overwatch.Errorf(overwatch.Timeout, "the request was not received in time")
	}
	if fe.Code >= 400 && fe.Code < 500 {
		return overwatch.Errorf(overwatch.Invalid, "%s", http.StatusText(fe.Code))
	}
	return overwatch.Wrap(overwatch.Internal, fe, "internal error")
}
