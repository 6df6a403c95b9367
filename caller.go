package overwatch

import (
	"context"
	"time"
)

// Caller is the account behind an authenticated request. A nil *Caller is an
// anonymous caller on a public endpoint and gets Free's limits.
type Caller struct {
	AccountID int64
	KeyID     int64
	Email     string
	Plan      Plan
}

type callerKey struct{}

// WithCaller returns ctx carrying the caller.
func WithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller carried by ctx, or nil when anonymous.
func CallerFrom(ctx context.Context) *Caller {
	c, _ := ctx.Value(callerKey{}).(*Caller)
	return c
}

// plan is the caller's plan; anonymous callers are treated as Free.
func (c *Caller) plan() Plan {
	if c == nil {
		return PlanFree
	}
	return c.Plan
}

// PlanInfo is what the caller's plan allows (Free's for anonymous
// callers).
func (c *Caller) PlanInfo() PlanInfo { return c.plan().Info() }

// ClampLimit bounds a requested result count by the endpoint maximum and by
// the results-per-call of the caller's tier.
func (c *Caller) ClampLimit(n, endpointMax int) int {
	if endpointMax > 0 && n > endpointMax {
		n = endpointMax
	}
	if tier := c.plan().Info().ResultsPerCall; n > tier {
		n = tier
	}
	return n
}

// HistoryFloor returns the oldest time the caller may see, or the zero time
// when the caller's history is unlimited.
func (c *Caller) HistoryFloor(now time.Time) time.Time {
	return c.plan().HistoryFloor(now)
}

// ClampSince moves since forward to the caller's history floor.
func (c *Caller) ClampSince(since, now time.Time) time.Time {
	if floor := c.HistoryFloor(now); since.Before(floor) {
		return floor
	}
	return since
}

// ExactCoordinates reports whether the caller may see exact coordinates.
func (c *Caller) ExactCoordinates() bool {
	return c.plan().Includes(FeatureExactCoordinates)
}

// Require returns nil when the caller's plan includes the feature, else
// the Forbidden error that names the cheapest plan including it and the
// caller's own.
func (c *Caller) Require(f Feature) error {
	p := c.plan()
	if p.Includes(f) {
		return nil
	}
	return Errorf(Forbidden, "the %s plan or higher is needed for %s; this key's plan is %s", cheapestWith(f).Name, f, p.Info().Name)
}

// Coordinate returns v as the caller may see it: exact for paid tiers, nil
// for Free and anonymous callers.
func (c *Caller) Coordinate(v float64) *float64 {
	if !c.ExactCoordinates() {
		return nil
	}
	return &v
}
