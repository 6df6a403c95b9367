package track

import "time"

// Segmenter numbers the segments of a track fed in time order: a fix more
// than Gap after the previous one starts a new segment. Segments count
// from 1.
type Segmenter struct {
	Gap  time.Duration
	last time.Time
	n    int
}

// Next returns the segment of a fix at t (not before the previous one's).
func (s *Segmenter) Next(t time.Time) int {
	if s.n == 0 || t.Sub(s.last) > s.Gap {
		s.n++
	}
	s.last = t
	return s.n
}

// Thinner keeps one fix per interval: the first fix of each interval
// counted from the Unix epoch (so that two reads of overlapping ranges
// keep the same fixes). A zero Every keeps every fix.
type Thinner struct {
	Every time.Duration
	have  bool
	slot  int64
}

// Keep reports whether the fix at t (in time order) is kept.
func (th *Thinner) Keep(t time.Time) bool {
	if th.Every <= 0 {
		return true
	}
	slot := t.UnixNano() / int64(th.Every)
	if th.have && slot == th.slot {
		return false
	}
	th.have, th.slot = true, slot
	return true
}
