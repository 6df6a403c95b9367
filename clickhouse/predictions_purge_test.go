package clickhouse_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"overwatch/clickhouse/chtest"
	"overwatch/maritime/predict"
	"overwatch/testclock"
)

// The retention of the predictions table against the local server: the
// refreshes before the cutoff deleted (a mutation, applied in the
// background, so polled), the newest kept even when it is before the
// cutoff. Cluster mode on ClickHouse 18.x runs no mutations (its
// replicas crashed on them, see cluster.go), so there the retention keeps
// every refresh and the test has nothing to check.
func TestPredictionsPurge(t *testing.T) {
	ctx := context.Background()
	db := chtest.DB(t, "predictions_purge")
	if chtest.Cluster() != "" {
		var version string
		if err := chtest.Open(t, chtest.URL(t, "predictions_purge")).QueryRow(t, "SELECT version()").Scan(&version); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(version, "18.") {
			t.Skipf("cluster mode on ClickHouse %s runs no mutations: the purge is not run there", version)
		}
	}
	now := testclock.Now().UTC().Truncate(time.Second)
	refreshes := []time.Time{now.Add(-40 * time.Hour), now.Add(-20 * time.Hour), now}
	for _, at := range refreshes {
		p := predict.Prediction{IMO: 9074729, Category: "cargo", AsOf: at.Add(-time.Minute),
			Next: []predict.NextPort{{Port: "santos", Probability: 0.8, ETA: at.Add(time.Hour), ETALow: at, ETAHigh: at.Add(2 * time.Hour)}}}
		if err := db.WritePredictions(ctx, at, []predict.Prediction{p}); err != nil {
			t.Fatal(err)
		}
	}
	oldest := func() time.Time {
		t.Helper()
		o, err := db.OldestPrediction(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	waitOldest := func(want time.Time) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for got := oldest(); !got.Equal(want); got = oldest() {
			if time.Now().After(deadline) {
				t.Fatalf("oldest refresh %s, want %s", got, want)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	if o := oldest(); !o.Equal(refreshes[0]) {
		t.Fatalf("oldest refresh %s, want %s", o, refreshes[0])
	}
	if err := db.PurgePredictions(ctx, now.Add(-24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	waitOldest(refreshes[1])
	// a cutoff after the newest refresh deletes all but the newest
	if err := db.PurgePredictions(ctx, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	waitOldest(now)
	newest, preds, _, err := db.PredictionRefreshes(ctx)
	if err != nil || !newest.Equal(now) || len(preds) != 1 {
		t.Fatalf("newest refresh %s with %d predictions (%v), want %s with 1", newest, len(preds), err, now)
	}
}
