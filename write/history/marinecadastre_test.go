package history

import (
	"strings"
	"testing"

	"overwatch"
	"overwatch/write/ingest"
)

// TestMarineCadastreRows checks reports of the 2022 sample by hand.
func TestMarineCadastreRows(t *testing.T) {
	t.Parallel()
	reps, _ := readAll(t, sample("noaa_marinecadastre_2022-03-31_51rows.csv"), Auto)

	// 367702220,2022-03-31T00:00:01,29.78763,-95.08070,0.1,226.5,340.0,JOE B WARD,,WDI4808,31,12,21,8,,57,A
	// The static report comes first, then the position.
	at := ts(t, "2022-03-31T00:00:01Z")
	got := find(reps, 367702220)
	want := []ingest.Report{
		{Source: "test", MMSI: 367702220, Type: 5, TS: at, ReceivedAt: at,
			Has:  ingest.HasName | ingest.HasCallSign | ingest.HasShipType | ingest.HasDimensions,
			Name: "JOE B WARD", CallSign: "WDI4808", ShipType: 31, ToBow: 21, ToPort: 8},
		{Source: "test", MMSI: 367702220, Type: 1, TS: at, ReceivedAt: at,
			Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasHeading | ingest.HasNavStatus,
			Lat: 29.78763, Lon: -95.0807, SOG: 0.1, COG: 226.5, Heading: 340, NavStatus: 12},
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("367702220:\n got %+v\nwant %+v", got, want)
	}

	// 671226100,...,RELIANCE II,IMO9221322,5VHS7,79,0,52,12,2.5,70,A: a
	// valid IMO and a draught; heading 511.0 left out.
	got = find(reps, 671226100)
	if len(got) != 2 || got[0].IMO != 9221322 || got[0].Has&ingest.HasIMO == 0 || got[0].Draught != 2.5 ||
		got[1].Has&ingest.HasHeading != 0 || got[1].NavStatus != 0 || got[1].Has&ingest.HasNavStatus == 0 {
		t.Errorf("671226100: %+v", got)
	}

	// 338327436,2022-03-31T00:00:03,47.29634,-122.42233,0.0,360.0,511.0,COOL KAT,IMO0000000,,36,,15,3,,,B
	// Class B: types 24 and 18; IMO 0 dropped; COG 360 and heading 511
	// left out; blank Status gives no navigational status.
	at = ts(t, "2022-03-31T00:00:03Z")
	got = find(reps, 338327436)
	want = []ingest.Report{
		{Source: "test", MMSI: 338327436, Type: 24, TS: at, ReceivedAt: at,
			Has:  ingest.HasName | ingest.HasShipType | ingest.HasDimensions,
			Name: "COOL KAT", ShipType: 36, ToBow: 15, ToPort: 3},
		{Source: "test", MMSI: 338327436, Type: 18, TS: at, ReceivedAt: at,
			Has: ingest.HasPosition | ingest.HasSOG, Lat: 47.29634, Lon: -122.42233},
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("338327436:\n got %+v\nwant %+v", got, want)
	}

	// 368132890,...,BAYOU BANDIT,IMO739103200,WDL4590,0,0,0,0,3.0,0,A:
	// the 9-digit IMO is dropped, the rest kept; ship type 0 and
	// dimensions 0 are not available.
	got = find(reps, 368132890)
	if len(got) != 2 || got[0].Has != ingest.HasName|ingest.HasCallSign|ingest.HasDraught || got[0].IMO != 0 ||
		got[0].Name != "BAYOU BANDIT" || got[0].Draught != 3 || got[1].Heading != 101 {
		t.Errorf("368132890: %+v", got)
	}
}

// TestMarineCadastre2024 checks the CRLF sample: names with quotes and
// underscores, Draft 0.0, overall dimensions.
func TestMarineCadastre2024(t *testing.T) {
	t.Parallel()
	reps, _ := readAll(t, sample("noaa_marinecadastre_2024-01-01_499rows.csv"), Auto)
	for _, r := range reps {
		if strings.ContainsAny(r.Name+r.CallSign, "\r\n") {
			t.Fatalf("CR left in %+v", r)
		}
	}
	// 367530760,2024-01-01T00:00:03,34.72130,-90.56839,4.8,4.8,2.0,JACKY L O'NEAL,,WDG3892,31,0,483,54,3.0,57,A
	got := find(reps, 367530760)
	if len(got) != 2 || got[0].Name != "JACKY L O'NEAL" || got[0].ToBow != 483 || got[0].ToPort != 54 ||
		got[0].ToStern != 0 || got[0].ToStarboard != 0 || got[1].Heading != 2 || got[1].NavStatus != 0 {
		t.Errorf("367530760: %+v", got)
	}
	// 338075892,...,PILOT BOAT SPRING PT,,WDB8945,90,0,0,0,0.0,90,A: no
	// dimensions, no draught.
	got = find(reps, 338075892)
	if len(got) != 2 || got[0].Has != ingest.HasName|ingest.HasCallSign|ingest.HasShipType {
		t.Errorf("338075892: %+v", got)
	}
	if got := find(reps, 367002380); len(got) != 2 || got[0].Name != "FREEDOM_II" {
		t.Errorf("367002380: %+v", got)
	}
}

// TestMarineCadastreVariants: the 16-column layout without
// TransceiverClass (class A assumed), NAIS vessel types, float-written
// integers, repeated static data, a UTF-8 BOM, a quoted name.
func TestMarineCadastreVariants(t *testing.T) {
	t.Parallel()
	csv := "\ufeffMMSI,BaseDateTime,LAT,LON,SOG,COG,Heading,VesselName,IMO,CallSign,VesselType,Status,Length,Width,Draft,Cargo\n" +
		"366999712,2017-01-01T00:00:00,47.5,-122.3,0.0,-196.9,511.0,\"SEA, LION\",IMO9221322,WX1,1025,0.0,208.0,32.0,9.1,70.0\n" +
		"366999712,2017-01-01T00:01:00,47.5,-122.3,0.1,10.0,12.0,\"SEA, LION\",IMO9221322,WX1,1025,0.0,208.0,32.0,9.1,70.0\n" +
		"366999712,2017-01-01T00:02:00,47.5,-122.3,0.1,10.0,12.0,\"SEA, LION\",IMO9221322,WX1,1025,0.0,208.0,32.0,9.5,70.0\n" +
		"366999713,2017-01-01T00:02:00,47.5,-122.3,x,10.0,12.0,,,,,,,,,\n"
	r, err := NewReader(strings.NewReader(csv), "mc2017.csv", Auto, overwatch.SourceAISHub)
	if err != nil {
		t.Fatal(err)
	}
	reps, err := drain(r)
	if err != nil {
		t.Fatal(err)
	}
	checkReports(t, reps)
	s := r.Stats()
	// static, position; position; static (draught changed), position; position
	if len(reps) != 6 || reps[0].Type != 5 || reps[1].Type != 1 || reps[2].Type != 1 || reps[3].Type != 5 ||
		reps[3].Draught != 9.5 || reps[5].Type != 1 {
		t.Fatalf("reports %+v", reps)
	}
	if reps[0].Name != "SEA, LION" || reps[0].Has&ingest.HasShipType != 0 || reps[0].ToBow != 208 || reps[0].ToPort != 32 ||
		reps[0].Source != overwatch.SourceAISHub {
		t.Errorf("static %+v", reps[0])
	}
	if reps[1].Has&ingest.HasCOG != 0 || reps[1].Has&ingest.HasNavStatus == 0 {
		t.Errorf("COG -196.9 must be left out, status 0.0 kept: %+v", reps[1])
	}
	if s.Quirks[QuirkCOGUnavailable] != 1 || s.Quirks[QuirkHeadingUnavailable] != 1 || s.Quirks[QuirkBadField] != 1 ||
		s.Kept != 4 || s.Rows != 4 {
		t.Errorf("stats %v: skipped %v quirks %v", s, s.Skipped, s.Quirks)
	}
}
