package e2e

import (
	"context"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"strings"
	"testing"
	"time"
)

// TestServerClockStart: a server started with OVERWATCH_CLOCK_START answers
// as of that instant, running at real speed from it: a position reported
// 30 minutes before it is in the health's last hour (counted against the
// bound instant, not ClickHouse's clock) and a latest position reported 2
// minutes before it is 2 minutes fresh, although both are years old on the
// real clock.
func TestServerClockStart(t *testing.T) {
	t.Parallel() // its own databases
	start := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)
	began := time.Now() // the server's clock runs from start at real speed
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "e2e_clock"), "DATABASE_URL": pgtest.URL(t, "e2e_clock"),
		"OVERWATCH_CLOCK_START": start.Format(time.RFC3339)})
	imo := apptest.NextIMO()
	s.Fx.Insert(t, "positions", strings.Split("imo,ts,lat,lon,destination,dedup_key", ","),
		[]any{uint32(imo), start.Add(-30 * time.Minute), 51.9, 4.1, "ROTTERDAM", uint64(1)},
		[]any{uint32(imo), start.Add(-2 * time.Hour), 51.8, 4.0, "ROTTERDAM", uint64(2)})
	reported := start.Add(-2 * time.Minute)
	if err := s.Ch.InsertLatest(context.Background(), []overwatch.LatestRow{latestRow(imo, overwatch.SourceAISHub, reported, 51.9, 4.1)}); err != nil {
		t.Fatal(err)
	}
	waitVisible(s, t, imo, "aishub")

	h := s.Do(t, apptest.Request{Path: "/v1/health", IP: apptest.FreshIP()}).JSON(t)
	if h["positions"] != float64(2) || h["positions_last_hour"] != float64(1) {
		t.Errorf("health: %v positions, %v in the last hour; want 2 and 1", h["positions"], h["positions_last_hour"])
	}
	r := s.Do(t, apptest.Request{Path: "/v1/ais/aishub/" + imo.String() + "/location/latest", IP: apptest.FreshIP()})
	if fresh, ok := r.JSON(t)["freshness_seconds"].(float64); r.StatusCode != 200 || !ok || fresh < 120 || fresh > 121+time.Since(began).Seconds() {
		t.Errorf("latest: %d %s, want about 120 s fresh", r.StatusCode, r.Body)
	}
}
