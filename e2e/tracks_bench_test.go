package e2e

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"overwatch"
	"overwatch/apptest"
	"overwatch/testclock"
)

// TestTrackBench: one vessel's year of fixes (OVERWATCH_TRACK_BENCH_FIXES,
// 100,000 for `make bench-tracks`; 5,000 in the smoke run of `make test`)
// written straight into the positions table, then read through the real
// server: the JSON track's latency over 300 requests (p50, p99: the third
// slowest; of 50 it would be the slowest one) and the streamed CSV's rows
// per second over 5 downloads of the whole year.
func TestTrackBench(t *testing.T) {
	n, bench := 5000, false
	if v := os.Getenv("OVERWATCH_TRACK_BENCH_FIXES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 2 {
			t.Fatalf("OVERWATCH_TRACK_BENCH_FIXES=%q: a number above 1", v)
		}
		bench = true
	}
	s := apptest.StartServer(t, nil)
	imo := apptest.NextIMO()
	end := testclock.Now().UTC().Truncate(time.Second)
	start := end.Add(-365 * 24 * time.Hour)
	step := end.Sub(start) / time.Duration(n)
	cols := []string{"imo", "mmsi", "source", "ts", "lat", "lon", "speed_kt", "course_deg", "heading_deg", "nav_status",
		"draft_m", "destination", "msg_type", "received_at", "station", "dedup_key"}
	rows := make([][]any, 0, n)
	speed, course, heading, draft := float32(12.3), float32(87.6), uint16(88), float32(9.1)
	for i := 0; i < n; i++ {
		ts := start.Add(time.Duration(i) * step).Truncate(time.Second)
		lat, lon := 10+float64(i%5000)*0.001, -40+float64(i%7000)*0.002
		rows = append(rows, []any{uint32(imo), uint32(244000001), "aisstream", ts, lat, lon, &speed, &course, &heading, uint8(0),
			&draft, "NLRTM", uint8(1), ts.Add(3 * time.Second), "rSTATION1", uint64(i + 1)})
	}
	s.Fx.Insert(t, "positions", cols, rows...)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	path := "/v1/vessels/" + imo.String() + "/track?start=" + start.Add(-time.Minute).Format(time.RFC3339)

	requests := 0
	get := func(p string) (int, int, time.Duration) {
		req, _ := http.NewRequest(http.MethodGet, s.Base+p, nil)
		req.Header.Set("X-API-Key", key)
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.250.%d.1", requests/50))
		requests++
		t0 := time.Now()
		resp, err := apptest.HTTPClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		// The body is counted, not kept, as a load tool reads it: the
		// client runs in the server's process, and 10 MB kept per
		// request would be the collector's work in the server's time.
		size, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, int(size), time.Since(t0)
	}
	// The rate limits are the plan's: Pro has 10,000 calls a day and 60 a
	// minute per address; the bench stays within them (a new address every
	// 50 requests). The smoke run in make test sends 50.
	var lat []time.Duration
	count := 50
	if bench {
		count = 300
	}
	for i := 0; i < count; i++ {
		status, size, d := get(path)
		if status != 200 || size < n*100 {
			t.Fatalf("json: %d, %d bytes", status, size)
		}
		lat = append(lat, d)
	}
	slices.Sort(lat)
	p50, p99 := lat[len(lat)/2], lat[(len(lat)*99+99)/100-1] // nearest rank
	var best, total time.Duration
	for i := 0; i < 5; i++ {
		status, size, d := get(path + "&format=csv")
		if status != 200 || size < n*80 {
			t.Fatalf("csv: %d, %d bytes", status, size)
		}
		total += d
		if best == 0 || d < best {
			best = d
		}
	}
	perSec := func(d time.Duration) float64 { return float64(n) / d.Seconds() }
	t.Logf("JSON, the ten slowest: %v", lat[len(lat)-min(10, len(lat)):])
	t.Logf("track of %d fixes: JSON p50 %v p99 %v; CSV %.0f rows/s (mean of 5), %.0f rows/s (best)",
		n, p50.Round(time.Millisecond), p99.Round(time.Millisecond), perSec(total/5), perSec(best))
	if bench {
		if p99 > 100*time.Millisecond {
			t.Errorf("JSON p99 %v, target under 100 ms", p99)
		}
		if perSec(total/5) < 1e6 {
			t.Errorf("CSV %.0f rows/s, target 1,000,000", perSec(total/5))
		}
	}
}
