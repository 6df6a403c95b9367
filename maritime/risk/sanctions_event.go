package risk

import (
	"time"

	"overwatch/maritime/sanctions"
)

// SanctionsEvent is the sanctions_match event of a match, dated at: its
// subtype is the match type; its severity critical for a direct IMO match
// (a direct match makes the vessel critical), high for another match of
// confidence 0.75 or more, medium below. It has no position (the caller
// may set the vessel's last one). Detail: list_source, entry_id,
// sanctioned_entity (the name on the list), program, match_type,
// matched_on, confidence. Keep at the time of the first match across
// runs: the event's id is made of it.
func SanctionsEvent(m sanctions.Match, at time.Time) Event {
	sev := TierMedium
	switch {
	case m.MatchType == sanctions.MatchIMO:
		sev = TierCritical
	case m.Confidence >= sanctions.ConfidenceNameFlag:
		sev = TierHigh
	}
	end := at
	return Event{
		Type: EventSanctions, Subtype: m.MatchType, IMO: m.IMO, Start: at, End: &end, Severity: sev,
		Detail: map[string]any{
			"list_source": m.Entry.ListSource, "entry_id": m.Entry.EntryID, "sanctioned_entity": m.Entry.Name,
			"program": m.Entry.Program, "match_type": m.MatchType, "matched_on": m.MatchedOn, "confidence": m.Confidence,
		},
	}
}
