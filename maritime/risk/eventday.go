package risk

import (
	"time"
)

// EventDay is the day an event is stored under: the day it ended, the
// day of dataEnd while it goes on, SanctionsDay for a sanctions match.
func EventDay(e *Event, dataEnd time.Time) time.Time {
	switch {
	case e.Type == EventSanctions:
		return SanctionsDay
	case e.End != nil:
		return e.End.UTC().Truncate(24 * time.Hour)
	}
	return dataEnd.UTC().Truncate(24 * time.Hour)
}

// SanctionsDay is the day the sanctions_match events are stored under
// (1970-01-01): they are not tied to the position history, so every run
// of the risk_events job rewrites them whole, from the lists as they are.
var SanctionsDay = time.Unix(0, 0).UTC()
