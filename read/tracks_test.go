package read

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"overwatch"
)

func testFixes(n int, step time.Duration) []Fix {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]Fix, n)
	for i := range out {
		ts := t0.Add(time.Duration(i) * step)
		out[i] = Fix{IMO: 9074729, TS: ts, Lat: 10 + float64(i)*0.001, Lon: 20, SpeedKt: 12.3, CourseDeg: math.NaN(), Heading: -1,
			NavStatus: 0, Source: overwatch.SourceAISHub, Station: "rX", ReceivedAt: ts.Add(2 * time.Second), DedupKey: uint64(i)}
	}
	return out
}

func TestShaper(t *testing.T) {
	fixes := testFixes(10, 10*time.Minute)
	for i := 5; i < 10; i++ { // a 7-hour silence before the sixth
		fixes[i].TS = fixes[i].TS.Add(7 * time.Hour)
	}
	dup := fixes[3] // a report stored twice
	in := append(append(append([]Fix{}, fixes[:4]...), dup), fixes[4:]...)
	run := func(r trackRequest) (kept []int, segs []int) {
		sh := newShaper(r, func(f *Fix, seg int) { kept = append(kept, int(f.DedupKey)); segs = append(segs, seg) })
		for i := range in {
			sh.add(&in[i])
		}
		sh.flush()
		return kept, segs
	}
	kept, segs := run(trackRequest{})
	if len(kept) != 10 || segs[4] != 1 || segs[5] != 2 || segs[9] != 2 {
		t.Errorf("plain: %v %v", kept, segs)
	}
	// Thinned to 30 minutes: the first fix of each half hour from the
	// epoch. Simplified: each segment to its ends (a straight line north).
	if kept, _ := run(trackRequest{interval: 30 * time.Minute}); !slices.Equal(kept, []int{0, 3, 5, 6, 9}) {
		t.Errorf("interval: %v", kept)
	}
	if kept, segs := run(trackRequest{simplify: 50}); !slices.Equal(kept, []int{0, 4, 5, 9}) || !slices.Equal(segs, []int{1, 1, 2, 2}) {
		t.Errorf("simplify: %v %v", kept, segs)
	}
}

func TestTrackBodies(t *testing.T) {
	fixes := testFixes(3, time.Minute)
	fixes[1].Station = "a \"quoted\"\x01 station"
	b := trackBody{req: trackRequest{exact: true, filter: PositionFilter{IMOs: []overwatch.IMO{9074729}}}, one: true,
		tracks: map[overwatch.IMO]*shapedTrack{9074729: {fixes: fixes, segs: []int32{1, 1, 2}}}}
	var tr struct {
		Segments int              `json:"segments"`
		Fixes    []map[string]any `json:"fixes"`
	}
	if err := json.Unmarshal(b.json(), &tr); err != nil || tr.Segments != 2 || len(tr.Fixes) != 3 ||
		tr.Fixes[1]["station"] != "a \"quoted\"\x01 station" || tr.Fixes[0]["course_deg"] != nil || tr.Fixes[0]["heading"] != nil ||
		tr.Fixes[0]["speed_kt"] != 12.3 || tr.Fixes[0]["age_seconds"] != 2.0 {
		t.Errorf("json: %v %s", err, b.json())
	}
	var gj struct {
		Geometry struct {
			Coordinates [][][]float64 `json:"coordinates"`
		} `json:"geometry"`
	}
	// The second segment has one fix: its line repeats it.
	if err := json.Unmarshal(b.geoJSON(), &gj); err != nil || len(gj.Geometry.Coordinates) != 2 || len(gj.Geometry.Coordinates[1]) != 2 {
		t.Errorf("geojson: %v %s", err, b.geoJSON())
	}
	if got := string(appendFixCSV(nil, &fixes[1], 1)); got != "9074729,1,2026-01-01T00:01:00Z,10.001,20,12.3,,,Under way using engine,aishub,\"a \"\"quoted\"\"\x01 station\",2026-01-01T00:01:02Z,2\n" {
		t.Errorf("csv: %q", got)
	}
}

// BenchmarkTrackCSV and BenchmarkTrackJSON: the encoders alone, per fix
// (the store's read is measured by make bench-tracks).
func BenchmarkTrackCSV(b *testing.B) {
	fixes := testFixes(1000, time.Minute)
	buf := make([]byte, 0, 1<<20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = appendFixCSV(buf[:0], &fixes[i%len(fixes)], 1)
	}
}

func BenchmarkTrackJSON(b *testing.B) {
	fixes := testFixes(1000, time.Minute)
	buf := make([]byte, 0, 1<<20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = appendFixJSON(buf[:0], &fixes[i%len(fixes)], 1, true)
	}
}
