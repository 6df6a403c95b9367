package e2e

import (
	"context"
	"io"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"regexp"
	"testing"
	"time"
)

// The simulator as a network feed: `overwatch simulate --serve` serves raw
// NMEA over TCP, one port per provider, and `overwatch ingest` connects to
// it as to a real feed.
func TestSimulatorServesIngestOverTCP(t *testing.T) {
	chURL := chtest.URL(t, "e2e_simserve")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "OVERWATCH_SPOOL_DIR": t.TempDir(),
		"OVERWATCH_METRICS_ADDR": "127.0.0.1:0", "OVERWATCH_ATTRIBUTION_WINDOW": "1h"}
	getenv := func(k string) string { return env[k] }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	simDone := make(chan error, 1)
	simLog := &apptest.SyncWriter{}
	go func() {
		simDone <- app.Run(ctx, []string{"overwatch", "simulate", "--serve", "127.0.0.1:0", "--days", "1", "--vessels", "40", "--seed", "5"}, apptest.ClockEnv(getenv), io.Discard, simLog)
	}()
	var feeds string
	apptest.Eventually(t, 30*time.Second, "the simulator's feeds", func() bool {
		m := regexp.MustCompile(`OVERWATCH_FEEDS="([^"]+)"`).FindStringSubmatch(simLog.String())
		if m != nil {
			feeds = m[1]
		}
		return m != nil
	})
	ingestEnv := map[string]string{"OVERWATCH_FEEDS": feeds}
	for k, v := range env {
		ingestEnv[k] = v
	}
	ingestCtx, stopIngest := context.WithCancel(context.Background())
	ingestDone := make(chan error, 1)
	go func() {
		ingestDone <- app.Run(ingestCtx, []string{"overwatch", "ingest"}, func(k string) string { return ingestEnv[k] }, io.Discard, io.Discard)
	}()
	select {
	case err := <-simDone:
		if err != nil {
			t.Fatalf("simulate: %v", err)
		}
	case <-time.After(120 * time.Second):
		t.Fatal("the simulator did not finish its day")
	}
	db, err := clickhouse.Open(chURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The simulator has sent its day; ingest writes at least once a second.
	apptest.Eventually(t, 30*time.Second, "the day stored", func() bool {
		n, _ := db.Count(context.Background(), "SELECT count() FROM positions")
		time.Sleep(1500 * time.Millisecond)
		m, _ := db.Count(context.Background(), "SELECT count() FROM positions")
		return n > 1000 && n == m
	})
	stopIngest()
	if err := <-ingestDone; err != nil {
		t.Fatalf("ingest: %v", err)
	}
	vessels, _ := db.Count(context.Background(), "SELECT uniqExact(imo) FROM positions WHERE imo != 0")
	sources, _ := db.Count(context.Background(), "SELECT uniqExact(source) FROM positions")
	if vessels < 30 || sources != 4 {
		t.Errorf("%d vessels from %d providers, want about 40 from 4", vessels, sources)
	}
}
