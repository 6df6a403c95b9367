package main

import (
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
)

func TestFramedTwice(t *testing.T) {
	for raw, want := range map[string]bool{
		"Host: x\r\nContent-Length: 4\r\n":                            false,
		"Host: x\r\nTransfer-Encoding: chunked\r\n":                   false,
		"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n":         true,
		"transfer-encoding : chunked\r\ncontent-length: 4\r\n":        true,
		"X-Content-Length: 4\r\nTransfer-Encoding: chunked\r\n":       false,
		"Content-Length: 4\r\nX-Note: Transfer-Encoding: chunked\r\n": false,
	} {
		if got := framedTwice([]byte(raw)); got != want {
			t.Errorf("%q: %v", raw, got)
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
