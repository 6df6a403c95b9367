package history

import (
	"strings"
	"testing"

	"overwatch/write/ingest"
)

// TestBarentsWatchStream checks records of the three-type stream.
func TestBarentsWatchStream(t *testing.T) {
	t.Parallel()
	reps, _ := readAll(t, sample("barentswatch_kystverket_get_ais_20230220.ndjson"), Auto)

	// {"type":"Position","messageType":1,"courseOverGround":296.1,"aisClass":"A","altitude":null,
	//  "latitude":58.186747,"longitude":2.023988,"navigationalStatus":0,"rateOfTurn":-10,
	//  "speedOverGround":4.8,"trueHeading":292,"mmsi":248024000,"msgtime":"2023-02-20T13:13:55.620904+00:00"}
	at := ts(t, "2023-02-20T13:13:55Z")
	want := ingest.Report{Source: "test", MMSI: 248024000, Type: 1, TS: at, ReceivedAt: at,
		Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasHeading | ingest.HasNavStatus,
		Lat: 58.186747, Lon: 2.023988, SOG: 4.8, COG: 296.1, Heading: 292}
	if reps[0] != want {
		t.Errorf("first report\n got %+v\nwant %+v", reps[0], want)
	}

	// {"type":"Staticdata","messageType":5,"mmsi":257088710,"msgtime":"2023-02-20T13:13:54+00:00",
	//  "imoNumber":9855173,"callSign":"LFMC","destination":"KVANNE R46","eta":"01040000",
	//  "name":"STANGVIKFJORD","draught":45,"shipLength":67,"shipWidth":15,"shipType":69,
	//  "dimensionA":36,"dimensionB":31,"dimensionC":7,"dimensionD":8,...,"reportClass":"A"}
	// Draught 45 dm is 4.5 m; the ETA 4 January is the next one after
	// the report: 2024.
	at = ts(t, "2023-02-20T13:13:54Z")
	static := ingest.Report{Source: "test", MMSI: 257088710, Type: 5, TS: at, ReceivedAt: at,
		Has: ingest.HasIMO | ingest.HasName | ingest.HasCallSign | ingest.HasShipType | ingest.HasDimensions |
			ingest.HasDraught | ingest.HasDestination | ingest.HasETA,
		IMO: 9855173, Name: "STANGVIKFJORD", CallSign: "LFMC", ShipType: 69, ToBow: 36, ToStern: 31, ToPort: 7,
		ToStarboard: 8, Draught: 4.5, Destination: "KVANNE R46", ETA: ts(t, "2024-01-04T00:00:00Z")}
	got := find(reps, 257088710)
	if len(got) != 2 || got[0] != static || got[1].Type != 3 || got[1].TS != ts(t, "2023-02-20T13:14:03Z") {
		t.Errorf("257088710:\n got %+v\nwant %+v", got, static)
	}

	// {"type":"Staticdata","messageType":24,"mmsi":257699900,...,"imoNumber":null,"callSign":"LK7128",
	//  "destination":null,"eta":null,"name":null,"draught":null,"shipLength":15,"shipWidth":7,
	//  "shipType":53,"dimensionA":5,"dimensionB":10,"dimensionC":3,"dimensionD":4,...,"reportClass":"B"}
	got = find(reps, 257699900)
	if len(got) < 1 || got[0].Type != 24 || got[0].Has != ingest.HasCallSign|ingest.HasShipType|ingest.HasDimensions ||
		got[0].ToBow != 5 || got[0].ToStarboard != 4 {
		t.Errorf("257699900: %+v", got)
	}
	for _, r := range reps {
		if r.MMSI/10_000_000 == 99 {
			t.Fatalf("an aid to navigation was kept: %+v", r)
		}
	}
}

// TestBarentsWatchCombined checks the flat records: static before the
// position, only when it changed; sentinel ETAs; the draught cap.
func TestBarentsWatchCombined(t *testing.T) {
	t.Parallel()
	reps, _ := readAll(t, sample("barentswatch_kystverket_combined_full_20230217.ndjson"), Auto)
	// {"mmsi":257034450,"msgtime":"2023-02-17T11:38:39+00:00","altitude":null,"courseOverGround":149.3,
	//  "latitude":66.525847,"longitude":12.14817,"navigationalStatus":0,"rateOfTurn":127,
	//  "speedOverGround":17,"trueHeading":173,"imoNumber":null,"callSign":"LFCA","name":"HIMMELTIND",
	//  "destination":"TRAENALOKAL","eta":"08071300","draught":20,"shipLength":23,"shipWidth":6,
	//  "shipType":69,"dimensionA":12,"dimensionB":11,"dimensionC":3,"dimensionD":3,...,"reportClass":"A"}
	at := ts(t, "2023-02-17T11:38:39Z")
	got := find(reps, 257034450)
	want := []ingest.Report{
		{Source: "test", MMSI: 257034450, Type: 5, TS: at, ReceivedAt: at,
			Has: ingest.HasName | ingest.HasCallSign | ingest.HasShipType | ingest.HasDimensions | ingest.HasDraught |
				ingest.HasDestination | ingest.HasETA,
			Name: "HIMMELTIND", CallSign: "LFCA", ShipType: 69, ToBow: 12, ToStern: 11, ToPort: 3, ToStarboard: 3,
			Draught: 2, Destination: "TRAENALOKAL", ETA: ts(t, "2023-08-07T13:00:00Z")},
		{Source: "test", MMSI: 257034450, Type: 1, TS: at, ReceivedAt: at,
			Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasHeading | ingest.HasNavStatus,
			Lat: 66.525847, Lon: 12.14817, SOG: 17, COG: 149.3, Heading: 173},
	}
	// Seen again at 11:38:41 with the same static data: a position only.
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2].Type != 1 || got[2].SOG != 16.7 {
		t.Errorf("257034450:\n got %+v\nwant %+v", got, want)
	}
	// Every vessel seen twice with the same static data: one static report.
	perMMSI := map[uint32][2]int{}
	for _, r := range reps {
		c := perMMSI[r.MMSI]
		if r.Type == 5 || r.Type == 24 {
			c[0]++
		} else {
			c[1]++
		}
		perMMSI[r.MMSI] = c
	}
	repeated := 0
	for m, c := range perMMSI {
		if c[1] > 1 {
			repeated++
			if c[0] != 1 {
				t.Errorf("%d: %d static reports for %d positions", m, c[0], c[1])
			}
		}
	}
	if repeated == 0 {
		t.Error("no vessel seen twice")
	}
	for _, r := range reps {
		if r.Has&ingest.HasDraught != 0 && (r.Draught < 0.1 || r.Draught > 25.5) {
			t.Errorf("draught %v m", r.Draught)
		}
		if r.Has&ingest.HasETA != 0 && r.ETA.Before(r.TS.AddDate(0, 0, -1)) {
			t.Errorf("ETA %v before %v", r.ETA, r.TS)
		}
	}
}

// TestBarentsWatchOddities: unknown record types, numbers as strings,
// an ETA with a date only, a rate-of-turn sentinel, not JSON.
func TestBarentsWatchOddities(t *testing.T) {
	t.Parallel()
	in := `{"type":"Position","messageType":18,"aisClass":"B","latitude":"60.5","longitude":5.1,"speedOverGround":102.3,"courseOverGround":360,"trueHeading":511,"navigationalStatus":15,"rateOfTurn":-127,"mmsi":"257000001","msgtime":"2023-02-20T13:13:55.6209511+00:00"}
{"type":"Binary","mmsi":257000002,"msgtime":"2023-02-20T13:13:56+00:00"}
{"type":"Staticdata","messageType":5,"mmsi":257000003,"msgtime":"2023-02-20T13:13:57Z","imoNumber":0,"eta":"03212460","draught":255,"reportClass":"A"}
[1,2,3]
{"type":"Position","mmsi":257000004,"msgtime":"2023-02-20 13:13:58","latitude":91,"longitude":181}
{"type":"Position","mmsi":257000005,"msgtime":"yesterday","latitude":60,"longitude":5}
`
	r, err := NewReader(strings.NewReader(in), "odd.ndjson", BarentsWatch, "bw")
	if err != nil {
		t.Fatal(err)
	}
	reps, err := drain(r)
	if err != nil {
		t.Fatal(err)
	}
	checkReports(t, reps)
	s := r.Stats()
	if len(reps) != 2 || reps[0].Type != 18 || reps[0].Has != ingest.HasPosition || reps[0].Lat != 60.5 {
		t.Fatalf("reports %+v", reps)
	}
	if st := reps[1]; st.Type != 5 || st.Draught != 25.5 || st.ETA != ts(t, "2023-03-21T00:00:00Z") || st.Has&ingest.HasIMO != 0 {
		t.Errorf("static %+v", st)
	}
	if s.Skipped[SkipOtherMessage] != 1 || s.Skipped[SkipBadRow] != 1 || s.Skipped[SkipPositionUnavailable] != 1 ||
		s.Skipped[SkipBadTime] != 1 || s.Quirks[QuirkSentinelETA] != 1 || s.Quirks[QuirkIMOInvalid] != 1 ||
		s.Quirks[QuirkSOGUnavailable] != 1 || s.Quirks[QuirkCOGUnavailable] != 1 || s.Quirks[QuirkHeadingUnavailable] != 1 {
		t.Errorf("stats %v: skipped %v quirks %v", s, s.Skipped, s.Quirks)
	}
}
