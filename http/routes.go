package http

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/bulk"
	"overwatch/read"
	"overwatch/route"
	"overwatch/web"
	"overwatch/write"
	"overwatch/write/outbound"
)

// routes mounts the service: the pages for people (/docs, /map,
// /dashboard), the OpenAPI document, the CORS preflights,
// and every route of the read and write sides, each listed by its area
// beside its handlers (read.Routes, write.Routes) and put here behind the
// checks its access asks for. /metrics is served on its own address
// (metricsApp, in serve); here only when OVERWATCH_METRICS_TOKEN lets it share
// the API's address, for that bearer token. The bodies of the routes
// mounted with their own are recorded in bounds.
func routes(app *fiber.App, d *Deps, bounds *bodyBounds) {
	if d.Keys == nil {
		d.Keys = NewKeyGuard(d.Limits, 20, time.Minute)
	}
	if d.MetricsToken != "" {
		app.Get("/metrics", bearerOnly(d.MetricsToken), ServeMetrics(d.Metrics))
	}

	mountLand(app) // before the pages: /map/* would answer /map/land.geojson
	mountPages(app, web.Pages())
	v1 := app.Group("/v1")
	v1.Get("/openapi.json", serveOpenAPI(d.OpenAPI))
	v1.Options("/ais/:provider/:imo/location/latest", publicPreflight)
	methods := &keyedMethods{}
	v1.Options("/*", keyedPreflight(methods))

	e := edge{router: v1, prefix: "/v1", d: d, methods: methods, bounds: bounds}
	read.Routes(e, read.Deps{
		Analytics: d.Analytics, Accounts: d.Accounts, Latest: d.Latest, Fleet: d.Latest, Publisher: d.Publisher,
		Cache: d.Cache, Now: d.Now, Log: d.Log, SAR: d.SAR, FreightMinContributors: d.FreightMinContributors,
		Live: d.Live, StreamHeartbeat: d.StreamHeartbeat,
	})
	write.Routes(e, write.Deps{
		Accounts: d.Accounts, Billing: d.Billing, Refresher: d.Refresh, Outbound: d.Outbound,
		CheckURL: d.checkURL, PublicURL: d.PublicURL, Now: d.Now, EventLimit: d.Limits.events,
	})
	if d.Exports.Pool != nil {
		bulk.Routes(e, d.Exports)
	}
}

// edge mounts a route behind what its access asks for. The public surface
// is limited per client IP. The keyed surface draws from the per-IP
// minute first, then authenticates (a key required, or read when
// presented; invented keys draw from the failed-key budget), then draws
// from the account's daily quota; its answers are never stored by caches
// and their arrays are held to the plan's results per call. The payment
// provider's signed events draw from their own budget once their
// signature verifies (in the handler). Every route refuses text that is
// not valid UTF-8 or holds NUL bytes (checkInput). A route's body is
// bounded by the guard (bodyBounds) before any of this runs.
type edge struct {
	router  fiber.Router
	prefix  string // the router's path
	d       *Deps
	methods *keyedMethods
	bounds  *bodyBounds
}

// unclamped are the keyed routes whose arrays are reference data, not
// results: the ports and the plans; the tracks, time series bounded
// by their time range and the plan's history floor, whose every fix in
// range is the answer; and the live stream, a stream of messages.
var unclamped = map[string]bool{"/ports": true, "/billing/plans": true, "/vessels/:imo/track": true, "/tracks": true,
	"/exports/:id/download": true, "/stream": true}

// Unclamped reports whether the keyed route of path (as mounted under /v1,
// with :params) answers arrays the plan does not clamp.
func Unclamped(path string) bool { return unclamped[path] }

// HandleBody implements route.Router: Handle, the route's body bounded
// by body instead of the default.
func (e edge) HandleBody(method, path string, access overwatch.Access, body route.Body, h fiber.Handler) {
	e.bounds.add(method, e.prefix+path, body)
	e.Handle(method, path, access, h)
}

// Handle implements route.Router and route.Router.
func (e edge) Handle(method, path string, access overwatch.Access, h fiber.Handler) {
	l := e.d.Limits
	var chain []fiber.Handler
	switch access {
	case overwatch.AccessPublic:
		chain = []fiber.Handler{l.public(), checkInput(false), h}
	case overwatch.AccessSigned:
		chain = []fiber.Handler{checkInput(true), h}
	default:
		e.methods.add(method)
		chain = []fiber.Handler{noStore, l.perIP(), checkInput(true),
			authenticate(e.d.Accounts, e.d.Keys, access != overwatch.AccessOptionalKey), l.daily()}
		if !unclamped[path] {
			chain = append(chain, clampResults())
		}
		chain = append(chain, h)
	}
	e.router.Add(method, path, chain...)
}

// noStore keeps the keyed surface's answers, errors included, out of
// every cache: they depend on the key.
func noStore(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Next()
}

var _ route.Router = edge{}

// checkURL validates a webhook URL at registration with the outbound
// client's rules, its host name resolved now (outbound.CheckResolved).
func (d *Deps) checkURL(ctx context.Context, raw string) error {
	c := d.Outbound
	if c == nil {
		c = outbound.New(outbound.Options{Log: d.Log})
	}
	_, err := c.CheckResolved(ctx, raw)
	return err
}
