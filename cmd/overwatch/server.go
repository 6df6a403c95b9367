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
	log       *slog.Logger
	now       func() time.Time
	ch        *clickhouse.DB
	pg        *postgres.DB
	latest    *read.LatestReplica
	cache     *read.Cache
	limits    limits
	publisher read.Publisher
	openapi   []byte
	metrics   *prometheus.Registry
	refresh   write.Refresher
	billing   write.PaymentProvider
	outbound  *outbound.Client
	publicURL string
}

// Compile-time proof that the stores implement the edge's interfaces.
var (
	_ authenticator = (*postgres.DB)(nil)
	_ rateStore     = (*postgres.DB)(nil)
)

// newApp builds the Fiber app: the error path, panic recovery, CORS and
// the route table.
func newApp(d *deps) *fiber.App {
	app := fiber.New(fiber.Config{
		AppName:               "overwatch",
		ErrorHandler:          errorHandler(d.log),
		DisableStartupMessage: true,
		ReadTimeout:           15 * time.Second,
		WriteTimeout:          60 * time.Second,
		IdleTimeout:           90 * time.Second,
		BodyLimit:             4 << 20,
	})
	app.Use(recover.New(recover.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c *fiber.Ctx, e any) {
			d.log.Error("panic", "method", c.Method(), "path", c.Path(), "panic", e)
		},
	}))
	app.Use(cors)
	routes(app, d)
	return app
}
