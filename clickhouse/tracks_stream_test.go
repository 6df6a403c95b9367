package clickhouse_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/read"
	"overwatch/testclock"
)

// TestTrackStreamStoreFailure: a store error after the first rows of a
// streamed track (ClickHouse stops the query at max_result_rows, after
// blocks of max_block_size rows were sent; result_overflow_mode is
// "throw" by default, and ClickHouse 18.16 takes only numeric settings) must not end the body as if it
// were complete, in any format: the connection is aborted before the
// chunked body's last chunk, so that an HTTP client reads an error. The
// same request without the limit reads whole.
func TestTrackStreamStoreFailure(t *testing.T) {
	const n = 20000
	db := openDB(t)
	fx := chtest.Open(t, chtest.URL(t, "clickhouse"))
	imo := overwatch.IMO(9812004) // an IMO no other test of the package writes
	end := testclock.Now().UTC().Truncate(time.Second)
	start := end.Add(-30 * 24 * time.Hour)
	cols := []string{"imo", "mmsi", "source", "ts", "lat", "lon", "speed_kt", "course_deg", "heading_deg", "nav_status",
		"draft_m", "destination", "msg_type", "received_at", "station", "dedup_key"}
	rows := make([][]any, 0, n)
	for i := 0; i < n; i++ {
		ts := start.Add(time.Duration(i) * time.Minute)
		rows = append(rows, []any{uint32(imo), uint32(244000001), "spire", ts, 10.0 + float64(i)*1e-4, 20.0, nil, nil, nil, uint8(15),
			nil, "", uint8(1), ts.Add(time.Second), "", uint64(i + 1)})
	}
	fx.Insert(t, "positions", cols, rows...)

	app := fiber.New()
	app.Use(func(c *fiber.Ctx) error {
		ctx := overwatch.WithCaller(c.UserContext(), &overwatch.Caller{Plan: overwatch.PlanPro})
		if c.Get("X-Fail") != "" {
			ctx = ch.Context(ctx, ch.WithSettings(ch.Settings{
				"max_block_size": 1000, "max_result_rows": n / 2}))
		}
		c.SetUserContext(ctx)
		return c.Next()
	})
	app.Get("/vessels/:imo/track", read.VesselTrack(db, func() time.Time { return end }))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go app.Listener(ln)                  //nolint:errcheck // ends with the test
	t.Cleanup(func() { app.Shutdown() }) //nolint:errcheck

	get := func(format string, fail bool) (int, []byte, error) {
		req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://"+ln.Addr().String()+"/vessels/"+imo.String()+
			"/track?format="+format+"&start="+start.Add(-time.Second).Format(time.RFC3339), nil)
		if fail {
			req.Header.Set("X-Fail", "1")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, body, err
	}
	for _, format := range []string{"csv", "json", "geojson"} {
		status, body, err := get(format, false)
		if err != nil || status != 200 || bytes.Count(body, []byte("T")) < n {
			t.Fatalf("%s without the limit: %d %v, %d bytes", format, status, err, len(body))
		}
		if format == "csv" && strings.Count(string(body), "\n") != n+1 {
			t.Errorf("csv: %d lines, want %d", strings.Count(string(body), "\n"), n+1)
		}
		status, body, err = get(format, true)
		if status == 200 && err == nil {
			t.Errorf("%s: the store failed mid-stream but the body (%d bytes) read as complete: %.200s...", format, len(body), body)
		} else if status == 200 && len(body) == 0 {
			t.Errorf("%s: the body was cut before any row was sent (%v): the store did not fail mid-stream", format, err)
		} else {
			t.Logf("%s: status %d, %d bytes, then %v: %.100s", format, status, len(body), err, body)
		}
	}
}
