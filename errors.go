package overwatch

import (
	"errors"
	"fmt"
)

// Code classifies an error. The HTTP edge maps each code to one status code;
// nothing else in the service chooses statuses.
type Code string

// The error codes of the service.
const (
	Invalid         Code = "invalid"           // 400: a bad parameter or body
	Unauthorized    Code = "unauthorized"      // 401: missing, bad or revoked key
	Forbidden       Code = "forbidden"         // 403: the plan does not include it
	NotFound        Code = "not_found"         // 404: no such resource or route
	NotAllowed      Code = "not_allowed"       // 405: the route exists, not with this method
	Timeout         Code = "timeout"           // 408: the client did not send its request in time
	Conflict        Code = "conflict"          // 409: refused by the resource's state
	Gone            Code = "gone"              // 410: what was asked for is no longer kept (an expired export, stream events past the resume window)
	TooLarge        Code = "too_large"         // 413: the request body is over the limit
	RangeInvalid    Code = "range_invalid"     // 416: a Range header no byte of the resource satisfies
	TooManyRequests Code = "too_many_requests" // 429: a rate limit was exceeded
	HeaderTooLarge  Code = "header_too_large"  // 431: the request line and headers are over the limit
	Unavailable     Code = "unavailable"       // 503: a dependency is down
	Internal        Code = "internal"          // 500: anything else
)

// Field is one extra member of an error body, written after "error" in order.
type Field struct {
	Key   string
	Value any
}

// Error is the error type that handlers return. Message is sent to the
// client as {"error": Message}, followed by Fields; Err is the cause, which
// is logged and never sent.
type Error struct {
	Code    Code
	Message string
	Fields  []Field
	Err     error
}

// Errorf builds an Error with a formatted client-facing message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap builds an Error whose client-facing message is msg and whose logged
// cause is err.
func Wrap(code Code, err error, msg string) *Error {
	return &Error{Code: code, Message: msg, Err: err}
}

// With returns e with one more body field; a field of the same key is
// replaced, so that naming a parameter twice writes it once.
func (e *Error) With(key string, value any) *Error {
	for i := range e.Fields {
		if e.Fields[i].Key == key {
			e.Fields[i].Value = value
			return e
		}
	}
	e.Fields = append(e.Fields, Field{Key: key, Value: value})
	return e
}

// Error implements error; it includes the cause for logs.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the code of err, Internal for errors that are not an
// *Error.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}
