package main

import (
	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/read"
	"overwatch/write"
)

// routes mounts the service: the operations endpoints, the OpenAPI
// document, the CORS preflights, and every route of the read and write
// sides, each listed by its area beside its handlers (read.Routes,
// write.Routes) and put here behind the checks its access asks for.
func routes(app *fiber.App, d *deps) {
	// Operations.
	app.Get("/metrics", serveMetrics(d.metrics))

	v1 := app.Group("/v1")
	v1.Get("/openapi.json", serveOpenAPI(d.openapi))
	v1.Options("/ais/:provider/:imo/location/latest", publicPreflight)
	v1.Options("/*", keyedPreflight)

	e := edge{router: v1, d: d}
	read.Routes(e, read.Deps{
		Analytics: d.ch, Accounts: d.pg, Latest: d.latest, Publisher: d.publisher,
		Cache: d.cache, Now: d.now, Log: d.log,
	})
	write.Routes(e, write.Deps{
		Accounts: d.pg, Billing: d.billing, Refresher: d.refresh, Outbound: d.outbound,
		CheckURL: d.checkURL, PublicURL: d.publicURL, Now: d.now,
	})
}

// edge mounts a route behind what its access asks for: the public surface
// is limited per client IP; the keyed surface authenticates (a key
// required, or read when presented), then draws from the per-IP minute and
// the account's daily quota.
type edge struct {
	router fiber.Router
	d      *deps
}

// Handle implements read.Router and write.Router.
func (e edge) Handle(method, path string, access overwatch.Access, h fiber.Handler) {
	var chain []fiber.Handler
	switch access {
	case overwatch.AccessPublic:
		chain = []fiber.Handler{e.d.limits.public(), h}
	case overwatch.AccessOptionalKey:
		chain = []fiber.Handler{authenticate(e.d.pg, false), e.d.limits.keyed(), h}
	default:
		chain = []fiber.Handler{authenticate(e.d.pg, true), e.d.limits.keyed(), h}
	}
	e.router.Add(method, path, chain...)
}

var (
	_ read.Router  = edge{}
	_ write.Router = edge{}
)
