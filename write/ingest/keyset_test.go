package ingest

import (
	"math/rand/v2"
	"testing"
)

// TestKeySet checks the duplicate window's set against a map over keys that
// collide in their slots (the zero key, equal low bits) and across growth
// and reset.
func TestKeySet(t *testing.T) {
	t.Parallel()
	var s keySet
	want := map[uint64]bool{}
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 3; round++ {
		for i := 0; i < 300_000; i++ {
			k := r.Uint64()
			switch i % 4 {
			case 0:
				k &= 0xffff // few distinct keys: many repeats
			case 1:
				k <<= 40 // equal low bits
			}
			if got := s.insert(k); got == want[k] {
				t.Fatalf("round %d: insert(%x) = %v with the key seen before: %v", round, k, got, want[k])
			}
			want[k] = true
		}
		for k := range want {
			if !s.has(k) {
				t.Fatalf("round %d: key %x lost", round, k)
			}
		}
		if s.has(1<<63+12345) != want[1<<63+12345] {
			t.Fatal("a key never inserted is in the set")
		}
		s.reset()
		clear(want)
		if s.has(0) || s.has(1<<40) {
			t.Fatal("keys survive a reset")
		}
		s.insert(0)
		want[0] = true
	}
}
