package sanctions

import (
	"testing"
	"time"

	"overwatch/maritime/vessel"

	"overwatch"
)

// sdnEntries are entries of the OFAC SDN list of July 2021 (the files of
// shared/data/sanctions), as sources/sanctions.ParseSDN reads them.
var sdnEntries = []Entry{
	{ListSource: "OFAC SDN", EntryID: "4234", Name: "HERMANN", Flag: "CU", Program: "CUBA"},
	{ListSource: "OFAC SDN", EntryID: "4243", Name: "SAND SWAN", Aliases: []string{"ANA I"}, Flag: "CY", Program: "CUBA",
		Remarks: "f.k.a. 'ANA I'."},
	{ListSource: "OFAC SDN", EntryID: "15036", Name: "ARTAVIL", Aliases: []string{"ABADAN", "SHONA", "ALPHA"}, IMO: 9187629,
		MMSI: 572469210, Flag: "IR", Program: "IRAN", Remarks: "Former Vessel Flag Malta; ... Vessel Registration Identification IMO 9187629; MMSI 572469210; f.k.a. 'ALPHA'; Linked To: NATIONAL IRANIAN TANKER COMPANY."},
	{ListSource: "OFAC SDN", EntryID: "15037", Name: "ARK", Aliases: []string{"ABADEH", "CRYSTAL", "SUNDIAL"}, IMO: 9187655,
		MMSI: 256842000, Flag: "PA", Program: "IRAN", Remarks: "Former Vessel Flag Malta; ... Vessel Registration Identification IMO 9187655; MMSI 256842000; Linked To: NATIONAL IRANIAN TANKER COMPANY."},
	{ListSource: "OFAC SDN", EntryID: "17069", Name: "CHONG CHON GANG", IMO: 7937317, Flag: "KP", Program: "DPRK"},
	// Synthetic: an entry known by its MMSI only, with a vessel type.
	{ListSource: "TEST", EntryID: "1", Name: "NEPTUNE", MMSI: 636012345, Flag: "LR", Remarks: "Other Vessel Type Bulk Carrier"},
}

// testValidIMO makes a valid IMO number from six digits.
func testValidIMO(first6 uint32) overwatch.IMO {
	return overwatch.IMO(first6*10 + overwatch.IMOCheckDigit(first6))
}

func TestMatchSanctions(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, b, c, d, e, f, g, h := testValidIMO(900001), testValidIMO(900002), testValidIMO(900003), testValidIMO(900004), testValidIMO(900005),
		testValidIMO(900006), testValidIMO(900007), testValidIMO(900008)
	vessels := []vessel.Profile{
		{IMO: 9187629, Name: "OCEAN STAR", Flag: "CM", ShipType: 80},      // a sanctioned IMO under another name
		{IMO: a, Name: "GOLDEN WAVE", Flag: "PA", ShipType: 80},           // once used ARK's MMSI
		{IMO: b, Name: "M/V Sand-Swan", Flag: "CY", ShipType: 70},         // name and flag
		{IMO: c, Name: "PACIFIC DAWN", Flag: "PA", ShipType: 70},          // formerly SAND SWAN under Cyprus
		{IMO: d, Name: "ARK", Flag: "PA", ShipType: 80},                   // too short a name
		{IMO: e, Name: "CRYSTAL", Flag: "GR", ShipType: 80},               // a namesake of ARK's alias
		{IMO: f, Name: "CRYSTAL", Flag: "PA", ShipType: 80},               // ... with ARK's flag: low confidence
		{IMO: 1234568, Name: "hermann", ShipType: 70},                     // an invalid IMO of ours: the name alone
		{IMO: g, Name: "NEPTUNE", Flag: "MH", ShipType: 70},               // MMSI-only entry: name and type
		{IMO: h, Name: "SEA BREEZE", Flag: "LR", ShipType: 70},            // nothing
		{IMO: 7937317, Name: "CHONG CHON GANG", Flag: "KP", ShipType: 70}, // IMO and name: one match, the IMO
	}
	identities := []vessel.Identity{
		{IMO: a, ValidFrom: t0, MMSI: 256842000, Name: "GOLDEN WAVE", Flag: "PA"},
		{IMO: a, ValidFrom: t0.Add(time.Hour), MMSI: 351000001, Name: "GOLDEN WAVE", Flag: "PA"},
		{IMO: c, ValidFrom: t0, MMSI: 209000001, Name: "SAND SWAN", Flag: "CY"},
		{IMO: c, ValidFrom: t0.Add(time.Hour), MMSI: 351000002, Name: "PACIFIC DAWN", Flag: "PA"},
		{IMO: g, ValidFrom: t0, MMSI: 636012345, Name: "NEPTUNE", Flag: "LR"},
		// Known only from its identity history: ARTAVIL's MMSI, no IMO match.
		{IMO: testValidIMO(900009), ValidFrom: t0, MMSI: 572469210, Name: "SHONA", Flag: "IR", ShipType: 80},
	}
	got := MatchVessels(sdnEntries, vessels, identities)
	type key struct {
		imo   overwatch.IMO
		entry string
	}
	want := map[key]struct {
		kind string
		on   string
		conf float64
	}{
		{9187629, "15036"}:              {MatchIMO, "9187629", ConfidenceIMO},
		{a, "15037"}:                    {MatchMMSI, "256842000", ConfidenceMMSIOtherIMO},
		{b, "4243"}:                     {MatchName, "SAND SWAN", ConfidenceNameFlag},
		{c, "4243"}:                     {MatchName, "SAND SWAN", ConfidenceNameFlag},
		{f, "15037"}:                    {MatchName, "CRYSTAL", ConfidenceNameOtherIMO},
		{1234568, "4234"}:               {MatchName, "HERMANN", ConfidenceName},
		{g, "1"}:                        {MatchMMSI, "636012345", ConfidenceMMSI},
		{testValidIMO(900009), "15036"}: {MatchMMSI, "572469210", ConfidenceMMSIOtherIMO},
		{7937317, "17069"}:              {MatchIMO, "7937317", ConfidenceIMO},
	}
	seen := map[key]bool{}
	for _, m := range got {
		k := key{m.IMO, m.Entry.EntryID}
		w, ok := want[k]
		if !ok {
			t.Errorf("unexpected match %d ~ %s (%s on %q, %.2f)", m.IMO, m.Entry.Name, m.MatchType, m.MatchedOn, m.Confidence)
			continue
		}
		if seen[k] {
			t.Errorf("%d ~ %s matched twice", m.IMO, m.Entry.Name)
		}
		seen[k] = true
		if m.MatchType != w.kind || m.MatchedOn != w.on || m.Confidence != w.conf {
			t.Errorf("%d ~ %s: %s on %q %.2f, want %s on %q %.2f", m.IMO, m.Entry.Name, m.MatchType, m.MatchedOn, m.Confidence,
				w.kind, w.on, w.conf)
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("missing match %d ~ %s", k.imo, k.entry)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i-1].IMO > got[i].IMO {
			t.Fatal("matches not ordered by IMO")
		}
	}
	if MatchVessels(nil, vessels, identities) != nil || MatchVessels(sdnEntries, nil, nil) != nil {
		t.Error("matches from nothing")
	}
}

func TestNameKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, key string
		ok      bool
	}{
		{"M/T Sea-Pride", "SEAPRIDE", true}, {"SEAPRIDE", "SEAPRIDE", true}, {"m.v. artavil", "ARTAVIL", true},
		{"MT  ARK", "ARK", false}, {"ARGO I", "ARGOI", true}, {"ELENI", "ELENI", false}, {"São João", "SAOJOAO", true},
		{"MV", "MV", false}, {"M T", "MT", true}, {"", "", false}, {"DORE", "DORE", false}, {"DEEP SEA", "DEEPSEA", true},
		{"Captain's Pride", "CAPTAINSPRIDE", true}, {"F/V 123", "123", false},
	} {
		key, ok := NameKey(c.in)
		if key != c.key || ok != c.ok {
			t.Errorf("NameKey(%q) = %q, %v; want %q, %v", c.in, key, ok, c.key, c.ok)
		}
	}
}

func TestVesselTypeCategory(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Crude/Oil Products Tanker": "tanker", "Bulk Carrier": "cargo", "General Cargo": "cargo", "Tug": "tug",
		"Offshore Tug/Supply Ship": "tug", "Passenger": "passenger", "Platform Supply Ship": "special", "Drilling Ship": "special",
		"Fishing Vessel": "fishing", "Pleasure Craft": "pleasure", "": "", "Roll-on Roll-off": "cargo", "LPG Tanker": "tanker",
	} {
		if got := VesselTypeCategory(in); got != want {
			t.Errorf("VesselTypeCategory(%q) = %q, want %q", in, got, want)
		}
	}
}
