package write

import (
	"context"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Refresher recomputes the port calls and the congestion now, as the
// schedule does (incrementally, not at all when nothing changed), and
// says what it recomputed.
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

// RefreshTimeout bounds a refresh, the wait for one running elsewhere
// included.
const RefreshTimeout = 5 * time.Minute

// refreshPoll is how often a refresh asks again for the lock another
// instance holds.
const refreshPoll = 250 * time.Millisecond

// RefreshBody is the answer of POST /v1/congestion/refresh.
type RefreshBody struct {
	Success bool `json:"success"`
	Result  any  `json:"result"`
}

// refreshRoutes mounts the congestion refresh.
func refreshRoutes(r route.Router, rf Refresher, gate RefreshGate, now func() time.Time) {
	r.Handle(fiber.MethodPost, "/congestion/refresh", overwatch.AccessKey, RefreshCongestion(rf, gate, now))
}

// RefreshCongestion serves POST /v1/congestion/refresh (key required,
// every plan). An account refreshes at most once per RefreshCooldown:
// sooner is a 429 with Retry-After and the time it may (retry_at). The
// refresh runs the port-call and congestion derivations as the schedule
// does, incrementally, and skips either when nothing it reads changed
// since its last run; it answers what they recomputed (the window, the
// rows, how long, whether the last run was reused). Requests that come
// while a refresh runs in this process join it and share its result; one
// that runs on another instance (RefreshLock) is waited for, and then
// usually found current. The body, if any, is ignored.
func RefreshCongestion(r Refresher, gate RefreshGate, now func() time.Time) fiber.Handler {
	var flight refreshFlight
	return func(c *fiber.Ctx) error {
		ctx := c.UserContext()
		at := now()
		key := RefreshLock + ":" + strconv.FormatInt(overwatch.CallerFrom(ctx).AccountID, 10)
		next, ok, err := gate.TakeCooldown(ctx, key, at, RefreshCooldown)
		if err != nil {
			return err
		}
		if !ok {
			wait := int(math.Max(1, math.Ceil(next.Sub(at).Seconds())))
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(wait))
			return overwatch.Errorf(overwatch.TooManyRequests, "this account refreshed the congestion less than %d minutes ago; its next refresh is possible at %s (in %d s)",
				int(RefreshCooldown.Minutes()), next.UTC().Truncate(time.Second).Format(time.RFC3339), wait).
				With("retry_at", next.UTC().Truncate(time.Second).Format(time.RFC3339))
		}
		res, err := flight.do(ctx, func(ctx context.Context) (any, error) {
			release, err := claimWaiting(ctx, gate, RefreshLock)
			if err != nil {
				return nil, err
			}
			defer release(context.WithoutCancel(ctx)) //nolint:errcheck // the lock goes with the session anyway
			return r.RefreshCongestion(ctx)
		})
		if err != nil {
			return err
		}
		return c.JSON(RefreshBody{Success: true, Result: res})
	}
}

// claimWaiting claims the named lock, waiting while another instance
// holds it.
func claimWaiting(ctx context.Context, gate RefreshGate, name string) (func(context.Context) error, error) {
	for {
		release, ok, err := gate.Claim(ctx, name, 0)
		if err != nil || ok {
			return release, err
		}
		select {
		case <-ctx.Done():
			return nil, overwatch.Errorf(overwatch.Conflict, "a refresh of the congestion kept running elsewhere; try again in a minute")
		case <-time.After(refreshPoll):
		}
	}
}

// refreshFlight runs one refresh at a time in this process; callers that
// come while it runs wait for it and share its result.
type refreshFlight struct {
	mu  sync.Mutex
	cur *refreshCall
}

// refreshCall is a refresh under way.
type refreshCall struct {
	done chan struct{}
	res  any
	err  error
}

// do runs fn, or joins the run under way, and returns its result. The run
// is not bound to the request that started it (RefreshTimeout bounds it);
// a caller whose request ends stops waiting.
func (f *refreshFlight) do(ctx context.Context, fn func(context.Context) (any, error)) (any, error) {
	f.mu.Lock()
	call := f.cur
	if call == nil {
		call = &refreshCall{done: make(chan struct{})}
		f.cur = call
		go func() {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), RefreshTimeout)
			defer cancel()
			call.res, call.err = fn(rctx)
			f.mu.Lock()
			f.cur = nil
			f.mu.Unlock()
			close(call.done)
		}()
	}
	f.mu.Unlock()
	select {
	case <-call.done:
		return call.res, call.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
