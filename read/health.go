package read

import (
	"context"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
)

// HealthCounts are the live counts of the position store.
type HealthCounts struct {
	Positions         uint64
	Vessels           uint64
	PositionsLastHour uint64
}

// HealthStore counts positions and vessels (positions of the hour before
// now), and says when each derived table was last computed (zero: never).
type HealthStore interface {
	HealthCounts(ctx context.Context, now time.Time) (HealthCounts, error)
	DerivedAges(ctx context.Context) (map[string]time.Time, error)
}

// DerivedAge is how fresh a derived table is: when the scheduled jobs
// last computed it and how long ago (both null when never).
type DerivedAge struct {
	ComputedAt *string `json:"computed_at"`
	AgeSeconds *int64  `json:"age_seconds"`
}

// Pinger is a dependency that can say whether it answers.
type Pinger interface {
	Ping(ctx context.Context) error
}

// HealthBody is the body of GET /v1/health. Counts are null when the
// position store does not answer.
type HealthBody struct {
	Status            string                `json:"status"`
	Positions         *uint64               `json:"positions"`
	Vessels           *uint64               `json:"vessels"`
	PositionsLastHour *uint64               `json:"positions_last_hour"`
	Checks            map[string]string     `json:"checks"`
	Derived           map[string]DerivedAge `json:"derived"`
}

// Health serves GET /v1/health (public): 200 and status "ok" when both
// stores answer, 503 and status "degraded" otherwise, with the check that
// failed. now is the service's clock (the last hour of positions); the
// derived tables' ages are measured on the real clock they are stamped
// with.
func Health(store HealthStore, pg Pinger, log *slog.Logger, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx, cancel := context.WithTimeout(c.UserContext(), 3*time.Second)
		defer cancel()
		body := HealthBody{Status: "ok", Checks: map[string]string{"clickhouse": "ok", "postgres": "ok"}}
		counts, err := store.HealthCounts(ctx, now())
		if err != nil {
			log.Warn("health: clickhouse", "err", err)
			body.Status, body.Checks["clickhouse"] = "degraded", "unreachable"
		} else {
			body.Positions, body.Vessels, body.PositionsLastHour = &counts.Positions, &counts.Vessels, &counts.PositionsLastHour
			if ages, err := store.DerivedAges(ctx); err == nil {
				body.Derived = derivedAges(ages, time.Now())
			} else {
				log.Warn("health: derived tables", "err", err)
			}
		}
		if err := pg.Ping(ctx); err != nil {
			log.Warn("health: postgres", "err", err)
			body.Status, body.Checks["postgres"] = "degraded", "unreachable"
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		if body.Status != "ok" {
			c.Status(fiber.StatusServiceUnavailable)
		}
		return c.JSON(body)
	}
}

func derivedAges(ages map[string]time.Time, now time.Time) map[string]DerivedAge {
	out := make(map[string]DerivedAge, len(ages))
	for name, at := range ages {
		var a DerivedAge
		if !at.IsZero() {
			s, age := at.UTC().Format(time.RFC3339), int64(now.Sub(at).Seconds())
			a.ComputedAt, a.AgeSeconds = &s, &age
		}
		out[name] = a
	}
	return out
}
