package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"overwatch/jobs"
	"overwatch/postgres"
	"overwatch/postgres/pgtest"
	"overwatch/testclock"
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

// More jobs running at once than the pool has connections: each claim
// holds a connection for its job's run, from a pool of its own, so the
// service's other queries (a keyed request's key, a job recording its run)
// still get one. Before, the claims took the pool's connections and the
// next query waited for one that no job released.
func TestClaimsLeaveThePoolFree(t *testing.T) {
	openDB(t) // migrated
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := pgtest.URL(t, "postgres")
	if strings.Contains(url, "?") {
		url += "&pool_max_conns=2"
	} else {
		url += "?pool_max_conns=2"
	}
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stamp := testclock.Now().Format("150405.000000") + "_" + strconv.Itoa(os.Getpid())
	var releases []func(context.Context) error
	for i := 0; i < 5; i++ { // more than the pool's 2
		release, ok, err := db.Claim(ctx, fmt.Sprintf("test_pool_%s_%d", stamp, i), 0)
		if err != nil || !ok {
			t.Fatalf("claim %d: %v %v", i, ok, err)
		}
		releases = append(releases, release)
	}
	quick, cancelQuick := context.WithTimeout(ctx, 2*time.Second)
	defer cancelQuick()
	if _, err := db.JobState(quick, "test_pool_"+stamp+"_0"); err != nil {
		t.Fatalf("a query while five jobs hold their claims: %v", err)
	}
	if err := db.RecordRun(quick, "test_pool_"+stamp+"_0", testclock.Now(), time.Millisecond, jobs.Result{Rows: 1}, nil); err != nil {
		t.Fatalf("a job recording its run: %v", err)
	}
	for _, release := range releases {
		if err := release(ctx); err != nil {
			t.Fatal(err)
		}
	}
}
