package history

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	"overwatch/write/ingest"
)

// readAll reads every report of a file, failing the test on an error.
func readAll(t testing.TB, path string, f Format) ([]ingest.Report, Stats) {
	t.Helper()
	r, err := Open(path, f, "test")
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	defer r.Close()
	reps, err := drain(r)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return reps, r.Stats()
}

// drain reads a Reader to its end; the error is nil at io.EOF.
func drain(r *Reader) ([]ingest.Report, error) {
	var reps []ingest.Report
	for {
		rep, err := r.Next()
		if errors.Is(err, io.EOF) {
			return reps, nil
		}
		if err != nil {
			return reps, err
		}
		reps = append(reps, rep)
	}
}

// want is what a sample file must give.
type want struct {
	format              Format
	rows, kept, reports uint64
	skipped, quirks     map[Reason]uint64
	mmsis               int
	first, last         string // RFC 3339
	types               map[uint8]int
}

// checkStats compares a file's counts with w.
func checkStats(t *testing.T, s Stats, reps []ingest.Report, w want) {
	t.Helper()
	if s.Format != w.format {
		t.Errorf("format %s, want %s", s.Format, w.format)
	}
	if s.Rows != w.rows || s.Kept != w.kept || s.Reports != w.reports || uint64(len(reps)) != w.reports {
		t.Errorf("rows %d kept %d reports %d (returned %d), want %d %d %d", s.Rows, s.Kept, s.Reports, len(reps), w.rows, w.kept, w.reports)
	}
	if w.skipped == nil {
		w.skipped = map[Reason]uint64{}
	}
	if w.quirks == nil {
		w.quirks = map[Reason]uint64{}
	}
	if !maps.Equal(s.Skipped, w.skipped) {
		t.Errorf("skipped %v\n want %v", s.Skipped, w.skipped)
	}
	if !maps.Equal(s.Quirks, w.quirks) {
		t.Errorf("quirks %v\n want %v", s.Quirks, w.quirks)
	}
	if s.MMSIs != w.mmsis {
		t.Errorf("MMSIs %d, want %d", s.MMSIs, w.mmsis)
	}
	if got := s.First.Format(time.RFC3339); got != w.first {
		t.Errorf("first %s, want %s", got, w.first)
	}
	if got := s.Last.Format(time.RFC3339); got != w.last {
		t.Errorf("last %s, want %s", got, w.last)
	}
	if s.Rows != s.Kept+s.SkippedTotal() {
		t.Errorf("rows %d != kept %d + skipped %d", s.Rows, s.Kept, s.SkippedTotal())
	}
	types := map[uint8]int{}
	for _, r := range reps {
		types[r.Type]++
	}
	if w.types != nil && !maps.Equal(types, w.types) {
		t.Errorf("types %v, want %v", types, w.types)
	}
	checkReports(t, reps)
}

// checkReports checks what every report must hold.
func checkReports(t testing.TB, reps []ingest.Report) {
	t.Helper()
	for i, r := range reps {
		if err := reportProblem(&r); err != "" {
			t.Fatalf("report %d %+v: %s", i, r, err)
		}
	}
}

// reportProblem says what is wrong with a report, "" if nothing.
func reportProblem(r *ingest.Report) string {
	switch {
	case r.MMSI == 0 || r.MMSI > 999_999_999:
		return "invalid MMSI"
	case r.TS.IsZero() || !r.TS.Equal(r.ReceivedAt) || r.TS.Nanosecond() != 0 || r.TS.Location() != time.UTC:
		return "bad TS or ReceivedAt"
	case r.Has == 0:
		return "empty report"
	case r.Has&ingest.HasPosition != 0 && (r.Lat < -90 || r.Lat > 90 || r.Lon < -180 || r.Lon > 180):
		return "position out of range"
	case r.Has&ingest.HasSOG != 0 && (r.SOG < 0 || r.SOG > 102.2):
		return "SOG out of range"
	case r.Has&ingest.HasCOG != 0 && (r.COG < 0 || r.COG >= 360):
		return "COG out of range"
	case r.Has&ingest.HasHeading != 0 && r.Heading > 359:
		return "heading out of range"
	case r.Has&ingest.HasNavStatus != 0 && r.NavStatus > 14:
		return "nav status out of range"
	case r.Has&ingest.HasIMO != 0 && !r.IMO.Valid():
		return "invalid IMO"
	case r.Has&ingest.HasIMO == 0 && r.IMO != 0:
		return "IMO without HasIMO"
	case r.Has&ingest.HasShipType != 0 && (r.ShipType == 0 || r.ShipType > 99):
		return "ship type out of range"
	}
	return ""
}

// find returns the reports of an MMSI.
func find(reps []ingest.Report, mmsi uint32) []ingest.Report {
	var out []ingest.Report
	for _, r := range reps {
		if r.MMSI == mmsi {
			out = append(out, r)
		}
	}
	return out
}

// ts parses an RFC 3339 time for expectations.
func ts(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v.UTC()
}

// readSample returns the bytes of a sample, decompressed.
func readSample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(sample(name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// sample is the path of a file in testdata.
func sample(name string) string { return "testdata/" + name }
