package history

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/write/ais"
	"overwatch/write/ingest"
)

// TestNMEAGateHouse: each $PGHP line stamps the message after it.
func TestNMEAGateHouse(t *testing.T) {
	t.Parallel()
	// $PGHP,1,2013,3,18,9,19,9,499,219,,2190048,1,28*23
	// !BSVDM,1,1,,B,14VliT002O0q2DBP:dAu7JRD0<0s,0*28
	// $PGHP,1,2013,3,18,9,19,10,624,219,,2190048,1,47*16
	// !BSVDM,1,1,,B,13@ni?GP?w0pFLVP7Lpv4?vF0<0h,0*47
	reps, _ := readAll(t, sample("dma_aislib_replay_dump_20130318_pghp.nmea"), Auto)
	if r := reps[0]; r.MMSI != 309146000 || r.Type != 1 || r.TS != ts(t, "2013-03-18T09:19:09Z") || r.ReceivedAt != r.TS ||
		math.Abs(r.Lat-56.216012) > 1e-6 || math.Abs(r.Lon-12.459748) > 1e-6 || r.SOG != 15.9 || r.COG != 335.7 || r.Heading != 337 {
		t.Errorf("first %+v", r)
	}
	if r := reps[1]; r.MMSI != 219001149 || r.TS != ts(t, "2013-03-18T09:19:10Z") || r.NavStatus != 7 {
		t.Errorf("second %+v", r)
	}
	// The two-sentence type 5 is stamped by the $PGHP before its first
	// sentence.
	var five []ingest.Report
	for _, r := range reps {
		if r.Type == 5 {
			five = append(five, r)
		}
	}
	if len(five) != 1 || five[0].Name == "" || five[0].TS.Before(ts(t, "2013-03-18T09:19:09Z")) {
		t.Errorf("type 5: %+v", five)
	}
}

// TestNMEAUSCG: the old USCG suffix gives the time (its last field).
func TestNMEAUSCG(t *testing.T) {
	t.Parallel()
	// !AIVDM,1,1,,A,15N1u<PP1FJuvSRHOE6QIwwh0HQ6,0*30,d-080,S2118,t050056.00,T56.4837741,r003669946,1325394060,1325394001
	reps, _ := readAll(t, sample("gfw_gpsdio_types_uscg.nmea"), Auto)
	at := ts(t, "2012-01-01T05:00:01Z")
	if r := reps[0]; r.MMSI != 367033650 || r.Type != 1 || r.TS != at || r.Has&ingest.HasHeading != 0 || r.SOG != 8.6 {
		t.Errorf("first %+v", r)
	}
	// The type 5 of the same message set as the gpsdio JSON: here the
	// decoder reads the name, ship type and dimensions gpsdio left out.
	if got := find(reps, 249190000); len(got) != 1 || got[0].IMO != 9383663 || got[0].Name != "RUTH THERESA" ||
		got[0].ShipType != 80 || got[0].Destination != "BOSTON,USA" || got[0].Draught != 7.8 {
		t.Errorf("type 5 %+v", got)
	}
}

// TestNMEANoTime: without $PGHP lines the same sentences have no time:
// skipped as no_time, never stamped with the clock.
func TestNMEANoTime(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(sample("dma_aislib_replay_dump_20130318_pghp.nmea"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "$PGHP") {
			kept = append(kept, l)
		}
	}
	r, err := NewReader(strings.NewReader(strings.Join(kept, "\n")), "untimed.nmea", Auto, "x")
	if err != nil {
		t.Fatal(err)
	}
	reps, err := drain(r)
	if err != nil {
		t.Fatal(err)
	}
	s := r.Stats()
	// 51 sentences: 48 messages with a report before, 2 base stations, 1
	// first fragment.
	if len(reps) != 0 || s.Rows != 51 || s.Skipped[SkipNoTime] != 48 || s.Skipped[SkipBaseStation] != 2 || s.Skipped[SkipFragment] != 1 {
		t.Errorf("reports %d, stats %v: skipped %v", len(reps), s, s.Skipped)
	}
}

// TestNMEATagBlocks: tag-block times, an IMO that fails its check digit,
// invalid lines counted.
func TestNMEATagBlocks(t *testing.T) {
	t.Parallel()
	at := time.Date(2021, 11, 1, 1, 58, 9, 0, time.UTC)
	enc := func(m ais.Message, tm time.Time) []string {
		lines, err := ais.Encode(m, ais.EncodeOptions{TagBlock: true, Time: tm, Station: "rORBCOMM000"})
		if err != nil {
			t.Fatal(err)
		}
		return lines
	}
	var in []string
	in = append(in, enc(ais.Message{Type: 1, MMSI: 257000001, Fields: ais.HasPosition | ais.HasSOG | ais.HasCOG | ais.HasHeading,
		Lat: 60.5, Lon: 5.25, SOG: 12.3, COG: 45.6, Heading: 44}, at)...)
	in = append(in, enc(ais.Message{Type: 5, MMSI: 257000001, IMO: 9221323, Fields: ais.HasIMO | ais.HasName | ais.HasETA | ais.HasETATime,
		Name: "TEST SHIP", ETAMonth: 11, ETADay: 3, ETAHour: 12, ETAMinute: 30}, at.Add(time.Second))...)
	in = append(in, "!AIVDM,1,1,,A,13u?etPv2;0n:dDPwUM1U1Cb069D,0*FF", "garbage", "$GPGGA,1,2,3*00", "# a comment", "")
	in = append(in, enc(ais.Message{Type: 18, MMSI: 338000001, Fields: ais.HasPosition, Lat: 40, Lon: -70}, time.Time{})...)
	r, err := NewReader(strings.NewReader(strings.Join(in, "\r\n")), "tag.nmea", NMEA, overwatch.SourceSpire)
	if err != nil {
		t.Fatal(err)
	}
	reps, err := drain(r)
	if err != nil {
		t.Fatal(err)
	}
	checkReports(t, reps)
	s := r.Stats()
	if len(reps) != 2 || reps[0].TS != at || reps[0].Source != overwatch.SourceSpire || reps[0].SOG != 12.3 ||
		reps[1].Type != 5 || reps[1].Has&ingest.HasIMO != 0 || reps[1].Name != "TEST SHIP" ||
		reps[1].ETA != time.Date(2021, 11, 3, 12, 30, 0, 0, time.UTC) {
		t.Fatalf("reports %+v", reps)
	}
	if s.Skipped[SkipFragment] != 1 || s.Skipped[SkipInvalidNMEA] != 2 || s.Skipped[SkipOtherNMEA] != 2 ||
		s.Skipped[SkipNoTime] != 1 || s.Quirks[QuirkIMOInvalid] != 1 || s.Quirks[QuirkCRLF] != 2 || s.Rows != 8 {
		t.Errorf("stats %v: skipped %v quirks %v", s, s.Skipped, s.Quirks)
	}
}

// TestNMEADetect: a capture starting with comments is still NMEA.
func TestNMEADetect(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(sample("gfw_gpsdio_types_uscg.nmea"))
	if err != nil {
		t.Fatal(err)
	}
	in := append([]byte("# USCG capture\n\n# second comment\n"), b...)
	r, err := NewReader(bytes.NewReader(in), "c.nmea", Auto, "x")
	if err != nil {
		t.Fatal(err)
	}
	reps, err := drain(r)
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Stats(); len(reps) != 5 || s.Rows != 28 || s.Skipped[SkipOtherNMEA] != 2 || s.Line != 29 {
		t.Errorf("reports %d stats %v line %d skipped %v", len(reps), s, s.Line, s.Skipped)
	}
}
