package risk

import "slices"

// DropTransferred returns the events without the directional draught
// mismatches that a ship-to-ship transfer of the same vessel (either side
// of the pair) explains: one that began during the transfer or within
// MismatchStopLookback after its end (or while it goes on). The transfer
// event reports that change (its draught_change_m); a change during a stop
// at sea with no partner seen stays a directional mismatch.
func DropTransferred(events []Event) []Event {
	var transfers []*Event
	for i := range events {
		if events[i].Type == EventSTS {
			transfers = append(transfers, &events[i])
		}
	}
	if len(transfers) == 0 {
		return events
	}
	out := events[:0:0]
	for _, e := range events {
		if e.Type == EventMismatch && e.Subtype == MismatchDirectional && slices.ContainsFunc(transfers, func(t *Event) bool {
			return (t.IMO == e.IMO || t.Other == e.IMO) && !e.Start.Before(t.Start) &&
				(t.End == nil || !e.Start.After(t.End.Add(MismatchStopLookback)))
		}) {
			continue
		}
		out = append(out, e)
	}
	return out
}
