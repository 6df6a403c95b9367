package overwatch

import (
	"fmt"
	"time"
)

// AlertState is the state of an alert for an account, derived from its
// three timestamps as of a time (docs/alerts.md): resolved when
// resolved_at is set; else snoozed while snoozed_until is ahead; else read
// when read_at is set; else open. A snooze that has passed leaves the
// alert open (or read, when it was read).
type AlertState string

// The alert states (the `state` filter of the unified feed, besides all).
const (
	AlertOpen     AlertState = "open"
	AlertRead     AlertState = "read"
	AlertSnoozed  AlertState = "snoozed"
	AlertResolved AlertState = "resolved"
)

// AlertAction is an action of POST /v1/alerts/unified/state.
type AlertAction string

// The alert actions.
const (
	ActionRead    AlertAction = "read"
	ActionResolve AlertAction = "resolve"
	ActionSnooze  AlertAction = "snooze"
	ActionOpen    AlertAction = "open"
)

// AlertTimes are an alert's state timestamps (nil: unset).
type AlertTimes struct {
	ReadAt       *time.Time `json:"read_at"`
	ResolvedAt   *time.Time `json:"resolved_at"`
	SnoozedUntil *time.Time `json:"snoozed_until"`
}

// StateAt is the state of the times as of now.
func (t AlertTimes) StateAt(now time.Time) AlertState {
	switch {
	case t.ResolvedAt != nil:
		return AlertResolved
	case t.SnoozedUntil != nil && t.SnoozedUntil.After(now):
		return AlertSnoozed
	case t.ReadAt != nil:
		return AlertRead
	}
	return AlertOpen
}

// Transition applies an action at now to the times (snoozeUntil: the end
// of a snooze). The transitions (docs/alerts.md):
//
//	from \ action   read            resolve          snooze             open
//	open            read            resolved         snoozed            409
//	read            read (kept)     resolved         snoozed            open
//	snoozed         snoozed, read   resolved         snoozed (new end)  open
//	resolved        409             409              409                open
//
// read sets read_at (kept when set); resolve sets resolved_at and ends a
// snooze; snooze sets snoozed_until; open clears all three. A refused
// action is a Conflict naming the state.
func (t AlertTimes) Transition(a AlertAction, now, snoozeUntil time.Time) (AlertTimes, error) {
	from := t.StateAt(now)
	refuse := func() (AlertTimes, error) {
		return t, Errorf(Conflict, "the alert is %s: action %s is not allowed (%s)", from, a, allowedFrom(from))
	}
	n := now.UTC()
	switch a {
	case ActionRead:
		if from == AlertResolved {
			return refuse()
		}
		if t.ReadAt == nil {
			t.ReadAt = &n
		}
	case ActionResolve:
		if from == AlertResolved {
			return refuse()
		}
		t.ResolvedAt, t.SnoozedUntil = &n, nil
	case ActionSnooze:
		if from == AlertResolved {
			return refuse()
		}
		u := snoozeUntil.UTC()
		t.SnoozedUntil = &u
	case ActionOpen:
		if from == AlertOpen {
			return refuse()
		}
		t = AlertTimes{}
	default:
		return t, Errorf(Invalid, "action must be one of read, resolve, snooze, open")
	}
	return t, nil
}

func allowedFrom(s AlertState) string {
	switch s {
	case AlertOpen:
		return "allowed: read, resolve, snooze"
	case AlertResolved:
		return "allowed: open"
	}
	return fmt.Sprintf("allowed from %s: read, resolve, snooze, open", s)
}
