package http

import (
	"context"
	"overwatch/testclock"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
)

func TestMemoryRatesExactUnderConcurrency(t *testing.T) {
	m := NewMemoryRates()
	now := time.Date(2026, 11, 22, 10, 0, 30, 0, time.UTC)
	b := []overwatch.RateBucket{{Key: "m", Limit: 60, Period: overwatch.PerMinute}, {Key: "d", Limit: 1000, Period: overwatch.PerUTCDay}}
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok, _ := m.TakeRate(context.Background(), now, b); ok {
				admitted.Add(1)
			}
		}()
	}
	wg.Wait()
	if admitted.Load() != 60 {
		t.Fatalf("admitted %d, want 60", admitted.Load())
	}
	c, ok, _ := m.TakeRate(context.Background(), now.Add(59*time.Second), b)
	if ok || c[0].Used != 60 || c[1].Used != 60 || !c[0].Reset.Equal(now.Add(time.Minute)) || !c[1].Reset.Equal(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("refused draw: %+v %v", c, ok)
	}
	// The minute window reopens 60 s after it opened; the day keeps counting.
	c, ok, _ = m.TakeRate(context.Background(), now.Add(60*time.Second), b)
	if !ok || c[0].Used != 1 || c[1].Used != 61 {
		t.Fatalf("after a minute: %+v %v", c, ok)
	}
}

func TestMemoryRatesSweepsEndedWindows(t *testing.T) {
	m := NewMemoryRates()
	now := testclock.Now()
	for i := 0; i < 1000; i++ {
		m.TakeRate(context.Background(), now, []overwatch.RateBucket{{Key: string(rune('a'+i%26)) + time.Duration(i).String(), Limit: 1, Period: overwatch.PerMinute}}) //nolint:errcheck
	}
	m.TakeRate(context.Background(), now.Add(2*time.Minute), []overwatch.RateBucket{{Key: "x", Limit: 1, Period: overwatch.PerMinute}}) //nolint:errcheck
	if len(m.windows) != 1 {
		t.Fatalf("%d windows kept after they ended", len(m.windows))
	}
}
