package jobs

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// flakyQueue is a memQueue whose RecordAttempt fails its first fail calls
// (fail < 0: always), as PostgreSQL does while it restarts.
type flakyQueue struct {
	*memQueue
	fail, calls atomic.Int64
}

func (q *flakyQueue) RecordAttempt(ctx context.Context, d Delivery, r AttemptResult, at time.Time) error {
	n := q.calls.Add(1)
	if f := q.fail.Load(); f < 0 || n <= f {
		return errors.New("postgres: record attempt: connection reset by peer")
	}
	return q.memQueue.RecordAttempt(ctx, d, r, at)
}

// A record that fails while the store restarts is tried again within the
// claim's lease: the delivery is sent once and recorded once, not sent
// again after the lease.
func TestDeliveryRecordedOnceTheStoreIsBack(t *testing.T) {
	t.Parallel()
	q := &flakyQueue{memQueue: newMemQueue(Delivery{ID: 1})}
	q.fail.Store(3)
	var posts atomic.Int64
	poster := posterFunc(func(Delivery) (int, error) { posts.Add(1); return 204, nil })
	n, err := DrainDeliveries(context.Background(), q, poster, time.Now, 5*time.Second, time.Second)
	if err != nil || n != 1 || posts.Load() != 1 || len(q.results) != 1 || q.calls.Load() != 4 || len(q.pending) != 0 {
		t.Errorf("delivered %d (%v) in %d posts, %d records of %d tries, %d pending", n, err, posts.Load(), len(q.results), q.calls.Load(), len(q.pending))
	}
}

// A store that stays away past the lease: the worker gives up a second
// before it ends (the delivery is then due again: at least once), and
// sends nothing more of its batch meanwhile; what it did not send it
// releases.
func TestDeliveryRecordGivesUpAtTheLease(t *testing.T) {
	t.Parallel()
	var ds []Delivery
	for i := range 20 {
		ds = append(ds, Delivery{ID: int64(i + 1)})
	}
	q := &flakyQueue{memQueue: newMemQueue(ds...)}
	q.fail.Store(-1)
	var posts atomic.Int64
	poster := posterFunc(func(Delivery) (int, error) { posts.Add(1); return 204, nil })
	lease := 1500 * time.Millisecond
	began := time.Now()
	n, _, err := deliverBatch(context.Background(), q, poster, time.Now, lease, 20)
	took := time.Since(began)
	if err == nil || n != 0 || len(q.results) != 0 {
		t.Errorf("delivered %d (%v), %d recorded; want an error and nothing recorded", n, err, len(q.results))
	}
	if took >= lease {
		t.Errorf("gave up after %v, not before the lease (%v) ended", took, lease)
	}
	if p := posts.Load(); p > 8 || int(p)+len(q.released) != 20 {
		t.Errorf("%d sent and %d released of 20: want at most the 8 under way when the store failed sent, the rest released", p, len(q.released))
	}
}
