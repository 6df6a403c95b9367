package jobs

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// memQueue is a DeliveryStore in memory: one delivery per id, due at next.
type memQueue struct {
	mu       sync.Mutex
	pending  map[int64]*Delivery
	next     map[int64]time.Time
	results  []AttemptResult
	released []int64
}

func newMemQueue(ds ...Delivery) *memQueue {
	q := &memQueue{pending: map[int64]*Delivery{}, next: map[int64]time.Time{}}
	for i := range ds {
		q.pending[ds[i].ID] = &ds[i]
	}
	return q
}

func (q *memQueue) ClaimDeliveries(_ context.Context, now time.Time, lease time.Duration, max int) ([]Delivery, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Delivery
	for id, d := range q.pending {
		if len(out) < max && !q.next[id].After(now) {
			q.next[id] = now.Add(lease)
			out = append(out, *d)
		}
	}
	return out, nil
}

func (q *memQueue) RecordAttempt(_ context.Context, d Delivery, r AttemptResult, _ time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.results = append(q.results, r)
	if r.Dead || r.Next.IsZero() {
		delete(q.pending, d.ID)
		return nil
	}
	q.pending[d.ID].Attempts++
	q.next[d.ID] = r.Next
	return nil
}

func (q *memQueue) ReleaseClaims(_ context.Context, ids []int64, now time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.released = append(q.released, ids...)
	for _, id := range ids {
		q.next[id] = now
	}
	return nil
}

// posterFunc answers each attempt.
type posterFunc func(Delivery) (int, error)

func (f posterFunc) Post(_ context.Context, d Delivery, _ time.Time) (int, error) { return f(d) }

// The retry schedule is the Standard Webhooks one and spans about three
// days.
func TestWebhookBackoffSchedule(t *testing.T) {
	t.Parallel()
	want := []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour}
	for i, w := range want {
		if WebhookBackoff[i] != w {
			t.Errorf("retry %d after %v, want %v", i+1, WebhookBackoff[i], w)
		}
	}
	var total time.Duration
	for _, d := range WebhookBackoff {
		total += d
	}
	if total < 60*time.Hour || total > 84*time.Hour {
		t.Errorf("schedule spans %v, want about 3 days", total)
	}
}

// A delivery failing every attempt is retried on the schedule and dead
// after it; one that recovers is delivered once; transport errors count
// as failures with the error recorded.
func TestDeliverDueRetriesThenDies(t *testing.T) {
	t.Parallel()
	q := newMemQueue(Delivery{ID: 1, EventID: "evt_dead"}, Delivery{ID: 2, EventID: "evt_ok"})
	calls := map[string]int{}
	poster := posterFunc(func(d Delivery) (int, error) {
		calls[d.EventID]++
		if d.EventID == "evt_ok" && calls[d.EventID] > 2 {
			return 200, nil
		}
		if calls[d.EventID]%2 == 0 {
			return 0, errors.New("connection refused")
		}
		return 503, nil
	})
	clock := time.Unix(1_700_000_000, 0)
	now := func() time.Time { return clock }
	delivered := 0
	for range 20 {
		n, err := DeliverDue(context.Background(), q, poster, now, 1) // one at a time: calls is not locked
		if err != nil {
			t.Fatal(err)
		}
		delivered += n
		if n, err = DeliverDue(context.Background(), q, poster, now, 1); err != nil {
			t.Fatal(err)
		}
		delivered += n
		clock = clock.Add(25 * time.Hour)
	}
	if delivered != 1 || calls["evt_ok"] != 3 {
		t.Errorf("delivered %d, evt_ok posted %d times", delivered, calls["evt_ok"])
	}
	if calls["evt_dead"] != len(WebhookBackoff)+1 || len(q.pending) != 0 {
		t.Errorf("evt_dead posted %d times (want %d), %d pending", calls["evt_dead"], len(WebhookBackoff)+1, len(q.pending))
	}
	var dead, refused, http503 int
	for _, r := range q.results {
		if r.Dead {
			dead++
		}
		switch r.Err {
		case "connection refused":
			refused++
		case "answered HTTP 503":
			http503++
		}
	}
	if dead != 1 || refused == 0 || http503 == 0 {
		t.Errorf("results: %d dead, %d refused, %d HTTP 503", dead, refused, http503)
	}
}

// The next attempt is due after the schedule's wait for the attempts made.
func TestDeliverDueSchedulesNext(t *testing.T) {
	t.Parallel()
	q := newMemQueue(Delivery{ID: 1, Attempts: 3})
	at := time.Unix(1_700_000_000, 0)
	if _, err := DeliverDue(context.Background(), q, posterFunc(func(Delivery) (int, error) { return 500, nil }), func() time.Time { return at }, 10); err != nil {
		t.Fatal(err)
	}
	if len(q.results) != 1 || !q.results[0].Next.Equal(at.Add(WebhookBackoff[3])) || q.results[0].Status != 500 {
		t.Errorf("result %+v, want next at %v", q.results, at.Add(WebhookBackoff[3]))
	}
}

// A worker stopped mid-attempt records nothing and releases its claims,
// so the delivery is sent again (at least once) without waiting the lease.
func TestDeliverDueReleasesOnStop(t *testing.T) {
	t.Parallel()
	q := newMemQueue(Delivery{ID: 7}, Delivery{ID: 8})
	ctx, cancel := context.WithCancel(context.Background())
	poster := posterFunc(func(Delivery) (int, error) { cancel(); return 200, nil })
	n, err := DeliverDue(ctx, q, poster, time.Now, 10)
	if err != nil || n != 0 || len(q.results) != 0 || len(q.released) != 2 {
		t.Errorf("delivered %d (%v), %d recorded, released %v", n, err, len(q.results), q.released)
	}
}
