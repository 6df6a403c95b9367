package outbound

import (
	"context"
	"errors"
	"net"
	"strconv"
)

// The reasons a user is told of a failed outbound request. The errors of
// Do carry more (the addresses dialled, the resolver's address and answers,
// TLS details), which describe the service's own network: those are
// logged, never shown.
const (
	ReasonNotAllowed = "destination not allowed"
	ReasonConnection = "connection failed"
	ReasonTimeout    = "timed out"
	ReasonTooLarge   = "response too large"
)

// URLError is a URL that Check refuses for its form (scheme, user
// information, localhost, ...): its message speaks only of the URL the
// user gave, and may be shown.
type URLError struct{ Msg string }

func (e *URLError) Error() string { return e.Msg }

// Reason is what a user may be told of a request's outcome (resp and err
// as Do returned them): ReasonNotAllowed for a refused URL or address,
// "HTTP <status>" for an answer that is not 2xx (redirects included),
// ReasonTooLarge, ReasonTimeout, and ReasonConnection for every other
// failure (resolution, connection, TLS, a reset); "" for a 2xx answer.
func Reason(resp *Response, err error) string {
	var (
		refused *RefusedError
		bad     *URLError
		ne      net.Error
	)
	switch {
	case errors.As(err, &refused), errors.As(err, &bad):
		return ReasonNotAllowed
	case errors.Is(err, ErrTooLarge):
		return ReasonTooLarge
	case resp != nil && (resp.Status < 200 || resp.Status > 299):
		return "HTTP " + strconv.Itoa(resp.Status)
	case err == nil:
		return ""
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return ReasonTimeout
	}
	return ReasonConnection
}
