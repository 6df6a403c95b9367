package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

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
	overwatch.Conflict:        fiber.StatusConflict,
	overwatch.TooManyRequests: fiber.StatusTooManyRequests,
	overwatch.Unavailable:     fiber.StatusServiceUnavailable,
	overwatch.Internal:        fiber.StatusInternalServerError,
}

// errorHandler is the one error path: every handler and middleware returns
// errors, and this writes them as {"error": "<message>", ...fields} with
// the status of their code. Causes are logged, never sent.
func errorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		var e *overwatch.Error
		var fe *fiber.Error
		switch {
		case errors.As(err, &e):
		case errors.As(err, &fe):
			e = fromFiber(c, fe)
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

// fromFiber turns the router's own errors (no route, body too large, ...)
// into service errors.
func fromFiber(c *fiber.Ctx, fe *fiber.Error) *overwatch.Error {
	switch fe.Code {
	case fiber.StatusNotFound:
		return overwatch.Errorf(overwatch.NotFound, "no such endpoint: %s %s", c.Method(), c.Path())
	case fiber.StatusMethodNotAllowed:
		return overwatch.Errorf(overwatch.NotFound, "no such endpoint: %s %s", c.Method(), c.Path())
	case fiber.StatusRequestEntityTooLarge:
		return overwatch.Errorf(overwatch.Invalid, "request body too large")
	}
	if fe.Code >= 400 && fe.Code < 500 {
		return overwatch.Errorf(overwatch.Invalid, "%s", http.StatusText(fe.Code))
	}
	return overwatch.Wrap(overwatch.Internal, fe, "internal error")
}
