package jobs

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// WebhookBackoff is the wait before each retry of a delivery (after the
// first attempt, the second, ...): the Standard Webhooks schedule, about
// three days in all. A delivery that fails them all is dead.
var WebhookBackoff = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour,
	10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}

// WebhookDisableAfter is how many deliveries in a row (each after all its
// retries) may die before the webhook is disabled.
const WebhookDisableAfter = 3

// Delivery is a due delivery of an event to a webhook.
type Delivery struct {
	ID, WebhookID int64
	AccountID     int64
	URL, Secret   string
	EventID, Type string
	Payload       []byte
	Attempts      int // made before this one
}

// AttemptResult is the outcome of one attempt.
type AttemptResult struct {
	Status   int // 0: no answer
	Err      string
	Duration time.Duration
	// Next is when to try again (zero: delivered, or dead when Dead).
	Next time.Time
	Dead bool
}

// DeliveryStore is the durable queue (Postgres): ClaimDeliveries takes
// the due deliveries, each by one worker (FOR UPDATE SKIP LOCKED, pushed
// back by lease so a crashed worker's claim comes due again);
// RecordAttempt stores an attempt and the delivery's new state, and
// disables the webhook after WebhookDisableAfter dead deliveries in a row.
type DeliveryStore interface {
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, max int) ([]Delivery, error)
	RecordAttempt(ctx context.Context, d Delivery, r AttemptResult, now time.Time) error
	// ReleaseClaims makes claimed deliveries due again at once (a worker
	// stopping with claims it did not finish).
	ReleaseClaims(ctx context.Context, ids []int64, now time.Time) error
}

// Poster sends a signed delivery and returns the HTTP status (2xx is
// delivered).
type Poster interface {
	Post(ctx context.Context, d Delivery, now time.Time) (status int, err error)
}

// WebhookLease is how long a claimed delivery is held before another
// worker may take it, by default (longer than an attempt's timeout): the
// claims of a worker that crashed come due again after it.
const WebhookLease = time.Minute

// Webhooks delivers the due webhook deliveries every 5 seconds,
// draining the queue for up to WebhookRunBudget a run, 8 at a time: at
// least once (an attempt the receiver got but the worker did not record,
// a stop or a crash in between, is sent again with the same webhook-id:
// receivers de-duplicate by it).
// lease is how long its claims hold (WebhookLease when 0).
func Webhooks(store DeliveryStore, poster Poster, now func() time.Time, lease time.Duration) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		n, err := DrainDeliveries(ctx, store, poster, now, lease, WebhookRunBudget)
		return Result{Rows: n, Watermark: now().UTC()}, err
	}
}

// WebhookRunBudget is how long one run of the delivery job keeps taking
// batches of due deliveries.
const WebhookRunBudget = 4 * time.Second

// DrainDeliveries runs DeliverDue in batches of 200 until nothing is due
// or the budget is spent, each claim held for lease (WebhookLease when
// 0); it returns how many were delivered.
func DrainDeliveries(ctx context.Context, store DeliveryStore, poster Poster, now func() time.Time, lease, budget time.Duration) (int, error) {
	deadline := time.Now().Add(budget)
	total := 0
	for time.Now().Before(deadline) && ctx.Err() == nil {
		n, claimed, err := deliverBatch(ctx, store, poster, now, lease, 200)
		total += n
		if err != nil || claimed == 0 {
			return total, err
		}
	}
	return total, nil
}

// DeliverDue makes one attempt of each due delivery (at most max) and
// records it; it returns how many were delivered. Claims it could not
// finish because ctx ended are released at once.
func DeliverDue(ctx context.Context, store DeliveryStore, poster Poster, now func() time.Time, max int) (int, error) {
	n, _, err := deliverBatch(ctx, store, poster, now, WebhookLease, max)
	return n, err
}

func deliverBatch(ctx context.Context, store DeliveryStore, poster Poster, now func() time.Time, lease time.Duration, max int) (delivered, claimed int, err error) {
	if lease <= 0 {
		lease = WebhookLease
	}
	claimedAt := time.Now() // the lease runs from here, whatever now says
	due, err := store.ClaimDeliveries(ctx, now(), lease, max)
	if err != nil || len(due) == 0 {
		return 0, 0, err
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		unsent   []int64
		failing  atomic.Bool // a record failed: send no more of this batch
	)
	sem := make(chan struct{}, 8)
	for _, d := range due {
		wg.Add(1)
		sem <- struct{}{}
		go func(d Delivery) {
			defer wg.Done()
			defer func() { <-sem }()
			if ctx.Err() != nil || failing.Load() {
				mu.Lock()
				unsent = append(unsent, d.ID)
				mu.Unlock()
				return
			}
			began := now()
			status, perr := poster.Post(ctx, d, began)
			if ctx.Err() != nil { // stopped mid-attempt: send it again later
				mu.Lock()
				unsent = append(unsent, d.ID)
				mu.Unlock()
				return
			}
			r := AttemptResult{Status: status, Duration: now().Sub(began)}
			if perr != nil {
				r.Err = perr.Error()
			}
			ok := perr == nil && status >= 200 && status < 300
			if !ok {
				if d.Attempts < len(WebhookBackoff) {
					r.Next = now().Add(WebhookBackoff[d.Attempts])
				} else {
					r.Dead = true
				}
				if r.Err == "" {
					r.Err = "answered " + httpStatusText(status)
				}
			}
			err := recordAttempt(ctx, store, d, r, now(), claimedAt.Add(lease), &failing)
			mu.Lock()
			defer mu.Unlock()
			if ok && err == nil {
				delivered++
			}
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}(d)
	}
	wg.Wait()
	if len(unsent) > 0 {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := store.ReleaseClaims(rctx, unsent, now()); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return delivered, len(due), firstErr
}

// recordAttempt records the attempt r made at, and when the store fails
// (PostgreSQL restarting), tries again until a second before the claim's
// lease ends (leaseEnd), setting failing so that the batch sends nothing
// more meanwhile: an outcome recorded within the lease is never sent again,
// where one still unrecorded then is sent again after it (at least once,
// with the same webhook-id). The store records an attempt once, however
// often it is given (its commit may have landed unanswered).
func recordAttempt(ctx context.Context, store DeliveryStore, d Delivery, r AttemptResult, at, leaseEnd time.Time, failing *atomic.Bool) error {
	wait := 100 * time.Millisecond
	for {
		err := store.RecordAttempt(ctx, d, r, at)
		if err == nil {
			return nil
		}
		failing.Store(true)
		if ctx.Err() != nil || time.Now().Add(wait).After(leaseEnd.Add(-time.Second)) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

func httpStatusText(s int) string {
	if s == 0 {
		return "nothing"
	}
	return "HTTP " + strconv.Itoa(s)
}
