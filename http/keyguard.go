package http

import (
	"context"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// KeyGuard bounds what invented API keys cost. Every key a client address
// presents that does not authenticate is drawn from the address's budget
// of failed keys (budget a minute, counted in the rate store, so shared by
// instances with the postgres store); once it is spent, the address gets
// 429 with Retry-After for any key until the minute ends, without a
// lookup. A key the account store does not know is remembered as unknown
// for ttl, so that repeating it costs no lookup either. Both memories are
// bounded: at most maxEntries addresses and maxEntries keys, the oldest
// expiry dropped first when full.
type KeyGuard struct {
	rates  RateStore
	ips    ClientIPs
	now    func() time.Time
	budget int
	ttl    time.Duration

	mu      sync.Mutex
	blocked map[string]time.Time            // rate key of an address → end of its spent window
	unknown map[overwatch.KeyHash]time.Time // key hash → end of its memory
}

// maxEntries bounds each of KeyGuard's memories.
const maxEntries = 10_000

// NewKeyGuard returns a guard drawing from the limits' rate store, with
// their client addresses and clock.
func NewKeyGuard(l Limits, budget int, ttl time.Duration) *KeyGuard {
	return &KeyGuard{rates: l.Store, ips: l.IPs, now: l.Now, budget: budget, ttl: ttl,
		blocked: map[string]time.Time{}, unknown: map[overwatch.KeyHash]time.Time{}}
}

// refuse returns the 429 of an address whose budget is spent, with
// Retry-After, or nil.
func (g *KeyGuard) refuse(c *fiber.Ctx, ip string, now time.Time) error {
	g.mu.Lock()
	end, ok := g.blocked[ip]
	if ok && !end.After(now) {
		delete(g.blocked, ip)
		ok = false
	}
	g.mu.Unlock()
	if !ok {
		return nil
	}
	return g.tooMany(c, end, now)
}

func (g *KeyGuard) tooMany(c *fiber.Ctx, end, now time.Time) error {
	c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(math.Max(1, math.Ceil(end.Sub(now).Seconds())))))
	return overwatch.Errorf(overwatch.TooManyRequests, "too many invalid API keys from this address; retry later").
		With("limit_per_minute", g.budget)
}

// failed counts a key that did not authenticate and returns the error to
// answer: 401 invalid API key within the budget, 429 beyond it.
func (g *KeyGuard) failed(c *fiber.Ctx, ip string, now time.Time) error {
	counts, ok, err := g.rates.TakeRate(c.UserContext(), now, []overwatch.RateBucket{
		{Key: "fail:m:" + ip, Limit: g.budget, Period: overwatch.PerMinute}})
	if err != nil {
		return overwatch.Wrap(overwatch.Unavailable, err, "service unavailable")
	}
	if ok {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="overwatch", error="invalid_token"`)
		return overwatch.Errorf(overwatch.Unauthorized, "invalid API key")
	}
	g.mu.Lock()
	g.blocked[ip] = counts[0].Reset
	prune(g.blocked, now)
	g.mu.Unlock()
	return g.tooMany(c, counts[0].Reset, now)
}

// isUnknown reports whether the key is remembered as unknown.
func (g *KeyGuard) isUnknown(hash overwatch.KeyHash, now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	end, ok := g.unknown[hash]
	if ok && !end.After(now) {
		delete(g.unknown, hash)
		return false
	}
	return ok
}

// rememberUnknown remembers a key the store did not find.
func (g *KeyGuard) rememberUnknown(hash overwatch.KeyHash, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.unknown[hash] = now.Add(g.ttl)
	prune(g.unknown, now)
}

// prune keeps m within maxEntries: when it is over, expired entries go,
// then arbitrary ones down to nine tenths, so that pruning costs O(1) per
// entry added.
func prune[K comparable](m map[K]time.Time, now time.Time) {
	if len(m) <= maxEntries {
		return
	}
	for k, end := range m {
		if !end.After(now) {
			delete(m, k)
		}
	}
	for k := range m {
		if len(m) <= maxEntries*9/10 {
			break
		}
		delete(m, k)
	}
}

// lookup authenticates the key through the store, unless the key is
// remembered as unknown; a key the store does not find is remembered.
func (g *KeyGuard) lookup(ctx context.Context, keys authenticator, hash overwatch.KeyHash, now time.Time) (*overwatch.Caller, error) {
	if g.isUnknown(hash, now) {
		return nil, overwatch.Errorf(overwatch.NotFound, "unknown key")
	}
	caller, err := keys.Authenticate(ctx, hash)
	if overwatch.ErrorCode(err) == overwatch.NotFound {
		g.rememberUnknown(hash, now)
	}
	return caller, err
}
