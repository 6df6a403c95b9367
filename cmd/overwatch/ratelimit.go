package main

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// rateStore draws one request from every bucket, or from none when any of
// them is exhausted, atomically. memoryRates serves one instance;
// postgres.DB serves several.
type rateStore interface {
	TakeRate(ctx context.Context, now time.Time, buckets []overwatch.RateBucket) ([]overwatch.RateCount, bool, error)
}

// Rejected requests draw nothing, so a client that keeps calling while
// limited does not spend tomorrow's quota. Windows are fixed: a minute
// window opens with the first request after the previous one ended, a day
// window is the UTC day.

// limits is the rate-limit edge of both surfaces.
type limits struct {
	store           rateStore
	ips             clientIPs
	now             func() time.Time
	publicPerMinute int
	publicPerDay    int
	keyedPerMinute  int
}

// public limits the public surface: per client IP, per minute and per UTC
// day. The 429 body is the spec's RateLimited.
func (l limits) public() fiber.Handler {
	return func(c *fiber.Ctx) error {
		ip := rateKey(l.ips.of(c))
		buckets := []overwatch.RateBucket{
			{Key: "pub:m:" + ip, Limit: l.publicPerMinute, Period: overwatch.PerMinute},
			{Key: "pub:d:" + ip, Limit: l.publicPerDay, Period: overwatch.PerUTCDay},
		}
		if err := l.take(c, buckets, 0, 1); err != nil {
			if overwatch.ErrorCode(err) == overwatch.TooManyRequests {
				return overwatch.Errorf(overwatch.TooManyRequests, "rate limit exceeded").
					With("limit_per_minute", l.publicPerMinute).With("limit_per_day", l.publicPerDay)
			}
			return err
		}
		return c.Next()
	}
}

// keyed limits the keyed surface: per client IP per minute and, for
// authenticated callers, the daily cap of the plan, counted per account so
// that creating more keys does not raise it.
func (l limits) keyed() fiber.Handler {
	return func(c *fiber.Ctx) error {
		ip := rateKey(l.ips.of(c))
		buckets := []overwatch.RateBucket{{Key: "key:m:" + ip, Limit: l.keyedPerMinute, Period: overwatch.PerMinute}}
		day := -1
		if caller := overwatch.CallerFrom(c.UserContext()); caller != nil {
			buckets = append(buckets, overwatch.RateBucket{
				Key:    "acct:d:" + strconv.FormatInt(caller.AccountID, 10),
				Limit:  caller.Plan.Info().RequestsPerDay,
				Period: overwatch.PerUTCDay,
			})
			day = 1
		}
		if err := l.take(c, buckets, 0, day); err != nil {
			return err
		}
		return c.Next()
	}
}

// take draws from the buckets and sets the X-RateLimit-* headers from the
// minute and day buckets at the given indexes (day < 0: none). On
// rejection it sets Retry-After to the whole seconds until the window that
// refused the request resets and returns a TooManyRequests error.
func (l limits) take(c *fiber.Ctx, buckets []overwatch.RateBucket, minute, day int) error {
	now := l.now()
	counts, ok, err := l.store.TakeRate(c.UserContext(), now, buckets)
	if err != nil {
		return overwatch.Wrap(overwatch.Unavailable, err, "service unavailable")
	}
	h := func(name string, v int) { c.Set(name, strconv.Itoa(v)) }
	h("X-RateLimit-Limit-Minute", buckets[minute].Limit)
	h("X-RateLimit-Remaining-Minute", max(0, buckets[minute].Limit-counts[minute].Used))
	if day >= 0 {
		h("X-RateLimit-Limit-Day", buckets[day].Limit)
		h("X-RateLimit-Remaining-Day", max(0, buckets[day].Limit-counts[day].Used))
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
	h(fiber.HeaderRetryAfter, int(math.Max(1, math.Ceil(reset.Sub(now).Seconds()))))
	return overwatch.Errorf(overwatch.TooManyRequests, "rate limit exceeded")
}
