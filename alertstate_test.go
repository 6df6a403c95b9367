package overwatch

import (
	"errors"
	"testing"
	"time"
)

// Every (state, action) pair of the alert state machine.
func TestAlertTransitions(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	earlier, later := now.Add(-time.Hour), now.Add(2*time.Hour)
	past := now.Add(-time.Minute)
	states := map[AlertState]AlertTimes{
		AlertOpen:     {},
		AlertRead:     {ReadAt: &earlier},
		AlertSnoozed:  {SnoozedUntil: &later},
		AlertResolved: {ReadAt: &earlier, ResolvedAt: &earlier},
	}
	until := now.Add(24 * time.Hour)
	// want: the state after, or "" for a 409.
	want := map[AlertState]map[AlertAction]AlertState{
		AlertOpen:     {ActionRead: AlertRead, ActionResolve: AlertResolved, ActionSnooze: AlertSnoozed, ActionOpen: ""},
		AlertRead:     {ActionRead: AlertRead, ActionResolve: AlertResolved, ActionSnooze: AlertSnoozed, ActionOpen: AlertOpen},
		AlertSnoozed:  {ActionRead: AlertSnoozed, ActionResolve: AlertResolved, ActionSnooze: AlertSnoozed, ActionOpen: AlertOpen},
		AlertResolved: {ActionRead: "", ActionResolve: "", ActionSnooze: "", ActionOpen: AlertOpen},
	}
	for from, times := range states {
		if got := times.StateAt(now); got != from {
			t.Fatalf("fixture %s is %s", from, got)
		}
		for action, to := range want[from] {
			next, err := times.Transition(action, now, until)
			if to == "" {
				var e *Error
				if !errors.As(err, &e) || e.Code != Conflict || next != times {
					t.Errorf("%s + %s: %v, want a conflict leaving the times", from, action, err)
				}
				continue
			}
			if err != nil || next.StateAt(now) != to {
				t.Errorf("%s + %s: %s %v, want %s", from, action, next.StateAt(now), err, to)
				continue
			}
			switch action {
			case ActionRead:
				if next.ReadAt == nil || times.ReadAt != nil && !next.ReadAt.Equal(*times.ReadAt) {
					t.Errorf("%s + read: read_at %v (was %v)", from, next.ReadAt, times.ReadAt)
				}
			case ActionResolve:
				if next.ResolvedAt == nil || !next.ResolvedAt.Equal(now) || next.SnoozedUntil != nil {
					t.Errorf("%s + resolve: %+v", from, next)
				}
			case ActionSnooze:
				if next.SnoozedUntil == nil || !next.SnoozedUntil.Equal(until) {
					t.Errorf("%s + snooze: %+v", from, next)
				}
			case ActionOpen:
				if next != (AlertTimes{}) {
					t.Errorf("%s + open: %+v", from, next)
				}
			}
		}
	}
	// A snooze that has passed: open again (read again if it was read).
	if s := (AlertTimes{SnoozedUntil: &past}).StateAt(now); s != AlertOpen {
		t.Errorf("passed snooze: %s", s)
	}
	if s := (AlertTimes{ReadAt: &earlier, SnoozedUntil: &past}).StateAt(now); s != AlertRead {
		t.Errorf("passed snooze of a read alert: %s", s)
	}
	if _, err := (AlertTimes{}).Transition("archive", now, until); err == nil {
		t.Error("an unknown action")
	}
}
