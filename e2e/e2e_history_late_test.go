package e2e

import (
	"bufio"
	"context"
	"io"
	"os"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// splitCapture writes the messages of a simulated capture whose tag-block
// time is before cut to old, the others to recent.
func splitCapture(t *testing.T, path string, cut time.Time) (old, recent string) {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	dir := t.TempDir()
	old, recent = filepath.Join(dir, "old.nmea"), filepath.Join(dir, "recent.nmea")
	fo, err := os.Create(old)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := os.Create(recent)
	if err != nil {
		t.Fatal(err)
	}
	wo, wr := bufio.NewWriter(fo), bufio.NewWriter(fr)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := [2]int{}
	w, k := wo, 0
	for sc.Scan() {
		line := sc.Text()
		// The later sentences of a message carry only "g:": they go with
		// the first.
		if i := strings.Index(line, "c:"); i >= 0 {
			j := i + 2
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			sec, _ := strconv.ParseInt(line[i+2:j], 10, 64)
			w, k = wo, 0
			if !time.Unix(sec, 0).Before(cut) {
				w, k = wr, 1
			}
		}
		w.WriteString(line + "\r\n") //nolint:errcheck // Flush reports it
		n[k]++
	}
	for _, f := range []struct {
		w *bufio.Writer
		f *os.File
	}{{wo, fo}, {wr, fr}} {
		if err := f.w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.f.Close()
	}
	if n[0] == 0 || n[1] == 0 {
		t.Fatalf("split %v", n)
	}
	return old, recent
}

// TestImportHistoryLateIsDerived: history older than the data already
// derived is imported after the jobs ran; the next `jobs --once` derives
// it. A simulated capture (with its ground truth) is split in two: the
// last three days are imported and derived first, then the week before;
// the port calls of the whole span must then match the truth, and the
// congestion history must cover the older days.
func TestImportHistoryLateIsDerived(t *testing.T) {
	t.Parallel() // its own databases
	const vessels, days = 120, 10
	start := time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)
	end := start.Add(days * 24 * time.Hour)
	name := "e2e_history_late"
	r := &apptest.EvalRun{ChURL: chtest.URL(t, name), PgURL: pgtest.URL(t, name), Start: start, End: end}
	r.TruthPath = filepath.Join(t.TempDir(), "truth.jsonl")
	r.Env = map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(),
		"OVERWATCH_LOG_LEVEL": "warn", "OVERWATCH_ATTRIBUTION_WINDOW": "2h"}
	capture := filepath.Join(t.TempDir(), "fleet.nmea")
	r.Command(t, io.Discard, "simulate", "--seed", "11", "--vessels", strconv.Itoa(vessels), "--days", strconv.Itoa(days),
		"--start", start.Format(time.RFC3339), "--truth", r.TruthPath, "--out", capture)
	cut := end.Add(-3 * 24 * time.Hour)
	old, recent := splitCapture(t, capture, cut)

	r.Command(t, io.Discard, "import", "history", "--format", "nmea", recent)
	r.Command(t, io.Discard, "jobs", "--once")
	ctx := context.Background()
	ch, err := clickhouse.Open(r.ChURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	first, err := ch.Calls(ctx, start, end.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range first {
		if c.Departure != nil && c.Departure.Before(cut.Add(-24*time.Hour)) {
			t.Fatalf("a call before the recent data: %+v", c)
		}
	}

	truth := readTruthCalls(t, r.TruthPath)
	before := evaluateCalls(truth, first, start.Add(6*time.Hour), end.Add(-6*time.Hour))
	out := &apptest.SyncWriter{}
	r.Command(t, out, "import", "history", "--format", "nmea", old)
	t.Log(out)
	r.Command(t, io.Discard, "jobs", "--once")
	calls, err := ch.Calls(ctx, start, end.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	e := evaluateCalls(truth, calls, start.Add(6*time.Hour), end.Add(-6*time.Hour))
	t.Logf("port calls: %d true; before the late import %d detected, recall %.3f; after it %d detected, precision %.3f recall %.3f",
		e.truth, before.detected, before.recall, e.detected, e.precision, e.recall)
	if before.recall > 0.6 {
		t.Errorf("recall %.3f before the older history was imported: the split does not test late history", before.recall)
	}
	if e.truth < 30 || e.precision < 0.9 || e.recall < 0.9 {
		t.Errorf("port calls of the imported history: precision %.3f, recall %.3f over %d true calls; want both ≥ 0.9", e.precision, e.recall, e.truth)
	}
	fx := chtest.Open(t, r.ChURL)
	var congestionDays, emissionDays uint64
	if err := fx.QueryRow(t, "SELECT uniqExact(day) FROM derivation_days WHERE name = 'congestion_daily' AND day < ?", cut.Add(-3*24*time.Hour)).Scan(&congestionDays); err != nil {
		t.Fatal(err)
	}
	if err := fx.QueryRow(t, "SELECT uniqExact(day) FROM derivation_days WHERE name = 'voyage_emissions' AND day < ?", cut.Add(-3*24*time.Hour)).Scan(&emissionDays); err != nil {
		t.Fatal(err)
	}
	if congestionDays < 4 || emissionDays < 4 {
		t.Errorf("days derived before the first import's window: congestion %d, emissions %d", congestionDays, emissionDays)
	}
}
