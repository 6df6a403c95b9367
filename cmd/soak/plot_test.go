package main

import (
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A CSV written by the recorder reads back the same, and its plot is
// well-formed SVG with one polyline per series and the run's figures in
// the title.
func TestRecorderAndPlot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "soak.csv")
	rec, err := newRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []sample{
		{Elapsed: 10 * time.Second, RSSMB: 120.5, HeapMB: 40.25, Goroutines: 61, Lookups: 200, Errors: 1, P50ms: 0.8, P99ms: 3.5},
		{Elapsed: 20 * time.Second, RSSMB: 122, HeapMB: 41, Goroutines: 63, Lookups: 199, P50ms: 0.75, P99ms: 2.25},
		{Elapsed: 30 * time.Second, RSSMB: 121, HeapMB: 39.5, Goroutines: 62, Lookups: 201, P50ms: 0.7, P99ms: 12},
	}
	for _, s := range want {
		if err := rec.add(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.close(); err != nil {
		t.Fatal(err)
	}
	got, err := readCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d samples, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sample %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if err := renderFile(path); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(filepath.Dir(path), "soak.svg"))
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(string(svg)))
	polylines := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("the SVG is not well-formed XML: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			polylines++
			for _, a := range se.Attr {
				if a.Name.Local == "points" && len(strings.Fields(a.Value)) != len(want) {
					t.Errorf("a polyline has %d points, want %d", len(strings.Fields(a.Value)), len(want))
				}
			}
		}
	}
	if polylines != 5 {
		t.Errorf("%d polylines, want 5 (RSS, heap, goroutines, p50, p99)", polylines)
	}
	if !strings.Contains(string(svg), "600 public lookups (1 not 200)") {
		t.Errorf("the title does not give the lookups: %.300s", svg)
	}
	if s := summarize(got, 0); !strings.Contains(s, "worst interval p99 12.00 ms") {
		t.Errorf("summary: %s", s)
	}
}

// A file that is not a soak CSV is refused with a clear error.
func TestReadCSVRejectsOtherFiles(t *testing.T) {
	for _, body := range []string{"", "a,b\n1,2\n", strings.Join(csvHeader, ",") + "\n1,2,3\n", strings.Join(csvHeader, ",") + "\n1,x,3,4,5,6,7,8\n"} {
		if _, err := parseCSV(strings.NewReader(body)); err == nil {
			t.Errorf("%q: no error", body)
		}
	}
}

// Percentiles are nearest-rank; tick steps are 1, 2 or 5 times a power of ten.
func TestPercentileAndTicks(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	if p := percentile(d, 0.5); p != 50 {
		t.Errorf("p50 = %v, want 50", p)
	}
	if p := percentile(d, 0.99); p != 99 {
		t.Errorf("p99 = %v, want 99", p)
	}
	if p := percentile(nil, 0.99); p != 0 {
		t.Errorf("p99 of nothing = %v", p)
	}
	for max, want := range map[float64]float64{100: 20, 7: 2, 0.3: 0.1, 1234: 500, 0: 1} {
		if got := niceStep(max); got != want {
			t.Errorf("niceStep(%v) = %v, want %v", max, got, want)
		}
	}
}

// The slope per hour is the least-squares line's, as a share of the mean:
// flat series give zero, a series growing 2 MB an hour around 100 MB 2%.
func TestSlopePerHour(t *testing.T) {
	var flat, growing []sample
	for i := 0; i < 13; i++ {
		at := time.Duration(i) * 10 * time.Minute
		flat = append(flat, sample{Elapsed: at, RSSMB: 100 + float64(i%2)})
		growing = append(growing, sample{Elapsed: at, RSSMB: 98 + 2*at.Hours()})
	}
	rss := func(x sample) float64 { return x.RSSMB }
	if got := slopePerHour(growing, rss); math.Abs(got-2) > 1e-9 {
		t.Errorf("growing: %v %%/h, want 2", got)
	}
	if got := slopePerHour(flat, rss); math.Abs(got) > 0.1 {
		t.Errorf("flat: %v %%/h", got)
	}
}

// The summary's slopes start after the warm-up it is given: goroutines
// that grow while the jobs start and then hold show no slope after.
func TestSummaryAfterWarmup(t *testing.T) {
	var s []sample
	for i := 1; i <= 60; i++ {
		g := 30.0 + float64(min(i, 30)) // grows for 30 samples, then holds
		s = append(s, sample{Elapsed: time.Duration(i) * time.Minute, RSSMB: 100, Goroutines: g})
	}
	if got := summarize(s, 30*time.Minute); !strings.Contains(got, "from 31m0s on, per hour (least squares, share of the mean): RSS +0.00%, goroutines +0.00%") {
		t.Errorf("after the warm-up: %s", got)
	}
	if got := summarize(s, 0); strings.Contains(got, "goroutines +0.00%") {
		t.Errorf("from the first tenth the growth shows: %s", got)
	}
}
