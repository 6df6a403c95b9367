package postgres_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"overwatch/jobs"
)

// Two schedulers (two instances) with the same job, firing on the same
// ticks: gocron's distributed locker on the Postgres advisory lock lets
// one of them run each tick, the other counts a skip.
func TestTwoSchedulersRunEachTickOnce(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	name := "test_tick_" + time.Now().Format("150405.000000")
	var runs atomic.Int64
	job := jobs.Job{Name: name, Every: time.Second, Run: func(ctx context.Context, prev jobs.State) (jobs.Result, error) {
		runs.Add(1)
		time.Sleep(150 * time.Millisecond) // overlap the other instance's tick
		return jobs.Result{Rows: 1, Watermark: time.Now()}, nil
	}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var scheds []*jobs.Scheduler
	for i := 0; i < 2; i++ {
		sc, err := jobs.NewScheduler([]jobs.Job{job}, db, db, log)
		if err != nil {
			t.Fatal(err)
		}
		scheds = append(scheds, sc)
	}
	started := time.Now()
	for _, sc := range scheds {
		sc.Start()
	}
	time.Sleep(5500 * time.Millisecond)
	for _, sc := range scheds {
		if err := sc.Stop(); err != nil {
			t.Fatal(err)
		}
	}
	ticks := int64(time.Since(started) / time.Second)
	var total, skipped int64
	for _, sc := range scheds {
		s := sc.Stats()[name]
		total += s.Runs
		skipped += s.Skipped
	}
	if n := runs.Load(); n != total || n < ticks-1 || n > ticks+1 {
		t.Fatalf("%d runs (counted %d) in %d ticks of two schedulers: want one per tick", n, total, ticks)
	}
	if skipped < ticks-2 {
		t.Errorf("%d skips in %d ticks: the second instance should skip each", skipped, ticks)
	}
	st, err := db.JobState(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if st.Runs != runs.Load() || st.Watermark.IsZero() || st.LastError != "" {
		t.Errorf("state: %+v after %d runs", st, runs.Load())
	}
}

// RunNow refuses while another holder has the job, and a failing run is
// recorded without moving the watermark.
func TestRunNowClaimAndFailure(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	name := "test_now_" + time.Now().Format("150405.000000")
	fail := errors.New("boom")
	var calls atomic.Int64
	job := jobs.Job{Name: name, Every: time.Hour, Run: func(ctx context.Context, prev jobs.State) (jobs.Result, error) {
		if calls.Add(1) == 1 {
			return jobs.Result{Watermark: time.Unix(1000, 0)}, nil
		}
		return jobs.Result{Watermark: time.Unix(2000, 0)}, fail
	}}
	sc, err := jobs.NewScheduler([]jobs.Job{job}, db, db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	release, ok, err := db.Claim(ctx, name, 0)
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if _, err := sc.RunNow(ctx, name); !errors.Is(err, jobs.ErrClaimed) {
		t.Fatalf("RunNow while claimed elsewhere: %v", err)
	}
	if err := release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.RunNow(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.RunNow(ctx, name); !errors.Is(err, fail) {
		t.Fatalf("second run: %v", err)
	}
	st, err := db.JobState(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Watermark.Equal(time.Unix(1000, 0)) || st.Runs != 2 || st.Failures != 1 || st.LastError != "boom" {
		t.Errorf("state after a success and a failure: %+v", st)
	}
}
