package e2e

import (
	"context"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/testclock"
	"overwatch/write/ais"
	"overwatch/write/feed"
	"overwatch/write/ingest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A replay through the real pipeline while ClickHouse is killed (SIGKILL,
// so an insert may be cut in the middle) and restarted: every report is
// stored exactly once.
func TestReplaySurvivesClickHouseRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a ClickHouse server")
	}
	private := chtest.StartPrivate(t)
	chURL := private.URL + "/ow_fault"
	base := testclock.Now().UTC().Truncate(time.Second).Add(-30 * 24 * time.Hour)
	_, lines := stampedCapture(t, base)
	// Ten copies, each shifted by a day: 850,000 lines, every report unique.
	var all []string
	for c := 0; c < 10; c++ {
		for i, l := range lines {
			_, sentence, _ := strings.Cut(l[1:], `\`)
			all = append(all, ais.Stamp(sentence, base.Add(time.Duration(c)*24*time.Hour+time.Duration(i)*time.Second), ""))
		}
	}
	path := filepath.Join(t.TempDir(), "ten-days.nmea")
	if err := os.WriteFile(path, []byte(strings.Join(all, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var positions, statics uint64
	dec := ais.NewDecoder(ais.Options{})
	for _, l := range all {
		if m, ok := dec.Decode([]byte(l)); ok {
			if r, ok := feed.FromAIS(&m, overwatch.SourceSpire, testclock.Now()); ok {
				if r.Has&ingest.HasPosition != 0 {
					positions++
				}
				if r.Type == 5 || r.Type == 19 || r.Type == 24 {
					statics++
				}
			}
		}
	}

	env := map[string]string{"CLICKHOUSE_URL": chURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_ATTRIBUTION_WINDOW": "1h"}
	done := make(chan error, 1)
	var out strings.Builder
	go func() {
		done <- app.Run(context.Background(), []string{"overwatch", "replay", "--source", "spire", path}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, os.Stderr)
	}()

	db, err := clickhouse.Open(chURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(60 * time.Second)
	for {
		n, err := db.Count(context.Background(), "SELECT count() FROM positions")
		if err == nil && n >= 100000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replay did not get going: %d positions, %v", n, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	private.Stop(t, true) // mid-replay, mid-insert perhaps
	time.Sleep(2 * time.Second)
	private.Start(t)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
	case <-time.After(5 * time.Minute):
		t.Fatal("the replay did not finish")
	}
	t.Log(strings.TrimSpace(out.String()))
	if !strings.Contains(out.String(), " 0 still spooled") || strings.Contains(out.String(), "(0 of them spooled") {
		t.Fatalf("the kill did not hit the replay, or batches are left in the spool: %s", out.String())
	}
	ctx := context.Background()
	// Each report once: positions claimed later by a static report are
	// copied under its IMO with the same dedup key, so reports are counted
	// by key, and rows by (IMO, key).
	got, err := db.Count(ctx, "SELECT uniqExact(dedup_key) FROM positions")
	if err != nil {
		t.Fatal(err)
	}
	if got != positions {
		t.Fatalf("reports stored: %d, want exactly %d", got, positions)
	}
	keyed, err := db.Count(ctx, "SELECT uniqExact(imo, dedup_key) FROM positions")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Count(ctx, "SELECT count() FROM positions FINAL"); got != keyed {
		t.Fatalf("positions stored (FINAL): %d, want exactly %d (one per IMO and report)", got, keyed)
	}
	if got, _ := db.Count(ctx, "SELECT count() FROM static_reports FINAL"); got != statics {
		t.Fatalf("static reports stored (FINAL): %d, want exactly %d", got, statics)
	}
	// After merging, no duplicate is left even physically.
	if err := db.Exec(ctx, "OPTIMIZE TABLE positions FINAL"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Count(ctx, "SELECT count() FROM positions"); got != keyed {
		t.Fatalf("positions after merge: %d, want %d", got, keyed)
	}
	t.Logf("%d positions and %d static reports stored exactly once across a ClickHouse kill and restart", positions, statics)
}
