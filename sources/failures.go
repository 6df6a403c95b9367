package sources

import (
	"maps"
	"sync"
)

// Failures counts the failed fetches of each source in this process (a
// status other than 200, no answer, a body refused), what /metrics shows
// as overwatch_source_fetch_failures_total{source}. The zero value is
// ready; a nil *Failures counts nothing.
type Failures struct {
	mu sync.Mutex
	n  map[string]int64
}

// Add counts one failed fetch of source.
func (f *Failures) Add(source string) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil {
		f.n = map[string]int64{}
	}
	f.n[source]++
}

// Counts are the failures so far, by source.
func (f *Failures) Counts() map[string]int64 {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.n)
}
