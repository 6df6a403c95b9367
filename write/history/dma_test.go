package history

import (
	"testing"

	"overwatch/write/ingest"
)

// TestDMA22 checks rows of the constructed 22-column (pre-2019) file.
func TestDMA22(t *testing.T) {
	t.Parallel()
	reps, _ := readAll(t, sample("dma_aisdk_constructed_2018_22col.csv"), DMA)

	// 01/06/2018 00:00:01,Class A,219000431,55.591710,12.606430,Under way using engine,0.0,11.2,33.6,32,9221322,OXEZ2,SULTAN,Cargo,No additional information,20,120,GPS,7.5,AARHUS,02/06/2018 14:30:00,AIS
	// then the same vessel 10 s later (position only), a duplicate of that
	// row (skipped), and at 00:00:21 a new destination (static again).
	at := ts(t, "2018-06-01T00:00:01Z")
	got := find(reps, 219000431)
	static := ingest.Report{Source: "test", MMSI: 219000431, Type: 5, TS: at, ReceivedAt: at,
		Has: ingest.HasIMO | ingest.HasName | ingest.HasCallSign | ingest.HasShipType | ingest.HasDimensions |
			ingest.HasDraught | ingest.HasDestination | ingest.HasETA,
		IMO: 9221322, Name: "SULTAN", CallSign: "OXEZ2", ShipType: 70, ToBow: 120, ToPort: 20, Draught: 7.5,
		Destination: "AARHUS", ETA: ts(t, "2018-06-02T14:30:00Z")}
	pos := ingest.Report{Source: "test", MMSI: 219000431, Type: 1, TS: at, ReceivedAt: at,
		Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasHeading | ingest.HasNavStatus,
		Lat: 55.59171, Lon: 12.60643, SOG: 11.2, COG: 33.6, Heading: 32, NavStatus: 0}
	if len(got) != 5 || got[0] != static || got[1] != pos {
		t.Fatalf("219000431:\n got %+v\nwant %+v\n     %+v", got, static, pos)
	}
	if got[2].Type != 1 || got[2].TS != ts(t, "2018-06-01T00:00:11Z") ||
		got[3].Type != 5 || got[3].Destination != "KALUNDBORG" || got[4].Type != 1 {
		t.Errorf("219000431 later: %+v", got[2:])
	}

	// Class B with single-space fields and "Unknown" IMO and call sign.
	got = find(reps, 211217850)
	if len(got) != 2 || got[0].Type != 24 || got[0].Has != ingest.HasName|ingest.HasShipType || got[0].Name != "FRIDA" ||
		got[0].ShipType != 37 || got[1].Type != 18 || got[1].Has != ingest.HasPosition|ingest.HasSOG {
		t.Errorf("211217850: %+v", got)
	}
	// Position 91/181 with static data: the static report alone.
	got = find(reps, 220417000)
	if len(got) != 1 || got[0].Type != 5 || got[0].Name != "NORDIC" || got[0].ShipType != 80 || got[0].Draught != 11.2 ||
		got[0].Has&ingest.HasIMO != 0 {
		t.Errorf("220417000: %+v", got)
	}
	// SOG 102.3 and COG 360.0 left out; a failing check digit dropped;
	// "Restricted maneuverability" is 3, "Dredging" 33.
	got = find(reps, 219000436)
	if len(got) != 2 || got[0].Has&ingest.HasIMO != 0 || got[0].ShipType != 33 ||
		got[1].Has != ingest.HasPosition|ingest.HasNavStatus || got[1].NavStatus != 3 {
		t.Errorf("219000436: %+v", got)
	}
	// Heading 511 left out; "Engaged in fishing" 7, "Fishing" 30.
	got = find(reps, 219000435)
	if len(got) != 2 || got[0].ShipType != 30 || got[1].NavStatus != 7 || got[1].Has&ingest.HasHeading != 0 {
		t.Errorf("219000435: %+v", got)
	}
	for _, m := range []uint32{2190068, 219005931, 992191000, 111219501, 970012345, 972012345, 219099999, 219000432, 219000433, 219000434} {
		if got := find(reps, m); len(got) != 0 {
			t.Errorf("%d must be skipped: %+v", m, got)
		}
	}
}

// TestDMA26 checks the constructed 26-column file: A, B, C, D as the
// dimensions, quoted fields, a bad ETA.
func TestDMA26(t *testing.T) {
	t.Parallel()
	reps, _ := readAll(t, sample("dma_aisdk_constructed_2023_26col.csv"), Auto)
	got := find(reps, 219000873)
	if len(got) != 2 || got[0].ToBow != 150 || got[0].ToStern != 50 || got[0].ToPort != 12 || got[0].ToStarboard != 13 ||
		got[0].IMO != 9307839 || got[0].ETA != ts(t, "2023-02-28T06:00:00Z") {
		t.Errorf("219000873: %+v", got)
	}
	// A-D blank: Length 50 and Width 12; destination "Unknown" left out.
	got = find(reps, 219005931)
	if len(got) != 2 || got[0].ToBow != 50 || got[0].ToPort != 12 || got[0].ToStern != 0 || got[0].ShipType != 60 ||
		got[0].Has&ingest.HasDestination != 0 || got[1].NavStatus != 5 {
		t.Errorf("219005931: %+v", got)
	}
	got = find(reps, 219023456)
	if len(got) != 2 || got[0].Type != 24 || got[0].ToBow != 8 || got[0].ShipType != 36 || got[1].Type != 18 {
		t.Errorf("219023456: %+v", got)
	}
	got = find(reps, 219007000)
	if len(got) != 2 || got[0].Name != "ANNE, K" || got[0].Destination != "KORSOR, DK" || got[0].ShipType != 55 ||
		got[1].NavStatus != 1 {
		t.Errorf("219007000: %+v", got)
	}
	// The bad ETA 32/13/2023 is left out, the rest kept; "Power-driven
	// vessel towing astern" is 11, "Towing long/wide" 32.
	got = find(reps, 219008000)
	if len(got) != 2 || got[0].Has&ingest.HasETA != 0 || got[0].ShipType != 32 || got[1].NavStatus != 11 {
		t.Errorf("219008000: %+v", got)
	}
	// "Spare 1" and "Reserved for future use" (13).
	got = find(reps, 219009002)
	if len(got) != 1 || got[0].Type != 1 || got[0].NavStatus != 13 {
		t.Errorf("219009002: %+v", got)
	}
	if got := find(reps, 219009000); len(got) != 2 || got[0].ShipType != 90 || got[1].NavStatus != 8 {
		t.Errorf("219009000: %+v", got)
	}
}

// TestDMATexts: every ship type and navigational status DMA writes maps
// to its ITU code.
func TestDMATexts(t *testing.T) {
	t.Parallel()
	ships := map[string]uint8{"Cargo": 70, "Tanker": 80, "Passenger": 60, "Fishing": 30, "Tug": 52, "Pilot": 50,
		"SAR": 51, "Law enforcement": 55, "Pleasure": 37, "Sailing": 36, "Dredging": 33, "Diving": 34,
		"Military": 35, "HSC": 40, "WIG": 20, "Towing": 31, "Towing long/wide": 32, "Port tender": 53,
		"Anti-pollution": 54, "Medical": 58, "Not party to conflict": 59, "Reserved": 0, "Other": 90,
		"Undefined": 0, "Spare 1": 0, "Spare 2": 0, "70": 70}
	for text, code := range ships {
		if got, ok := shipTypeCode([]byte(text)); !ok || got != code {
			t.Errorf("ship type %q: %d %v, want %d", text, got, ok, code)
		}
	}
	navs := map[string]uint8{"Under way using engine": 0, "At anchor": 1, "Not under command": 2,
		"Restricted maneuverability": 3, "Constrained by her draught": 4, "Moored": 5, "Aground": 6,
		"Engaged in fishing": 7, "Under way sailing": 8, "Reserved for future amendment [HSC]": 9,
		"Reserved for future amendment [WIG]": 10, "Power-driven vessel towing astern": 11,
		"Power-driven vessel pushing ahead or towing alongside": 12, "Reserved for future use": 13,
		"AIS-SART": 14, "Unknown value": 15, "Undefined": 15}
	for text, code := range navs {
		if got, ok := navStatusCode([]byte(text)); !ok || got != code {
			t.Errorf("status %q: %d %v, want %d", text, got, ok, code)
		}
	}
	for _, bad := range []string{"Submarine", "16", ""} {
		if _, ok := navStatusCode([]byte(bad)); ok {
			t.Errorf("status %q accepted", bad)
		}
	}
}

// TestDMAMobiles: every "Type of mobile" lands where it should.
func TestDMAMobiles(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		why    rid
		classB bool
	}{
		"Class A": {rNone, false}, "Class B": {rNone, true}, "Base Station": {rBaseStation, false},
		"AtoN": {rAidToNavigation, false}, "SAR Airborne": {rSARAircraft, false},
		"Search and Rescue Transponder": {rNotAVessel, false}, "Man Overboard Device": {rNotAVessel, false},
		"Undefined": {rUnknownMobile, false}, "": {rUnknownMobile, false}, "CLASS A": {rNone, false},
	}
	for text, w := range cases {
		if why, b := mobile([]byte(text)); why != w.why || b != w.classB {
			t.Errorf("%q: %v %v, want %v %v", text, why, b, w.why, w.classB)
		}
	}
}
