package clickhouse_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/predict"
	"overwatch/read"
	"overwatch/testclock"
)

// One vessel's newest prediction is a lookup in memory: it equals the
// store's read, and a new refresh is served within a few seconds, written
// by another process (another DB on the same database) or through the
// same DB.
func TestNewestPredictionLookup(t *testing.T) {
	ctx := context.Background()
	url := chtest.URL(t, "predictions_newest")
	jobsDB, err := clickhouse.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer jobsDB.Close()
	if _, err := jobsDB.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	serveDB, err := clickhouse.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer serveDB.Close()
	now := testclock.Now().UTC().Truncate(time.Second)
	mk := func(imo overwatch.IMO, port string, eta time.Time) predict.Prediction {
		p := predict.Prediction{IMO: imo, Category: "cargo", AsOf: now.Add(-time.Hour),
			Next: []predict.NextPort{{Port: port, Probability: 0.7, ETA: eta, ETALow: eta.Add(-time.Hour), ETAHigh: eta.Add(time.Hour), DistanceNM: 300}}}
		p.Evidence.Position = [2]float64{45, -20}
		p.Evidence.LastPort = "santos"
		return p
	}
	next := func(db *clickhouse.DB, imo overwatch.IMO) string {
		t.Helper()
		got, err := db.Predictions(ctx, read.PredictionFilter{IMO: imo, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 {
			return ""
		}
		return got[0].Next[0].Port
	}

	if got := next(serveDB, 9074729); got != "" {
		t.Errorf("an empty store: %q", got)
	}
	eta := now.Add(48 * time.Hour)
	if err := jobsDB.WritePredictions(ctx, now.Add(-20*time.Minute), []predict.Prediction{mk(9074729, "rotterdam", eta), mk(9187629, "hamburg", eta)}); err != nil {
		t.Fatal(err)
	}
	// Another process's refresh: served once the newest time is asked again.
	deadline := time.Now().Add(10 * time.Second)
	for next(serveDB, 9074729) != "rotterdam" {
		if time.Now().After(deadline) {
			t.Fatal("another process's refresh not served within 10 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	lookup, err := serveDB.Predictions(ctx, read.PredictionFilter{IMO: 9187629})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := serveDB.Predictions(ctx, read.PredictionFilter{Category: "cargo"})
	if err != nil {
		t.Fatal(err)
	}
	if len(lookup) != 1 || len(stored) != 2 || !reflect.DeepEqual(lookup[0], stored[1]) {
		t.Errorf("the lookup %+v, the store's read %+v", lookup, stored)
	}
	// A refresh through the same DB; a vessel it no longer predicts (in
	// port) is gone.
	if err := serveDB.WritePredictions(ctx, now.Add(-10*time.Minute), []predict.Prediction{mk(9074729, "antwerp", eta)}); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for next(serveDB, 9074729) != "antwerp" || next(serveDB, 9187629) != "" {
		if time.Now().After(deadline) {
			t.Fatalf("a refresh through the same DB not served within 10 s: %q, %q", next(serveDB, 9074729), next(serveDB, 9187629))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := next(serveDB, 9319466); got != "" {
		t.Errorf("a vessel never predicted: %q", got)
	}
}
