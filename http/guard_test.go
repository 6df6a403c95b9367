package http

import (
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
)

// The raw header block's framing: what each line says, and the first
// malformed line.
func TestScanFraming(t *testing.T) {
	for raw, want := range map[string]rawFraming{
		"Host: x\r\nContent-Length: 4\r\n\r\n":                              {lengths: 1, length: 4, host: true},
		"Host: x\r\nTransfer-Encoding: chunked\r\n\r\n":                     {length: -1, encodings: 1, encoding: []byte("chunked"), host: true},
		"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n":           {lengths: 1, length: 4, encodings: 1, encoding: []byte("chunked")},
		"content-length: 4\r\nContent-Length: 5\r\n\r\n":                    {lengths: 2, length: 5},
		"Content-Length: x\r\n\r\n":                                         {lengths: 1, length: -1},
		"X-Content-Length: 4\r\nX-Note: Transfer-Encoding: chunked\r\n\r\n": {length: -1},
		"Host: x\nX-A: 1\r\n\r\n":                                           {length: -1, malformed: "bare LF"},
		"Host: x\r\n\n":                                                     {length: -1, host: true, malformed: "bare LF"},
		"Host: x\r\nX-A: 1\r\n  2\r\n\r\n":                                  {length: -1, host: true, malformed: "obs-fold"},
		"Host: x\r\nX-A: 1\r\n\t2\r\n\r\n":                                  {length: -1, host: true, malformed: "obs-fold"},
		"X-A: a\x00b\r\n\r\n":                                               {length: -1, malformed: "control character"},
		"X-A: a\rb\r\n\r\n":                                                 {length: -1, malformed: "control character"},
		"X-A: a\tb \x80\r\n\r\n":                                            {length: -1},
	} {
		got := scanFraming([]byte(raw))
		if got.lengths != want.lengths || got.length != want.length || got.encodings != want.encodings ||
			string(got.encoding) != string(want.encoding) || got.host != want.host ||
			(want.malformed == "") != (got.malformed == "") || !strings.Contains(got.malformed, want.malformed) {
			t.Errorf("%q: %+v, want %+v", raw, got, want)
		}
	}
}

func TestRouteIndexAllowed(t *testing.T) {
	app := fiber.New()
	v1 := app.Group("/v1")
	v1.Options("/*", func(c *fiber.Ctx) error { return nil })
	v1.Add(fiber.MethodGet, "/portfolios/:id", func(c *fiber.Ctx) error { return nil })
	v1.Add(fiber.MethodDelete, "/portfolios/:id", func(c *fiber.Ctx) error { return nil })
	v1.Add(fiber.MethodPut, "/watchlist", func(c *fiber.Ctx) error { return nil })
	v1.Add(fiber.MethodGet, "/watchlist", func(c *fiber.Ctx) error { return nil })
	x := &routeIndex{}
	x.index(app.GetRoutes(true))
	for path, want := range map[string]string{
		"/v1/portfolios/7":   "GET, DELETE, OPTIONS",
		"/V1/Portfolios/7/":  "GET, DELETE, OPTIONS",
		"/v1/portfolios":     "",
		"/v1/portfolios/7/x": "",
		"/v1/watchlist":      "GET, PUT, OPTIONS",
		"/v1/nope":           "",
		"/":                  "",
	} {
		if got := strings.Join(x.allowed(path), ", "); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}
