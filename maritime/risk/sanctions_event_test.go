package risk

import (
	"testing"
	"time"

	"overwatch/maritime/sanctions"
)

// artavil is entry 15036 of the OFAC SDN list of July 2021 (the files of
// shared/data/sanctions), as sources/sanctions.ParseSDN reads it.
var artavil = sanctions.Entry{ListSource: "OFAC SDN", EntryID: "15036", Name: "ARTAVIL", Aliases: []string{"ABADAN", "SHONA", "ALPHA"}, IMO: 9187629,
	MMSI: 572469210, Flag: "IR", Program: "IRAN"}

// hermann is entry 4234 of the same list.
var hermann = sanctions.Entry{ListSource: "OFAC SDN", EntryID: "4234", Name: "HERMANN", Flag: "CU", Program: "CUBA"}

func TestSanctionsEvent(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	ev := SanctionsEvent(sanctions.Match{IMO: 9187629, Entry: artavil, MatchType: sanctions.MatchIMO, MatchedOn: "9187629", Confidence: 1}, at)
	if ev.Type != EventSanctions || ev.Subtype != sanctions.MatchIMO || ev.Severity != TierCritical || ev.Ongoing() ||
		ev.Detail["entry_id"] != "15036" || ev.Detail["list_source"] != "OFAC SDN" || ev.Detail["program"] != "IRAN" {
		t.Errorf("event %+v", ev)
	}
	if ev := SanctionsEvent(sanctions.Match{MatchType: sanctions.MatchName, Confidence: sanctions.ConfidenceName}, at); ev.Severity != TierMedium {
		t.Errorf("a name-only match is %s", ev.Severity)
	}
}
