package read

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
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

// encodeFixes writes the fixes, with their segments, as the stream does.
func encodeFixes(enc trackEncoder, fixes []Fix, segs []int) []byte {
	buf := enc.begin(nil)
	for i := range fixes {
		buf = enc.fix(buf, &fixes[i], segs[i])
	}
	return enc.end(buf)
}

func TestTrackBodies(t *testing.T) {
	fixes := testFixes(3, time.Minute)
	fixes[1].Station = "a \"quoted\"\x01 station"
	segs := []int{1, 1, 2}
	r := trackRequest{exact: true, filter: PositionFilter{IMOs: []overwatch.IMO{9074729}}}
	body := encodeFixes(newJSONTrackEncoder(r, true, false), fixes, segs)
	var tr struct {
		Segments int              `json:"segments"`
		Fixes    []map[string]any `json:"fixes"`
	}
	if err := json.Unmarshal(body, &tr); err != nil || tr.Segments != 2 || len(tr.Fixes) != 3 ||
		tr.Fixes[1]["station"] != "a \"quoted\"\x01 station" || tr.Fixes[0]["course_deg"] != nil || tr.Fixes[0]["heading"] != nil ||
		tr.Fixes[0]["speed_kt"] != 12.3 || tr.Fixes[0]["age_seconds"] != 2.0 {
		t.Errorf("json: %v %s", err, body)
	}
	// The second segment has one fix: its line repeats it. The bytes are
	// those the whole-body encoder wrote before the answers were streamed.
	header := `"imo_number":"9074729","start":"0001-01-01T00:00:00Z","end":"0001-01-01T00:00:00Z","gap_hours":` +
		strconv.FormatFloat(TrackGap.Hours(), 'f', -1, 64)
	want := `{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[20,10],[20,10.001]],[[20,10.002],[20,10.002]]]},` +
		`"properties":{` + header + `,"segments":2,"fixes":3,"timestamps":[["2026-01-01T00:00:00Z","2026-01-01T00:01:00Z"],["2026-01-01T00:02:00Z","2026-01-01T00:02:00Z"]]}}`
	if got := string(encodeFixes(newJSONTrackEncoder(r, true, true), fixes, segs)); got != want {
		t.Errorf("geojson:\n got %s\nwant %s", got, want)
	}
	// Several vessels asked, the first and last without fixes; no exact
	// coordinates.
	r.exact = false
	r.filter.IMOs = []overwatch.IMO{9999999, 9074729, 1000007}
	empty := func(imo string) string {
		return `{"type":"Feature","geometry":null,"properties":{` + strings.Replace(header, "9074729", imo, 1) + `,"segments":0,"fixes":0,"timestamps":[]}}`
	}
	want = `{"type":"FeatureCollection","features":[` + empty("1000007") + `,{"type":"Feature","geometry":null,"properties":{` + header +
		`,"segments":2,"fixes":3,"timestamps":[["2026-01-01T00:00:00Z","2026-01-01T00:01:00Z"],["2026-01-01T00:02:00Z","2026-01-01T00:02:00Z"]]}},` +
		empty("9999999") + `]}`
	if got := string(encodeFixes(newJSONTrackEncoder(r, false, true), fixes, segs)); got != want {
		t.Errorf("geojson collection:\n got %s\nwant %s", got, want)
	}
	var all struct {
		Tracks []struct {
			IMO      string           `json:"imo_number"`
			Segments int              `json:"segments"`
			Fixes    []map[string]any `json:"fixes"`
		} `json:"tracks"`
	}
	body = encodeFixes(newJSONTrackEncoder(r, false, false), fixes, segs)
	if err := json.Unmarshal(body, &all); err != nil || len(all.Tracks) != 3 || all.Tracks[0].IMO != "1000007" || len(all.Tracks[0].Fixes) != 0 ||
		all.Tracks[1].Segments != 2 || len(all.Tracks[1].Fixes) != 3 || all.Tracks[1].Fixes[0]["latitude"] != nil || all.Tracks[2].IMO != "9999999" {
		t.Errorf("json tracks: %v %s", err, body)
	}
	if got := string(appendFixCSV(nil, &fixes[1], 1)); got != "9074729,1,2026-01-01T00:01:00Z,10.001,20,12.3,,,Under way using engine,aishub,\"a \"\"quoted\"\"\x01 station\",2026-01-01T00:01:02Z,2\n" {
		t.Errorf("csv: %q", got)
	}
}

func TestAppendRFC3339(t *testing.T) {
	for _, v := range []time.Time{time.Date(2026, 1, 2, 3, 4, 5, 999999999, time.UTC), time.Unix(0, 0), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 6, 30, 23, 30, 0, 0, time.FixedZone("x", -5*3600))} {
		for i := int64(0); i < 1000; i++ {
			tt := v.Add(time.Duration(i*i*7919) * time.Second)
			if got, want := string(appendRFC3339(nil, tt)), tt.UTC().Format(time.RFC3339); got != want {
				t.Fatalf("%v: %s, want %s", tt, got, want)
			}
		}
	}
}

// TestAppendString: every string, plain ASCII (written as is) or not
// (escaped rune by rune), is the JSON string of its valid UTF-8 form, and
// plain ASCII is exactly what encoding/json writes without HTML escaping
// (the tracks' bodies have always left <, > and & as they are).
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "aisstream", "rSTATION1", "Under way using engine", "a\"b", `back\slash`,
		"tab\there", "\x7f", "Bodø", "日本", "bad\xffbyte", "\x00", "</script>"} {
		got := appendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q: %s is not a JSON string: %v", s, got, err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); back != want {
			t.Errorf("%q: %s reads back as %q, want %q", s, got, back, want)
		}
		if plainASCII(s) {
			var enc strings.Builder
			e := json.NewEncoder(&enc)
			e.SetEscapeHTML(false)
			if err := e.Encode(s); err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimSuffix(enc.String(), "\n"); string(got) != want {
				t.Errorf("%q: %s, encoding/json writes %s", s, got, want)
			}
		}
	}
}

func TestAppendRounded(t *testing.T) {
	vals := []float64{0, -0.0, 1e-9, -1e-9, -0.000004, 0.5, -0.5, 1.05, 2.675, 179.999995, -179.999995, 89.123456, 1e14, -1e14 - 0.5, 1e16, math.Inf(1),
		math.Inf(-1), 12.3, 87.6, 0.1, 0.7, 360}
	x := uint64(88172645463325252)
	for i := 0; i < 200000; i++ { // xorshift: coordinates, speeds and some wide values
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		f := float64(x>>11) / (1 << 53)
		vals = append(vals, (f-0.5)*360, f*40, (f-0.5)*math.Pow(10, float64(i%17)))
	}
	for _, v := range vals {
		for _, d := range []int{1, 5} {
			p := math.Pow(10, float64(d))
			if got, want := string(appendRounded(nil, v, d)), strconv.FormatFloat(math.Round(v*p)/p, 'f', -1, 64); got != want {
				t.Fatalf("%v to %d digits: %s, want %s", v, d, got, want)
			}
		}
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

func TestTrackSpanBoundsVesselDays(t *testing.T) {
	end := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	imos := func(n int) []overwatch.IMO {
		out := make([]overwatch.IMO, n)
		for i := range out {
			out[i] = overwatch.IMO(9000000 + i)
		}
		return out
	}
	for _, c := range []struct {
		vessels int
		days    float64
		ok      bool
	}{{1, 366, true}, {1, 366.01, false}, {100, 36.6, true}, {100, 36.7, false}, {10, 366.01, false}, {10, 366.5, false}, {10, 30, true}, {2, 366, true}} {
		f := PositionFilter{IMOs: imos(c.vessels), End: end, Start: end.Add(-time.Duration(c.days * 24 * float64(time.Hour)))}
		err := checkTrackSpan(f)
		if (err == nil) != c.ok {
			t.Errorf("%d vessels over %v days: %v, want ok %v", c.vessels, c.days, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "start must be at most") {
			t.Errorf("%d vessels over %v days: %v", c.vessels, c.days, err)
		}
	}
}
