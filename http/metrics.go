package http

import (
	"crypto/sha256"
	"crypto/subtle"
	"log/slog"
	"overwatch"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/middleware/pprof"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// ServeMetrics is the /metrics handler in Prometheus's text format.
func ServeMetrics(reg *prometheus.Registry) fiber.Handler {
	return adaptor.HTTPHandler(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
}

// MetricsApp serves /metrics alone, for its own listener
// (OVERWATCH_METRICS_ADDR, loopback by default): the operators' address,
// apart from the API's; with profiles, also Go's runtime profiles at
// /debug/pprof/ (OVERWATCH_PPROF).
func MetricsApp(reg *prometheus.Registry, log *slog.Logger, profiles bool) *fiber.App {
	app := fiber.New(fiber.Config{
		AppName:               "overwatch-metrics",
		DisableStartupMessage: true,
		ErrorHandler:          errorHandler(log, nil),
		ReadTimeout:           15 * time.Second,
		IdleTimeout:           90 * time.Second,
	})
	app.Get("/metrics", ServeMetrics(reg))
	if profiles {
		app.Use(pprof.New()) // /debug/pprof/: goroutine, heap, profile, ...
	}
	return app
}

// bearerOnly admits requests that carry Authorization: Bearer <token>
// (OVERWATCH_METRICS_TOKEN, for /metrics on the API's address); others get
// 401. The comparison takes the same time whatever the token sent.
func bearerOnly(token string) fiber.Handler {
	want := sha256.Sum256([]byte(token))
	return func(c *fiber.Ctx) error {
		scheme, sent, _ := strings.Cut(strings.TrimSpace(c.Get(fiber.HeaderAuthorization)), " ")
		got := sha256.Sum256([]byte(strings.TrimSpace(sent)))
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="metrics"`)
			return overwatch.Errorf(overwatch.Unauthorized, "/metrics needs the operators' bearer token")
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Next()
	}
}
