package http

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"overwatch"
)

// MemoryRates keeps rate-limit windows in this process: exact under
// concurrency (one lock around each draw), right for a single instance.
// Ended windows are swept once a minute, so memory follows the number of
// clients seen in the current day.
type MemoryRates struct {
	mu      sync.Mutex
	windows map[string]*memoryWindow
	swept   time.Time
	// public holds the public surface's windows by client address
	// (takePublic), apart from the keyed buckets.
	public      [publicShards]publicShard
	publicSwept atomic.Int64 // unix nanoseconds of the last sweep of public
}

type memoryWindow struct {
	end  time.Time
	used int
}

var _ RateStore = (*MemoryRates)(nil)

// NewMemoryRates counts in this instance's memory: the limits of one
// instance.
func NewMemoryRates() *MemoryRates {
	return &MemoryRates{windows: map[string]*memoryWindow{}}
}

// TakeRate implements rateStore.
func (m *MemoryRates) TakeRate(_ context.Context, now time.Time, buckets []overwatch.RateBucket) ([]overwatch.RateCount, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.swept) > time.Minute {
		for k, w := range m.windows {
			if !w.end.After(now) {
				delete(m.windows, k)
			}
		}
		m.swept = now
	}
	counts := make([]overwatch.RateCount, len(buckets))
	windows := make([]*memoryWindow, len(buckets))
	ok := true
	for i, b := range buckets {
		w := m.windows[b.Key]
		if w == nil || !w.end.After(now) {
			_, end := b.Period.WindowFor(now)
			w = &memoryWindow{end: end}
			m.windows[b.Key] = w
		}
		windows[i] = w
		if w.used >= b.Limit {
			ok = false
		}
	}
	for i, w := range windows {
		if ok {
			w.used++
		}
		counts[i] = overwatch.RateCount{Used: w.used, Reset: w.end}
	}
	return counts, ok, nil
}
