package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/testclock"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// `overwatch run` with a raw NMEA TCP feed: the capture goes through the
// real feed protocol and pipeline, the public lookup serves it, and
// /metrics counts it.
func TestRunIngestsAFeedAndExposesMetrics(t *testing.T) {
	base := testclock.Now().UTC().Truncate(time.Second).Add(-30 * time.Hour)
	_, lines := stampedCapture(t, base)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for _, l := range lines {
			if _, err := fmt.Fprintf(c, "%s\r\n", l); err != nil {
				return
			}
		}
		io.Copy(io.Discard, c) //nolint:errcheck // hold the connection open
	}()
	s := apptest.StartCommand(t, "run", map[string]string{
		"CLICKHOUSE_URL":                    chtest.URL(t, "e2e_run"),
		"OVERWATCH_FEEDS":                   "spire=tcp://" + ln.Addr().String(),
		"OVERWATCH_SPOOL_DIR":               t.TempDir(),
		"OVERWATCH_ATTRIBUTION_WINDOW":      "48h",
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000",
	})
	want := expectedLatest(t, lines, overwatch.SourceSpire)
	var imo overwatch.IMO
	for k := range want {
		imo = k
		break
	}
	path := "/v1/ais/spire/" + imo.String() + "/location/latest"
	apptest.Eventually(t, 60*time.Second, "the feed's data served", func() bool {
		return s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP()}).StatusCode == 200
	})
	// The lookup can answer from the in-memory replica before the first
	// batch reaches ClickHouse (in cluster mode a synchronous distributed
	// insert takes longer): wait for the write to be counted.
	var body []byte
	apptest.Eventually(t, 60*time.Second, "a batch written", func() bool {
		resp, err := http.Get(s.Metrics + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		m := regexp.MustCompile(`(?m)^overwatch_ingest_written_total ([0-9.e+]+)$`).FindSubmatch(body)
		v := 0.0
		if m != nil {
			v, _ = strconv.ParseFloat(string(m[1]), 64)
		}
		return v > 0
	})
	for _, name := range []string{"overwatch_ingest_received_total", "overwatch_ingest_decoded_total", "overwatch_ingest_written_total"} {
		m := regexp.MustCompile(`(?m)^` + name + ` ([0-9.e+]+)$`).FindSubmatch(body)
		if m == nil {
			t.Fatalf("%s missing from /metrics:\n%.2000s", name, body)
		}
		if v, _ := strconv.ParseFloat(string(m[1]), 64); v <= 0 {
			t.Errorf("%s = %s", name, m[1])
		}
	}
	for _, name := range []string{"overwatch_ingest_queued", "overwatch_ingest_spool_files", "overwatch_ingest_store_down", "overwatch_ingest_duplicate_total", "overwatch_ingest_invalid_total", "go_goroutines"} {
		if !regexp.MustCompile(`(?m)^` + name + ` `).Match(body) {
			t.Errorf("%s missing from /metrics", name)
		}
	}

	// The bundled market samples answer out of the box, dated as published.
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	for path, field := range map[string]string{"/v1/commodity-prices?commodity=wheat": "commodity_prices", "/v1/transport-data?mode=barge": "transport_data"} {
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		var answer map[string][]map[string]any
		if resp.StatusCode != 200 || json.Unmarshal(resp.Body, &answer) != nil || len(answer[field]) == 0 {
			t.Errorf("%s: %d %.300s", path, resp.StatusCode, resp.Body)
			continue
		}
		if _, dated := answer[field][0]["date"].(string); !dated {
			t.Errorf("%s: %v has no date", path, answer[field][0])
		}
	}
}
