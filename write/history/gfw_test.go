package history

import (
	"strings"
	"testing"

	"overwatch/write/ingest"
)

// TestGFWSegments checks the gpsdio tracks: both timestamp forms, float32
// speeds rounded, the 91/181 record skipped.
func TestGFWSegments(t *testing.T) {
	t.Parallel()
	// {"ssvid": 263576000, "lat": -23.2656002045, "lon": 97.1636123657,
	//  "timestamp": "2015-10-15T02:39:55.000000Z", "speed": 2.2999999523, "course": 267.0, "implied_speed": null}
	reps, _ := readAll(t, sample("gfw_gpsdio_segment_263576000.ndjson"), Auto)
	at := ts(t, "2015-10-15T02:39:55Z")
	want := ingest.Report{Source: "test", MMSI: 263576000, Type: 1, TS: at, ReceivedAt: at,
		Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG,
		Lat: -23.2656002045, Lon: 97.1636123657, SOG: 2.3, COG: 267}
	if reps[0] != want {
		t.Errorf("first\n got %+v\nwant %+v", reps[0], want)
	}
	// Line 219 is the "not available" set (lat 91, lon 181, speed 102.3,
	// course 360) at 11:35:06: no report at that time.
	for _, r := range reps {
		if r.TS.Equal(ts(t, "2015-10-15T11:35:06Z")) {
			t.Errorf("the 91/181 record gave %+v", r)
		}
	}

	// {"ssvid": 416000000, "lat": 22.568214416503906, "lon": 120.31088256835938,
	//  "timestamp": "2014-01-01 01:14:25.000000", "course": 0, "speed": 0}
	reps, _ = readAll(t, sample("gfw_gpsdio_segment_416000000.ndjson"), GFW)
	at = ts(t, "2014-01-01T01:14:25Z")
	want = ingest.Report{Source: "test", MMSI: 416000000, Type: 1, TS: at, ReceivedAt: at,
		Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG, Lat: 22.568214416503906, Lon: 120.31088256835938}
	if reps[0] != want {
		t.Errorf("first\n got %+v\nwant %+v", reps[0], want)
	}
}

// TestGFWTypes checks the decoded messages of every type: raw sentinels,
// impossible values, a type 5.
func TestGFWTypes(t *testing.T) {
	t.Parallel()
	reps, _ := readAll(t, sample("gfw_gpsdio_types.ndjson"), Auto)
	// {"to_port": 0, "minute": 60, "shiptype": 0, "to_starboard": 0, "shipname": null,
	//  "timestamp": "2012-01-01T05:01:05.000000Z", ..., "month": 0, "destination": "BOSTON,USA", "type": 5,
	//  "callsign": "9HMQ9", "hour": 0, "draught": 7.800000190734863, ..., "day": 0, "to_bow": 0,
	//  "mmsi": 249190000, "imo": 9383663, "to_stern": 0}
	at := ts(t, "2012-01-01T05:01:05Z")
	want := ingest.Report{Source: "test", MMSI: 249190000, Type: 5, TS: at, ReceivedAt: at,
		Has: ingest.HasIMO | ingest.HasCallSign | ingest.HasDraught | ingest.HasDestination,
		IMO: 9383663, CallSign: "9HMQ9", Draught: 7.8, Destination: "BOSTON,USA"}
	if got := find(reps, 249190000); len(got) != 1 || got[0] != want {
		t.Errorf("type 5\n got %+v\nwant %+v", got, want)
	}
	// Type 1 with heading 511 and turn -731.39 (ROT not available).
	if got := find(reps, 367033650); len(got) != 1 || got[0].Has&ingest.HasHeading != 0 ||
		got[0].SOG != 8.6 || got[0].COG != 35.9 || got[0].Has&ingest.HasNavStatus == 0 {
		t.Errorf("type 1: %+v", got)
	}
	// Impossible: type 2 at lat -101.5, type 27 at lon 200.23; type 11's
	// year 8416 is not the report time and the message is not kept.
	for _, m := range []uint32{277315048, 974291422, 367342360, 400214919, 3669713, 1065113482} {
		if got := find(reps, m); len(got) != 0 {
			t.Errorf("%d kept: %+v", m, got)
		}
	}
}

// TestGFWOddities: string numbers, unix times, type 19 and 24 part B,
// not JSON.
func TestGFWOddities(t *testing.T) {
	t.Parallel()
	in := `{"mmsi": "366000001", "timestamp": 1325394060, "lat": "42.5", "lon": -70.5, "speed": "fast", "course": 3600.0, "type": 1}
{"mmsi": 366000002, "timestamp": "2012-01-01T05:01:05Z", "type": 19, "lat": 91, "lon": 181, "shipname": "NORTHERN LIGHT@@@", "shiptype": 30, "to_bow": 10, "to_stern": 5, "to_port": 2, "to_starboard": 2}
{"mmsi": 366000003, "timestamp": "2012-01-01T05:01:06Z", "type": 24, "partno": 1, "callsign": "WDA1234", "shiptype": 37}
{"mmsi": 366000004, "timestamp": "2012-01-01T05:01:07Z", "type": "x"}
not json
{"ssvid": 366000005, "timestamp": "2012-01-01T05:01:08Z", "lat": 42, "lon": -70, "heading": 400}
`
	r, err := NewReader(strings.NewReader(in), "odd.json", Auto, "gfw")
	if err != nil {
		t.Fatal(err)
	}
	if r.Format() != GFW {
		t.Fatalf("format %s", r.Format())
	}
	reps, err := drain(r)
	if err != nil {
		t.Fatal(err)
	}
	checkReports(t, reps)
	s := r.Stats()
	if len(reps) != 4 {
		t.Fatalf("reports %+v", reps)
	}
	if reps[0].TS != ts(t, "2012-01-01T05:01:00Z") || reps[0].Lat != 42.5 || reps[0].Has != ingest.HasPosition {
		t.Errorf("unix time, string lat: %+v", reps[0])
	}
	if reps[1].Type != 19 || reps[1].Has != ingest.HasName|ingest.HasShipType|ingest.HasDimensions || reps[1].Name != "NORTHERN LIGHT" {
		t.Errorf("type 19 without position: %+v", reps[1])
	}
	if reps[2].Type != 24 || reps[2].Part != 1 || reps[2].CallSign != "WDA1234" || reps[2].Has != ingest.HasCallSign|ingest.HasShipType {
		t.Errorf("type 24 B: %+v", reps[2])
	}
	if s.Skipped[SkipBadRow] != 2 || s.Quirks[QuirkBadField] != 1 || s.Quirks[QuirkCOGUnavailable] != 1 ||
		s.Quirks[QuirkPositionUnavailableStaticKept] != 1 || s.Quirks[QuirkClassB] != 2 || s.Quirks[QuirkHeadingUnavailable] != 1 {
		t.Errorf("stats %v: skipped %v quirks %v", s, s.Skipped, s.Quirks)
	}
}
