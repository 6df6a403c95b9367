package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/predict"
	"overwatch/read"
	"overwatch/testclock"
)

// The predictions table and the predictor's declarations, against the
// local server: two refreshes written, the newest read back through every
// filter, the one before it, and each vessel's newest declaration before
// an instant.
func TestPredictionsStore(t *testing.T) {
	ctx := context.Background()
	db := chtest.DB(t, "predictions")
	fx := chtest.Open(t, chtest.URL(t, "predictions"))
	now := testclock.Now().UTC().Truncate(time.Second)
	mk := func(imo overwatch.IMO, cat, port string, lat, lon float64, eta time.Time) predict.Prediction {
		p := predict.Prediction{IMO: imo, Category: cat, AsOf: now.Add(-time.Hour),
			Next: []predict.NextPort{{Port: port, Probability: 0.8, ETA: eta, ETALow: eta.Add(-time.Hour), ETAHigh: eta.Add(2 * time.Hour), DistanceNM: 120}}}
		p.Evidence.Position = [2]float64{lat, lon}
		p.Evidence.LastPort = "rotterdam"
		return p
	}
	eta := now.Add(24 * time.Hour)
	first := now.Add(-10 * time.Minute)
	if err := db.WritePredictions(ctx, first, []predict.Prediction{mk(9074729, "cargo", "santos", -20, -40, eta)}); err != nil {
		t.Fatal(err)
	}
	newest := []predict.Prediction{
		mk(9074729, "cargo", "santos", -20, -40, eta.Add(8*time.Hour)),
		mk(9187629, "tanker", "rotterdam", 51, 2, eta),
		mk(9319466, "cargo", "rotterdam", 50, -5, eta),
	}
	if err := db.WritePredictions(ctx, now, newest); err != nil {
		t.Fatal(err)
	}
	count := func(f read.PredictionFilter) []overwatch.IMO {
		t.Helper()
		got, err := db.Predictions(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []overwatch.IMO
		for _, p := range got {
			out = append(out, p.IMO)
		}
		return out
	}
	for name, c := range map[string]struct {
		f    read.PredictionFilter
		want int
	}{
		"all":      {read.PredictionFilter{}, 3},
		"imo":      {read.PredictionFilter{IMO: 9187629}, 1},
		"category": {read.PredictionFilter{Category: "cargo"}, 2},
		"port":     {read.PredictionFilter{Port: "rotterdam"}, 2},
		"bbox":     {read.PredictionFilter{BBox: &[4]float64{0, 45, 10, 55}}, 1},
		"cursor":   {read.PredictionFilter{Cursor: 9187629}, 1},
		"limit":    {read.PredictionFilter{Limit: 2}, 2},
		"before":   {read.PredictionFilter{Before: now}, 1},
	} {
		if got := count(c.f); len(got) != c.want {
			t.Errorf("%s: %v, want %d", name, got, c.want)
		}
	}
	got, err := db.Predictions(ctx, read.PredictionFilter{IMO: 9074729})
	if err != nil || len(got) != 1 || !got[0].Next[0].ETA.Equal(eta.Add(8*time.Hour)) || got[0].Evidence.LastPort != "rotterdam" || got[0].Category != "cargo" {
		t.Fatalf("read back: %+v %v", got, err)
	}
	at, cur, prev, err := db.PredictionRefreshes(ctx)
	if err != nil || !at.Equal(now) || len(cur) != 3 || len(prev) != 1 || !prev[0].Next[0].ETA.Equal(eta) {
		t.Fatalf("refreshes: %s %d %d %v", at, len(cur), len(prev), err)
	}

	cols := []string{"mmsi", "imo", "source", "ts", "msg_type", "destination", "eta", "received_at", "dedup_key"}
	declared := now.Add(3 * 24 * time.Hour)
	fx.Insert(t, "static_reports", cols,
		[]any{uint32(244000001), uint32(9074729), "aishub", now.Add(-3 * time.Hour), uint8(5), "BRSSZ", &declared, now, uint64(1)},
		[]any{uint32(244000001), uint32(9074729), "aishub", now.Add(-2 * time.Hour), uint8(5), "FOR ORDERS", nil, now, uint64(2)},
		[]any{uint32(244000001), uint32(9074729), "aishub", now.Add(time.Hour), uint8(5), "NLRTM", nil, now, uint64(3)},
		[]any{uint32(244000002), uint32(9187629), "aishub", now.Add(-time.Hour), uint8(5), "", nil, now, uint64(4)})
	decl, err := db.Declarations(ctx, now.Add(-24*time.Hour), now, nil)
	if err != nil || len(decl) != 1 || decl[9074729].Destination != "FOR ORDERS" || decl[9074729].ETA != nil {
		t.Fatalf("declarations as of now: %+v %v", decl, err)
	}
	decl, err = db.Declarations(ctx, now.Add(-24*time.Hour), now.Add(-150*time.Minute), []overwatch.IMO{9074729})
	if err != nil || decl[9074729].Destination != "BRSSZ" || decl[9074729].ETA == nil || !decl[9074729].ETA.Equal(declared) {
		t.Fatalf("declarations as of 2.5 h ago: %+v %v", decl, err)
	}
}
