package http

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/prometheus/client_golang/prometheus"

	"overwatch/bulk"
	"overwatch/read"
	"overwatch/route"
	"overwatch/write"
	"overwatch/write/outbound"
)

// Deps is everything the edge and the routes need, built once by the
// application (app.serve).
type Deps struct {
	Log       *slog.Logger
	Now       func() time.Time
	Analytics read.Analytics // the derived tables (ClickHouse)
	Accounts  Accounts       // accounts, keys and what users write (PostgreSQL)
	Latest    *read.LatestReplica
	Cache     *read.Cache
	Limits    Limits
	Publisher read.Publisher
	OpenAPI   []byte // the merged OpenAPI document served at /v1/openapi.json
	Metrics   *prometheus.Registry
	Refresh   write.Refresher
	Billing   write.PaymentProvider
	Outbound  *outbound.Client
	PublicURL string
	// Keys is the failed-key budget and unknown-key cache (nil: one of 20
	// failed keys a minute per client IP).
	Keys *KeyGuard
	// MetricsToken, when set, serves /metrics on the API address for this
	// bearer token.
	MetricsToken string
	ReadTimeout  time.Duration // 0: 15 s
	// SAR is the Sentinel-1 catalogue client (nil: the stored products only).
	SAR read.SARCatalogue
	// Live is the live stream's hub (nil: this process runs no ingest, and
	// GET /v1/stream answers 503).
	Live read.LiveHub
	// StreamHeartbeat is how often an idle live stream proves it is alive
	// (0: read.StreamHeartbeat).
	StreamHeartbeat time.Duration
	// FreightMinContributors is k of the freight-rate aggregates (0: the default).
	FreightMinContributors int
	// Exports are the bulk feed's stores and worker pool (a nil Pool: no
	// /v1/exports).
	Exports bulk.Deps
}

// Accounts is the account store as the edge (key lookups, rate counters
// through Limits) and both sides' routes use it.
type Accounts interface {
	read.Accounts
	write.Accounts
	authenticator
}

// The HTTP server's bounds: a request line and headers over headerLimit
// are a 431, a request not received within the read timeout
// (OVERWATCH_READ_TIMEOUT) a 408, each with a JSON body. Bodies are
// bounded per route (bodyBounds: none for a GET, route.SmallBody for most
// writes, the P&I import's own): a body announced over its route's bound
// is a 413 from the headers, before any of it is read or the key looked
// up; the server streams every body, so that a body's buffer grows with
// the bytes received, never with the length announced.
const HeaderLimit = 8 << 10

// NewApp builds the Fiber app: the error path, the request guard (common
// headers, framing, body bounds, unknown methods), panic recovery and the
// route table.
func NewApp(d *Deps) *fiber.App {
	readTimeout := d.ReadTimeout
	if readTimeout <= 0 {
		readTimeout = 15 * time.Second
	}
	index := &routeIndex{}
	bounds := &bodyBounds{}
	app := fiber.New(fiber.Config{
		AppName:                      "overwatch",
		ErrorHandler:                 errorHandler(d.Log, index),
		DisableStartupMessage:        true,
		ReadTimeout:                  readTimeout,
		WriteTimeout:                 60 * time.Second,
		IdleTimeout:                  90 * time.Second,
		BodyLimit:                    route.SmallBody, // per request: headerReceived
		ReadBufferSize:               HeaderLimit,
		StreamRequestBody:            true,
		DisablePreParseMultipartForm: true,
	})
	app.Use(recover.New(recover.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c *fiber.Ctx, e any) {
			d.Log.Error("panic", "method", c.Method(), "path", c.Path(), "panic", e)
		},
	}))
	routes(app, d, bounds)
	index.index(app.GetRoutes(true))
	srv := app.Server()
	srv.HeaderReceived = headerReceived(bounds)
	srv.ErrorHandler = serverErrors(app, srv.ErrorHandler)
	srv.Handler = guard(app, bounds, srv.Handler)
	return app
}
