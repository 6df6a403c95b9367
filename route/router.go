package route

import (
	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// Router is where the read and write sides mount their routes: the HTTP
// edge, which authenticates and limits each route by its access, and
// bounds its request body. Handle mounts a route with the edge's default
// body (SmallBody for POST, PUT, PATCH and DELETE; none for the other
// methods), HandleBody one with its own.
type Router interface {
	Handle(method, path string, access overwatch.Access, h fiber.Handler)
	HandleBody(method, path string, access overwatch.Access, body Body, h fiber.Handler)
}

// Body is the request body a route takes: at most Max bytes, refused with
// a 413 from the request's Content-Length before any of it is read (or,
// for a chunked body, once more than Max bytes have arrived). The edge
// reads a body whole before the handler runs, its buffer growing with the
// bytes received; with Stream, the handler reads it itself as it arrives
// (write.BodyReader), after the edge's checks (the key first).
type Body struct {
	Max    int
	Stream bool
}

// SmallBody is the body bound of a route mounted with Handle: a JSON
// object of a few fields.
const SmallBody = 64 << 10
