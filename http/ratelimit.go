package http

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// RateStore draws one request from every bucket, or from none when any of
// them is exhausted, atomically. MemoryRates serves one instance;
// postgres.DB serves several.
type RateStore interface {
	TakeRate(ctx context.Context, now time.Time, buckets []overwatch.RateBucket) ([]overwatch.RateCount, bool, error)
}

// Rejected requests draw nothing from the buckets that refused them, so a
// client that keeps calling while limited does not spend tomorrow's quota.
// On the keyed surface the per-IP minute is drawn first, before the key is
// looked up, then the account's day. Windows are fixed: a minute
// window opens with the first request after the previous one ended, a day
// window is the UTC day.

// Limits is the rate-limit edge of both surfaces.
type Limits struct {
	Store           RateStore
	IPs             ClientIPs
	Now             func() time.Time
	PublicPerMinute int
	PublicPerDay    int
	KeyedPerMinute  int
	EventsPerMinute int // the payment provider's verified events
}

// public limits the public surface: per client IP, per minute and per UTC
// day. The 429 body is the OpenAPI
// document's RateLimited.
func (l Limits) public() fiber.Handler {
	direct, _ := l.Store.(publicRates)
	return func(c *fiber.Ctx) error {
		if direct != nil {
			if err := l.takePublic(c, direct); err != nil {
				return overwatch.Errorf(overwatch.TooManyRequests, "rate limit exceeded").
					With("limit_per_minute", l.PublicPerMinute).With("limit_per_day", l.PublicPerDay)
			}
			return c.Next()
		}
		ip := rateKey(l.IPs.of(c))
		buckets := []overwatch.RateBucket{
			{Key: "pub:m:" + ip, Limit: l.PublicPerMinute, Period: overwatch.PerMinute},
			{Key: "pub:d:" + ip, Limit: l.PublicPerDay, Period: overwatch.PerUTCDay},
		}
		if err := l.take(c, buckets, 0, 1); err != nil {
			if overwatch.ErrorCode(err) == overwatch.TooManyRequests {
				return overwatch.Errorf(overwatch.TooManyRequests, "rate limit exceeded").
					With("limit_per_minute", l.PublicPerMinute).With("limit_per_day", l.PublicPerDay)
			}
			return err
		}
		return c.Next()
	}
}

// perIP is the first limit of the keyed surface, drawn before the key is
// looked up: per client IP per minute, so that requests with invented
// keys count like any other.
func (l Limits) perIP() fiber.Handler {
	return func(c *fiber.Ctx) error {
		ip := rateKey(l.IPs.of(c))
		if err := l.take(c, []overwatch.RateBucket{{Key: "key:m:" + ip, Limit: l.KeyedPerMinute, Period: overwatch.PerMinute}}, 0, -1); err != nil {
			return err
		}
		return c.Next()
	}
}

// daily draws, for authenticated callers, from the daily cap of the
// plan, counted per account so that creating more keys does not raise it.
func (l Limits) daily() fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		if caller == nil {
			return c.Next()
		}
		bucket := overwatch.RateBucket{
			Key:    "acct:d:" + strconv.FormatInt(caller.AccountID, 10),
			Limit:  caller.Plan.Info().RequestsPerDay,
			Period: overwatch.PerUTCDay,
		}
		if err := l.take(c, []overwatch.RateBucket{bucket}, -1, 0); err != nil {
			return err
		}
		return c.Next()
	}
}

// events draws one verified event of the payment provider from the
// endpoint's own budget (per minute, whatever the client address), so
// that floods of the public surface cannot starve billing events, nor
// events the rest of the API.
func (l Limits) events(c *fiber.Ctx) error {
	return l.take(c, []overwatch.RateBucket{{Key: "events:m", Limit: l.EventsPerMinute, Period: overwatch.PerMinute}}, -1, -1)
}

// take draws from the buckets and sets the X-RateLimit-* headers from the
// minute and day buckets at the given indexes (< 0: none). On
// rejection it sets Retry-After to the whole seconds until the window that
// refused the request resets and returns a TooManyRequests error.
func (l Limits) take(c *fiber.Ctx, buckets []overwatch.RateBucket, minute, day int) error {
	now := l.Now()
	counts, ok, err := l.Store.TakeRate(c.UserContext(), now, buckets)
	if err != nil {
		return overwatch.Wrap(overwatch.Unavailable, err, "service unavailable")
	}
	h := &c.Response().Header
	if minute >= 0 {
		setInt(h, headerLimitMinute, buckets[minute].Limit)
		setInt(h, headerRemainingMinute, max(0, buckets[minute].Limit-counts[minute].Used))
	}
	if day >= 0 {
		setInt(h, headerLimitDay, buckets[day].Limit)
		setInt(h, headerRemainingDay, max(0, buckets[day].Limit-counts[day].Used))
	}
	if ok {
		return nil
	}
	var reset time.Time
	for i, b := range buckets {
		if counts[i].Used >= b.Limit && counts[i].Reset.After(reset) {
			reset = counts[i].Reset
		}
	}
	setInt(h, headerRetryAfter, int(math.Max(1, math.Ceil(reset.Sub(now).Seconds()))))
	return overwatch.Errorf(overwatch.TooManyRequests, "rate limit exceeded")
}
