package write

import (
	"context"
	"time"

	"overwatch"

	"github.com/gofiber/fiber/v2"
)

// Refresher recomputes the port calls and the congestion now and says what
// it recomputed.
type Refresher interface {
	RefreshCongestion(ctx context.Context) (any, error)
}

// RefreshBody is the answer of POST /v1/congestion/refresh.
type RefreshBody struct {
	Success bool `json:"success"`
	Result  any  `json:"result"`
}

// refreshRoutes mounts the congestion refresh.
func refreshRoutes(r Router, rf Refresher) {
	r.Handle(fiber.MethodPost, "/congestion/refresh", overwatch.AccessKey, RefreshCongestion(rf))
}

// RefreshCongestion serves POST /v1/congestion/refresh (key required): it
// runs the port-call and congestion derivations at once, in this request,
// and answers what they recomputed (the window, the rows written, how long
// each took). When another instance is running them it answers 409; the
// body, if any, is ignored.
func RefreshCongestion(r Refresher) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx, cancel := context.WithTimeout(c.UserContext(), 5*time.Minute)
		defer cancel()
		res, err := r.RefreshCongestion(ctx)
		if err != nil {
			return err
		}
		return c.JSON(RefreshBody{Success: true, Result: res})
	}
}
