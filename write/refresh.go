package write

import (
	"context"
	"math"
	"strconv"
	"time"

	"overwatch"

	"github.com/gofiber/fiber/v2"
)

// Refresher recomputes the port calls and the congestion now and says what
// it recomputed.
type Refresher interface {
	RefreshCongestion(ctx context.Context) (any, error)
}

// RefreshGate admits congestion refreshes. Claim holds a named lock for
// every instance sharing the store (false when another holds it; spacing
// 0: the lock alone), TakeCooldown records a run of a key unless its last
// was less than cooldown ago (then false, and when it may run again).
// postgres.DB implements both: a session advisory lock (the jobs' claim)
// and a table of last runs.
type RefreshGate interface {
	Claim(ctx context.Context, name string, spacing time.Duration) (release func(context.Context) error, ok bool, err error)
	TakeCooldown(ctx context.Context, key string, now time.Time, cooldown time.Duration) (next time.Time, ok bool, err error)
}

// RefreshLock is the lock a congestion refresh holds while it runs: one
// refresh at a time for the whole service.
const RefreshLock = "congestion_refresh"

// RefreshCooldown is how long an account waits after a congestion refresh
// before its next one (the derivations also run every 10 and 15 minutes).
const RefreshCooldown = 5 * time.Minute

// RefreshBody is the answer of POST /v1/congestion/refresh.
type RefreshBody struct {
	Success bool `json:"success"`
	Result  any  `json:"result"`
}

// refreshRoutes mounts the congestion refresh.
func refreshRoutes(r Router, rf Refresher, gate RefreshGate, now func() time.Time) {
	r.Handle(fiber.MethodPost, "/congestion/refresh", overwatch.AccessKey, RefreshCongestion(rf, gate, now))
}

// RefreshCongestion serves POST /v1/congestion/refresh (key required): it
// runs the port-call and congestion derivations at once, in this request,
// and answers what they recomputed (the window, the rows written, how long
// each took). One refresh runs at a time on all instances (RefreshLock):
// while one runs, or the schedule runs either derivation, it answers 409.
// An account refreshes at most once per RefreshCooldown: sooner is 429
// with Retry-After (a refused request does not count). The body, if any,
// is ignored.
func RefreshCongestion(r Refresher, gate RefreshGate, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx := c.UserContext()
		release, ok, err := gate.Claim(ctx, RefreshLock, 0)
		if err != nil {
			return err
		}
		if !ok {
			return overwatch.Errorf(overwatch.Conflict, "a refresh of the congestion is already running; try again in a minute")
		}
		defer release(context.WithoutCancel(ctx)) //nolint:errcheck // the lock goes with the session anyway
		at := now()
		key := RefreshLock + ":" + strconv.FormatInt(overwatch.CallerFrom(ctx).AccountID, 10)
		next, ok, err := gate.TakeCooldown(ctx, key, at, RefreshCooldown)
		if err != nil {
			return err
		}
		if !ok {
			wait := int(math.Max(1, math.Ceil(next.Sub(at).Seconds())))
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(wait))
			return overwatch.Errorf(overwatch.TooManyRequests, "this account refreshed the congestion less than %d minutes ago; the next refresh is possible in %d s",
				int(RefreshCooldown.Minutes()), wait)
		}
		ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		defer cancel()
		res, err := r.RefreshCongestion(ctx)
		if err != nil {
			return err
		}
		return c.JSON(RefreshBody{Success: true, Result: res})
	}
}
