package clickhouse_test

import (
	"context"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/read"
	"overwatch/testclock"
)

// TestFixesReadRate: the read of one vessel's fixes, the query behind the
// tracks, in time order and at what rate (OVERWATCH_TRACK_BENCH_FIXES
// fixes; 5,000 by default).
func TestFixesReadRate(t *testing.T) {
	n := 5000
	if v := os.Getenv("OVERWATCH_TRACK_BENCH_FIXES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	db, imo, start, end := writeYear(t, n)
	t0 := time.Now()
	it, err := db.Fixes(context.Background(), read.PositionFilter{IMOs: []overwatch.IMO{imo}, Start: start.Add(-time.Second), End: end})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var f read.Fix
	got := 0
	var prev time.Time
	for it.Next(&f) {
		if f.TS.Before(prev) || f.IMO != imo || f.Source != overwatch.SourceSpire || math.IsNaN(f.SpeedKt) || !math.IsNaN(f.CourseDeg) || f.Heading != -1 {
			t.Fatalf("fix %d: %+v", got, f)
		}
		prev = f.TS
		got++
	}
	if err := it.Err(); err != nil || got != n {
		t.Fatalf("%d fixes of %d: %v", got, n, err)
	}
	d := time.Since(t0)
	t.Logf("%d fixes read in %v: %.0f rows/s", n, d.Round(time.Millisecond), float64(n)/d.Seconds())
}

// BenchmarkFixesRead: the read of a year of 100,000 fixes, per fix (the
// query, the driver's scan and the conversion), for -cpuprofile and
// -benchmem.
func BenchmarkFixesRead(b *testing.B) {
	db, imo, start, end := writeYear(b, 100000)
	var f read.Fix
	got := 0
	b.ResetTimer()
	for got < b.N {
		it, err := db.Fixes(context.Background(), read.PositionFilter{IMOs: []overwatch.IMO{imo}, Start: start.Add(-time.Second), End: end})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for it.Next(&f) && got < b.N {
			got++
			n++
		}
		it.Close()
		if n == 0 {
			b.Fatal("no fixes")
		}
	}
}

// writeYear writes n fixes of one vessel over the year to now, out of
// order, into a fresh database.
func writeYear(t testing.TB, n int) (*clickhouse.DB, overwatch.IMO, time.Time, time.Time) {
	db := chtest.DB(t, "clickhouse")
	fx := chtest.Open(t, chtest.URL(t, "clickhouse"))
	imo := overwatch.IMO(9811000) // an IMO no other test of the package writes
	end := testclock.Now().UTC().Truncate(time.Second)
	start := end.Add(-365 * 24 * time.Hour)
	step := end.Sub(start) / time.Duration(n)
	cols := []string{"imo", "mmsi", "source", "ts", "lat", "lon", "speed_kt", "course_deg", "heading_deg", "nav_status",
		"draft_m", "destination", "msg_type", "received_at", "station", "dedup_key"}
	speed := float32(12.3)
	rows := make([][]any, 0, n)
	for i := n - 1; i >= 0; i-- { // written out of order
		ts := start.Add(time.Duration(i) * step).Truncate(time.Second)
		rows = append(rows, []any{uint32(imo), uint32(244000001), "spire", ts, 10.0, 20.0, &speed, nil, nil, uint8(15),
			nil, "", uint8(1), ts.Add(time.Second), "", uint64(i + 1)})
	}
	fx.Insert(t, "positions", cols, rows...)
	return db, imo, start, end
}
