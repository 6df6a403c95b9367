package feed

import (
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/testclock"
	"overwatch/write/ais"
)

func TestFilesReplayPlainAndGzip(t *testing.T) {
	lines := captureLines(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.nmea")
	if err := os.WriteFile(plain, []byte(strings.Join(lines[:400], "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "b.nmea.gz")
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	w := gzip.NewWriter(f)
	w.Write([]byte(strings.Join(lines[400:], "\r\n") + "\r\n")) //nolint:errcheck
	w.Close()
	f.Close()

	now := testclock.Now()
	rec := &recorder{}
	var last, total int64
	files := &Files{Paths: []string{plain, gz}, Source: overwatch.SourceSatellite, Sink: rec, Now: func() time.Time { return now },
		Progress: func(done, all int64) { last, total = done, all }}
	stats, err := files.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sameReports(t, rec.snapshot(), expected(t, lines, overwatch.SourceSatellite, now))
	if c := rec.counts(); stats.Lines != uint64(len(lines)) || c.received != uint64(len(lines)) {
		t.Errorf("lines %d, counted %d, want %d", stats.Lines, c.received, len(lines))
	}
	if last != total || total == 0 {
		t.Errorf("progress ended at %d of %d", last, total)
	}
	if _, err := (&Files{Paths: []string{filepath.Join(dir, "missing")}, Sink: rec}).Run(context.Background()); err == nil {
		t.Error("a missing file is not an error")
	}
}

// TestFilesCountTagBlockSums: the Norwegian Coastal Administration's
// capture, whose grouped lines carry the tag-block checksum of the block
// without "g:", is decoded whole, and the sink is told how many lines were
// kept despite their tag block, by reason, and that none was invalid.
func TestFilesCountTagBlockSums(t *testing.T) {
	const path = "../ais/testdata/ais_aisnet_kystverket_Ais1000Lines.nm4"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	now := testclock.Now()
	rec := &recorder{}
	stats, err := (&Files{Paths: []string{path}, Source: overwatch.SourceAISHub, Sink: rec, Now: func() time.Time { return now }}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := expected(t, lines, overwatch.SourceAISHub, now)
	sameReports(t, rec.snapshot(), want)
	static := 0
	for _, r := range want {
		if r.Type == 5 {
			static++
		}
	}
	c := rec.counts()
	if stats.Lines != 1000 || c.received != 1000 || c.invalid != 0 || static != 123 {
		t.Errorf("lines %d, counted %+v, %d type 5 reports", stats.Lines, c, static)
	}
	if got := rec.tagBlockSums; got[ais.TagBlockSumWithoutGroup] != 246 || got[ais.TagBlockSumMismatch]+got[ais.TagBlockSumMissing] != 0 {
		t.Errorf("tag-block checksums counted %v", got)
	}
}
