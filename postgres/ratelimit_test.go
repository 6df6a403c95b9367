package postgres_test

import (
	"context"
	"fmt"
	"overwatch/testclock"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
)

func TestTakeRateExactUnderConcurrency(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	now := testclock.Now()
	key := fmt.Sprintf("test:%d", time.Now().UnixNano())
	buckets := []overwatch.RateBucket{
		{Key: key + ":m", Limit: 60, Period: overwatch.PerMinute},
		{Key: key + ":d", Limit: 1000, Period: overwatch.PerUTCDay},
	}
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := db.TakeRate(ctx, now, buckets)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				admitted.Add(1)
			}
		}()
	}
	wg.Wait()
	if admitted.Load() != 60 {
		t.Fatalf("admitted %d of 200 concurrent requests, want exactly 60", admitted.Load())
	}
	counts, ok, err := db.TakeRate(ctx, now.Add(30*time.Second), buckets)
	if err != nil || ok {
		t.Fatalf("61st: %v %v", ok, err)
	}
	if counts[0].Used != 60 || counts[1].Used != 60 {
		t.Errorf("refused requests were counted: %+v", counts)
	}
	if !counts[0].Reset.Equal(now.Add(time.Minute).Truncate(time.Microsecond)) && counts[0].Reset.Sub(now) > time.Minute {
		t.Errorf("minute reset %v", counts[0].Reset)
	}
	dayStart := now.UTC().Truncate(24 * time.Hour)
	if !counts[1].Reset.Equal(dayStart.Add(24 * time.Hour)) {
		t.Errorf("day reset %v, want %v", counts[1].Reset, dayStart.Add(24*time.Hour))
	}
	// A minute later the minute window reopens; the day keeps counting.
	counts, ok, err = db.TakeRate(ctx, now.Add(61*time.Second), buckets)
	if err != nil || !ok || counts[0].Used != 1 || counts[1].Used != 61 {
		t.Fatalf("after the minute: %+v %v %v", counts, ok, err)
	}
}

func TestTakeRateDayWindow(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	key := fmt.Sprintf("test:day:%d", time.Now().UnixNano())
	b := []overwatch.RateBucket{{Key: key, Limit: 2, Period: overwatch.PerUTCDay}}
	day := time.Date(2026, 3, 1, 23, 59, 0, 0, time.UTC)
	for i, want := range []bool{true, true, false} {
		if _, ok, err := db.TakeRate(ctx, day, b); err != nil || ok != want {
			t.Fatalf("request %d: %v %v", i, ok, err)
		}
	}
	// The next UTC day starts a new window.
	if c, ok, err := db.TakeRate(ctx, day.Add(2*time.Minute), b); err != nil || !ok || c[0].Used != 1 || !c[0].Reset.Equal(time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("next day: %+v %v %v", c, ok, err)
	}
	n, err := db.PurgeRateWindows(ctx, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || n == 0 {
		t.Fatalf("purge: %d %v", n, err)
	}
}
