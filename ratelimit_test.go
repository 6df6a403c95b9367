package overwatch

import (
	"testing"
	"time"
)

func TestWindowFor(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 23, 59, 30, 0, time.FixedZone("X", 3600))
	s, e := PerMinute.WindowFor(now)
	if !s.Equal(now) || e.Sub(s) != time.Minute {
		t.Errorf("minute window %v..%v", s, e)
	}
	s, e = PerUTCDay.WindowFor(now)
	wantStart := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	if !s.Equal(wantStart) || !e.Equal(wantStart.Add(24*time.Hour)) {
		t.Errorf("day window %v..%v", s, e)
	}
}

func TestErrorHelpers(t *testing.T) {
	t.Parallel()
	e := Errorf(NotFound, "no %s", "thing").With("a", 1)
	if e.Error() != "no thing" || ErrorCode(e) != NotFound || len(e.Fields) != 1 {
		t.Errorf("Errorf: %+v", e)
	}
	w := Wrap(Internal, e, "lookup failed")
	if w.Error() != "lookup failed: no thing" || w.Unwrap() != e {
		t.Errorf("Wrap: %v", w)
	}
	if ErrorCode(errPlain{}) != Internal {
		t.Error("plain errors are internal")
	}
}

type errPlain struct{}

func (errPlain) Error() string { return "plain" }
