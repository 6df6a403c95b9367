package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
)

// StaticIntervals is the median interval between a vessel's static
// reports, each report once however many providers relayed it, over the
// period asked; a vessel with a single report has none.
func TestStaticIntervals(t *testing.T) {
	db := chtest.DB(t, "static_intervals")
	fx := chtest.Open(t, chtest.URL(t, "static_intervals"))
	t0 := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	cols := []string{"mmsi", "imo", "source", "ts", "msg_type"}
	var rows [][]any
	// 9400001: every 3 hours, twice by two providers, with an 11-hour
	// silence in the middle (the median stays 3 h).
	for _, h := range []float64{0, 3, 6, 17, 20, 23} {
		at := t0.Add(time.Duration(h * float64(time.Hour)))
		rows = append(rows, []any{uint32(244000001), uint32(9400001), "satellite", at, uint8(5)}, []any{uint32(244000001), uint32(9400001), "spire", at, uint8(5)})
	}
	// 9400002: every 6 minutes; 9400003: once.
	for m := 0; m < 10; m++ {
		rows = append(rows, []any{uint32(244000002), uint32(9400002), "aishub", t0.Add(time.Duration(m*6) * time.Minute), uint8(5)})
	}
	rows = append(rows, []any{uint32(244000003), uint32(9400003), "aishub", t0, uint8(5)})
	fx.Insert(t, "static_reports", cols, rows...)
	got, err := db.StaticIntervals(context.Background(), t0, t0.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := map[overwatch.IMO]time.Duration{9400001: 3 * time.Hour, 9400002: 6 * time.Minute}
	if len(got) != len(want) || got[9400001] != want[9400001] || got[9400002] != want[9400002] {
		t.Errorf("got %v, want %v", got, want)
	}
	// Only the period asked: the first two reports of 9400001.
	got, err = db.StaticIntervals(context.Background(), t0, t0.Add(4*time.Hour))
	if err != nil || got[9400001] != 3*time.Hour || got[9400002] != 6*time.Minute {
		t.Errorf("first 4 hours: %v %v", got, err)
	}
}
