package main

import (
	"log/slog"
	"time"

	"overwatch/write/outbound"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/prometheus/client_golang/prometheus"

	"overwatch/clickhouse"
	"overwatch/postgres"
	"overwatch/read"
	"overwatch/write"
)

// deps is everything the routes need, built once by serve.
type deps struct {
	log          *slog.Logger
	now          func() time.Time
	ch           *clickhouse.DB
	pg           *postgres.DB
	latest       *read.LatestReplica
	cache        *read.Cache
	limits       limits
	publisher    read.Publisher
	openapi      []byte
	metrics      *prometheus.Registry
	refresh      write.Refresher
	billing      write.PaymentProvider
	outbound     *outbound.Client
	publicURL    string
	keys         *keyGuard     // the failed-key budget and unknown-key cache; nil: none
	metricsToken string        // when set, /metrics on the API address for this bearer token
	readTimeout  time.Duration // 0: 15 s
	// sar is the Sentinel-1 catalogue client (nil: the stored products only).
	sar read.SARCatalogue
}

// Compile-time proof that the stores implement the edge's interfaces.
var (
	_ authenticator = (*postgres.DB)(nil)
	_ rateStore     = (*postgres.DB)(nil)
)

// The HTTP server's bounds: a body over bodyLimit is a 413, a request
// line and headers over headerLimit a 431, a request not received within
// the read timeout (OVERWATCH_READ_TIMEOUT) a 408, each with a JSON body.
// bodyLimit lets the largest upload through (a P&I coverage CSV of
// write.MaxPICoverageBody with its multipart framing); each handler holds
// its own body to its own bound (64 KiB for a freight rate, ...).
const (
	bodyLimit   = 10<<20 + 64<<10
	headerLimit = 8 << 10
)

// newApp builds the Fiber app: the error path, the request guard (common
// headers, framing, unknown methods), panic recovery and the route table.
func newApp(d *deps) *fiber.App {
	readTimeout := d.readTimeout
	if readTimeout <= 0 {
		readTimeout = 15 * time.Second
	}
	index := &routeIndex{}
	app := fiber.New(fiber.Config{
		AppName:               "overwatch",
		ErrorHandler:          errorHandler(d.log, index),
		DisableStartupMessage: true,
		ReadTimeout:           readTimeout,
		WriteTimeout:          60 * time.Second,
		IdleTimeout:           90 * time.Second,
		BodyLimit:             bodyLimit,
		ReadBufferSize:        headerLimit,
	})
	app.Use(recover.New(recover.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c *fiber.Ctx, e any) {
			d.log.Error("panic", "method", c.Method(), "path", c.Path(), "panic", e)
		},
	}))
	routes(app, d)
	index.index(app.GetRoutes(true))
	app.Server().Handler = guard(app, app.Server().Handler)
	return app
}
