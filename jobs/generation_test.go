package jobs

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestGenerationStrictlyIncreasing(t *testing.T) {
	t.Parallel()
	const goroutines, each = 8, 1000
	before := uint64(time.Now().UnixNano())
	got := make([][]uint64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				got[g] = append(got[g], Generation())
			}
		}()
	}
	wg.Wait()
	seen := make(map[uint64]bool, goroutines*each)
	for g, s := range got {
		for i, n := range s {
			if i > 0 && n <= s[i-1] {
				t.Fatalf("goroutine %d: generation %d after %d", g, n, s[i-1])
			}
			if seen[n] {
				t.Fatalf("generation %d handed out twice", n)
			}
			seen[n] = true
			if n < before {
				t.Fatalf("generation %d older than the test's start %d", n, before)
			}
		}
	}
	// one goroutine calling in a burst gets distinct numbers even when the
	// clock has not moved on between calls
	prev := Generation()
	for range 200000 {
		n := Generation()
		if n <= prev {
			t.Fatalf("generation %d after %d", n, prev)
		}
		prev = n
	}
	if last, next := slices.Max(slices.Collect(func(yield func(uint64) bool) {
		for n := range seen {
			if !yield(n) {
				return
			}
		}
	})), Generation(); next <= last {
		t.Errorf("generation after the concurrent ones %d ≤ %d", next, last)
	}
}
