package track

import (
	"slices"
	"testing"
	"time"
)

func TestSegmenter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := Segmenter{Gap: 6 * time.Hour}
	var got []int
	for _, h := range []int{0, 1, 7, 8, 14, 20, 27} {
		got = append(got, s.Next(t0.Add(time.Duration(h)*time.Hour)))
	}
	// 1→7 is exactly 6 h (not more): same segment; 20→27 is 7 h.
	if want := []int{1, 1, 1, 1, 1, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("segments %v, want %v", got, want)
	}
	s = Segmenter{Gap: time.Hour}
	got = got[:0]
	for _, m := range []int{0, 30, 91, 100} {
		got = append(got, s.Next(t0.Add(time.Duration(m)*time.Minute)))
	}
	if want := []int{1, 1, 2, 2}; !slices.Equal(got, want) {
		t.Errorf("segments %v, want %v", got, want)
	}
}

func TestThinner(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	th := Thinner{Every: 10 * time.Minute}
	var kept []int
	for _, m := range []int{0, 3, 9, 10, 19, 35, 36} {
		if th.Keep(t0.Add(time.Duration(m) * time.Minute)) {
			kept = append(kept, m)
		}
	}
	if want := []int{0, 10, 35}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
}

func TestSimplify(t *testing.T) {
	// A straight line east along the equator with one point 0.01° (1.1 km)
	// off it, and a near-collinear point 0.0001° (11 m) off.
	pts := []Point{{0, 0}, {0.0001, 0.1}, {0, 0.2}, {0.01, 0.3}, {0, 0.4}}
	// At 100 m: the far point stays, and so does the one before it (740 m
	// from the chord that leads to the far point); the 11 m wobble goes.
	if got := Simplify(pts, 100); !slices.Equal(got, []int{0, 2, 3, 4}) {
		t.Errorf("100 m: %v", got)
	}
	if got := Simplify(pts, 5); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("5 m: %v", got)
	}
	if got := Simplify(pts, 5000); !slices.Equal(got, []int{0, 4}) {
		t.Errorf("5 km: %v", got)
	}
	// Across the antimeridian the chord goes the short way: a point on it
	// is dropped.
	across := []Point{{0, 179.9}, {0, -179.95 + 0.0}, {0, -179.9}}
	if got := Simplify(across, 100); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("antimeridian: %v", got)
	}
	if got := Simplify(pts, 0); len(got) != 5 {
		t.Errorf("zero tolerance: %v", got)
	}
}
