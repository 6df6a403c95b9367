package http

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"overwatch/testclock"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
)

// flakyRates is a shared store that fails while down is set.
type flakyRates struct {
	down  atomic.Bool
	inner *MemoryRates
	calls atomic.Int64
}

func (f *flakyRates) TakeRate(ctx context.Context, now time.Time, b []overwatch.RateBucket) ([]overwatch.RateCount, bool, error) {
	f.calls.Add(1)
	if f.down.Load() {
		return nil, false, errors.New("postgres: rate_take: connection refused")
	}
	return f.inner.TakeRate(ctx, now, b)
}

// While the shared store fails, draws are counted in the process (the
// limit still holds, per instance); when it answers, its counters are used
// again, which never saw the draws of the outage.
func TestFallbackRatesCountsLocallyWhileSharedStoreFails(t *testing.T) {
	shared := &flakyRates{inner: NewMemoryRates()}
	f := NewFallbackRates(shared, slog.New(slog.NewTextHandler(io.Discard, nil)))
	now := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
	bucket := []overwatch.RateBucket{{Key: "pub:m:10.0.0.1", Limit: 3, Period: overwatch.PerMinute}}
	take := func() bool {
		t.Helper()
		_, ok, err := f.TakeRate(context.Background(), now, bucket)
		if err != nil {
			t.Fatalf("draw failed: %v", err)
		}
		return ok
	}
	if !take() {
		t.Fatal("the first draw is refused")
	}
	shared.down.Store(true)
	if !take() || !take() || !take() {
		t.Fatal("the local counters refuse draws under the limit")
	}
	if take() {
		t.Fatal("the local counters let a 4th draw through a limit of 3")
	}
	shared.down.Store(false)
	if !take() || !take() {
		t.Fatal("back on the shared store, its 2 remaining draws are refused")
	}
	if take() {
		t.Fatal("the shared store let a 4th draw through")
	}
	if n := shared.calls.Load(); n != 8 {
		t.Errorf("the shared store was asked %d times, want every draw (8)", n)
	}
}

// A draw whose request has ended reports the error instead of counting.
func TestFallbackRatesEndedRequest(t *testing.T) {
	shared := &flakyRates{inner: NewMemoryRates()}
	shared.down.Store(true)
	f := NewFallbackRates(shared, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := f.TakeRate(ctx, testclock.Now(), []overwatch.RateBucket{{Key: "k", Limit: 1, Period: overwatch.PerMinute}}); err == nil {
		t.Error("no error for an ended request")
	}
}
