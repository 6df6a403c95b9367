package http

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"overwatch"
)

// FallbackRates is the shared rate-limit store of several instances
// (PostgreSQL) with this process's own counters behind it: while the shared
// store fails, each instance counts on its own (the limits then hold per
// instance, not across them) instead of refusing every request with 503.
// The public surface keeps answering through a PostgreSQL outage (the
// chaos test, cmd/chaos, kills PostgreSQL for 30 s); when the shared store
// answers again its counters take over.
type FallbackRates struct {
	shared  RateStore
	local   *MemoryRates
	timeout time.Duration // the most a draw waits for the shared store
	log     *slog.Logger
	failing atomic.Bool
}

var _ RateStore = (*FallbackRates)(nil)

// NewFallbackRates counts in shared (PostgreSQL, for every instance) and,
// while shared fails, in this instance's memory, logging the switch.
func NewFallbackRates(shared RateStore, log *slog.Logger) *FallbackRates {
	return &FallbackRates{shared: shared, local: NewMemoryRates(), timeout: time.Second, log: log}
}

// TakeRate implements rateStore: the shared store's draw, or this
// process's when the shared store fails.
func (f *FallbackRates) TakeRate(ctx context.Context, now time.Time, buckets []overwatch.RateBucket) ([]overwatch.RateCount, bool, error) {
	sctx, cancel := context.WithTimeout(ctx, f.timeout)
	counts, ok, err := f.shared.TakeRate(sctx, now, buckets)
	cancel()
	if err == nil {
		if f.failing.Swap(false) {
			f.log.Warn("rate limits: the shared store answers again; counting across instances")
		}
		return counts, ok, nil
	}
	if ctx.Err() != nil {
		return nil, false, err // the request itself is over
	}
	if !f.failing.Swap(true) {
		f.log.Error("rate limits: the shared store fails; counting in this instance until it is back", "err", err)
	}
	return f.local.TakeRate(ctx, now, buckets)
}
