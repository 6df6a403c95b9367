package feed

import (
	"context"
	"math/rand/v2"
	"time"
)

// backoff spaces reconnection attempts: doubling from min to max, with
// ±20 % jitter so that many clients do not reconnect in step.
type backoff struct {
	min, max time.Duration
	next     time.Duration
}

func newBackoff(min, max time.Duration) *backoff {
	if min <= 0 {
		min = time.Second
	}
	if max < min {
		max = min
	}
	return &backoff{min: min, max: max, next: min}
}

// wait sleeps for the current delay and doubles it; false when ctx ended.
func (b *backoff) wait(ctx context.Context) bool {
	d := b.next
	jitter := time.Duration((rand.Float64()*0.4 - 0.2) * float64(d))
	t := time.NewTimer(d + jitter)
	defer t.Stop()
	b.next = min(b.next*2, b.max)
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// reset returns to the shortest delay after a healthy connection.
func (b *backoff) reset() { b.next = b.min }
