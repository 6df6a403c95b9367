package read

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"overwatch/testclock"
)

// versionStore is a TableVersions whose versions the test sets, counting
// the reads.
type versionStore struct {
	mu    sync.Mutex
	v     map[string]uint64
	reads atomic.Int64
	err   error
}

func (s *versionStore) TableVersions(context.Context) (map[string]uint64, error) {
	s.reads.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, s.err
	}
	out := map[string]uint64{}
	for k, v := range s.v {
		out[k] = v
	}
	return out, nil
}

func (s *versionStore) set(table string, v uint64) {
	s.mu.Lock()
	s.v[table] = v
	s.mu.Unlock()
}

type testReq struct {
	Port string
	At   time.Time
}

// countingQuery answers len(req.Port) and counts its calls.
func countingQuery(calls *atomic.Int64) func(context.Context, testReq) ([]int, error) {
	return func(_ context.Context, r testReq) ([]int, error) {
		calls.Add(1)
		return make([]int, len(r.Port)), nil
	}
}

func TestCachedKeepsAnswersPerRequest(t *testing.T) {
	t.Parallel()
	store := &versionStore{v: map[string]uint64{"a": 1, "b": 1}}
	c := NewCache(store, CacheOptions{Check: time.Hour})
	var calls atomic.Int64
	q := Cached(c, "q", []string{"a"}, countingQuery(&calls))
	ctx := context.Background()
	at := Minute(testclock.Now())
	for range 3 {
		if v, err := q(ctx, testReq{"santos", at}); err != nil || len(v) != 6 {
			t.Fatalf("q = %v, %v", v, err)
		}
	}
	if _, err := q(ctx, testReq{"rotterdam", at}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 {
		t.Errorf("%d store calls for two requests", calls.Load())
	}
	// Two queries with the same request type do not share answers.
	var other atomic.Int64
	q2 := Cached(c, "q2", []string{"a"}, countingQuery(&other))
	if _, err := q2(ctx, testReq{"santos", at}); err != nil || other.Load() != 1 {
		t.Errorf("q2: %v, %d calls", err, other.Load())
	}
}

func TestCachedReloadsWhenItsTableChanges(t *testing.T) {
	t.Parallel()
	store := &versionStore{v: map[string]uint64{"a": 1, "b": 1}}
	c := NewCache(store, CacheOptions{Check: time.Hour})
	var calls atomic.Int64
	q := Cached(c, "q", []string{"a"}, countingQuery(&calls))
	ctx := context.Background()
	req := testReq{Port: "santos"}
	q(ctx, req)       //nolint:errcheck
	store.set("b", 2) // a table the query does not read
	c.Invalidate("b")
	q(ctx, req) //nolint:errcheck
	if calls.Load() != 1 {
		t.Errorf("another table's change reloaded the answer (%d calls)", calls.Load())
	}
	store.set("a", 2)
	q(ctx, req) //nolint:errcheck
	if calls.Load() != 1 {
		t.Errorf("the change was seen before the next check (%d calls)", calls.Load())
	}
	c.Invalidate("a")
	q(ctx, req) //nolint:errcheck
	if calls.Load() != 2 {
		t.Errorf("%d calls after the table changed; want 2", calls.Load())
	}
}

func TestCachedChecksVersionsAtMostOncePerCheck(t *testing.T) {
	t.Parallel()
	store := &versionStore{v: map[string]uint64{"a": 1}}
	c := NewCache(store, CacheOptions{Check: 50 * time.Millisecond})
	var calls atomic.Int64
	q := Cached(c, "q", []string{"a"}, countingQuery(&calls))
	ctx := context.Background()
	for range 100 {
		q(ctx, testReq{Port: "x"}) //nolint:errcheck
	}
	if n := store.reads.Load(); n != 1 {
		t.Errorf("%d version reads for 100 calls within the check interval", n)
	}
	store.set("a", 2)
	time.Sleep(60 * time.Millisecond)
	q(ctx, testReq{Port: "x"}) //nolint:errcheck
	if store.reads.Load() != 2 || calls.Load() != 2 {
		t.Errorf("after the interval: %d version reads, %d calls", store.reads.Load(), calls.Load())
	}
}

func TestCachedTTLAndErrors(t *testing.T) {
	t.Parallel()
	store := &versionStore{v: map[string]uint64{}}
	c := NewCache(store, CacheOptions{Check: time.Hour, TTL: 30 * time.Millisecond})
	fail := true
	var calls atomic.Int64
	q := Cached(c, "q", nil, func(_ context.Context, r testReq) (int, error) {
		calls.Add(1)
		if fail {
			return 0, errors.New("store down")
		}
		return 7, nil
	})
	ctx := context.Background()
	if _, err := q(ctx, testReq{}); err == nil {
		t.Fatal("the error was lost")
	}
	fail = false
	if v, err := q(ctx, testReq{}); err != nil || v != 7 || calls.Load() != 2 {
		t.Fatalf("after an error: %v, %v, %d calls (errors must not be kept)", v, err, calls.Load())
	}
	time.Sleep(40 * time.Millisecond)
	q(ctx, testReq{}) //nolint:errcheck
	if calls.Load() != 3 {
		t.Errorf("%d calls: an answer older than the TTL was served", calls.Load())
	}
	store.err = errors.New("versions down")
	c.Invalidate()
	if _, err := q(ctx, testReq{}); err == nil {
		t.Error("a failed version read answered from the cache")
	}
}

func TestCachedSharesConcurrentMisses(t *testing.T) {
	t.Parallel()
	store := &versionStore{v: map[string]uint64{}}
	c := NewCache(store, CacheOptions{Check: time.Hour})
	release := make(chan struct{})
	var calls atomic.Int64
	q := Cached(c, "q", nil, func(_ context.Context, r testReq) (int, error) {
		calls.Add(1)
		<-release
		return 1, nil
	})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := q(context.Background(), testReq{}); err != nil || v != 1 {
				t.Errorf("q = %v, %v", v, err)
			}
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("%d loads for 20 concurrent misses", calls.Load())
	}
}

func TestCacheEvictsOldestBeyondItsSize(t *testing.T) {
	t.Parallel()
	store := &versionStore{v: map[string]uint64{}}
	c := NewCache(store, CacheOptions{Check: time.Hour, MaxBytes: 3 * 8 * 10}) // three answers of 10 ints
	var calls atomic.Int64
	q := Cached(c, "q", nil, func(_ context.Context, r testReq) ([]int, error) {
		calls.Add(1)
		return make([]int, 10), nil
	})
	ctx := context.Background()
	for _, p := range []string{"a", "b", "c", "d"} {
		q(ctx, testReq{Port: p}) //nolint:errcheck
		time.Sleep(time.Millisecond)
	}
	q(ctx, testReq{Port: "d"}) //nolint:errcheck
	if calls.Load() != 4 {
		t.Errorf("%d calls: the newest answer was evicted", calls.Load())
	}
	q(ctx, testReq{Port: "a"}) //nolint:errcheck
	if calls.Load() != 5 {
		t.Errorf("%d calls: the oldest answer was kept beyond the cache's size", calls.Load())
	}
}

func TestNilCacheCachesNothing(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	q := Cached[testReq, []int](nil, "q", nil, countingQuery(&calls))
	q(context.Background(), testReq{}) //nolint:errcheck
	q(context.Background(), testReq{}) //nolint:errcheck
	if calls.Load() != 2 {
		t.Errorf("%d calls through a nil cache", calls.Load())
	}
}

// A caller that goes away while its query runs does not fail the callers
// waiting for the same answer: the load runs on its own clock.
func TestCachedLoadOutlivesItsFirstCaller(t *testing.T) {
	t.Parallel()
	c := NewCache(&versionStore{v: map[string]uint64{}}, CacheOptions{Check: time.Hour})
	started, release := make(chan struct{}), make(chan struct{})
	q := Cached(c, "q", nil, func(ctx context.Context, r testReq) (int, error) {
		close(started)
		select {
		case <-release:
			return 7, nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	})
	first, cancel := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() { _, err := q(first, testReq{}); firstErr <- err }()
	<-started
	second := make(chan int, 1)
	go func() { v, _ := q(context.Background(), testReq{}); second <- v }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	time.Sleep(10 * time.Millisecond)
	close(release)
	if v := <-second; v != 7 {
		t.Errorf("the waiting caller got %d after the first one left", v)
	}
	<-firstErr
}
