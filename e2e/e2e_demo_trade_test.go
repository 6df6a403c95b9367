package e2e

import (
	"encoding/json"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"strings"
	"testing"
	"time"
)

// `overwatch run` with the demo's default trade world (seasons, trade
// truths, cheap older history): after its derivations, every trade
// endpoint, every market one (the bundled real samples, the voyage
// earnings) and every external signal (crop health from the bundled USDA
// files, radar coverage from the bundled catalogue answers, chokepoint
// transits from the demo's own AIS) answers with rows (each response validated against the OpenAPI
// document by s.do). A small fleet (50 vessels: every endpoint has rows
// but the route shifts; shifts and anomalies pass significance gates and
// may have none at this size, and their rows are checked in
// TestTradeRoutesEndToEnd and TestForecastsEndToEnd) over the default span
// keeps it under a minute; OVERWATCH_DEMO_TRADE_VESSELS changes the fleet.
func TestRunDemoTradeEndpoints(t *testing.T) {
	t.Parallel() // its own ClickHouse database; parallel tests keep to their own PostgreSQL accounts
	if testing.Short() {
		t.Skip("a demo backfill of over a year")
	}
	vessels := "50"
	if v := os.Getenv("OVERWATCH_DEMO_TRADE_VESSELS"); v != "" {
		vessels = v
	}
	env := map[string]string{
		"CLICKHOUSE_URL": chtest.URL(t, "e2e_demo_trade"), "OVERWATCH_DATA_DIR": t.TempDir(), "OVERWATCH_SPOOL_DIR": t.TempDir(),
		"OVERWATCH_DEMO_VESSELS": vessels, "OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000", "OVERWATCH_KEYED_LIMIT_PER_MINUTE": "100000",
	}
	began := time.Now()
	out := &apptest.SyncWriter{}
	s := apptest.StartDemo(t, env, out)
	apptest.Eventually(t, 600*time.Second, "the demo's history", func() bool { return strings.Contains(out.String(), "Public latest position") })
	ready := time.Since(began)
	apptest.Eventually(t, 600*time.Second, "the derivations after the backfill", func() bool {
		return strings.Contains(s.Logs.String(), "derivations done after the backfill")
	})
	t.Logf("%s vessels: history ready in %s, derived in %s", vessels, ready.Round(time.Second), time.Since(began).Round(time.Second))
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	// Shifts and anomalies pass significance gates on the voyage and
	// vessel counts (docs/trade-routes.md, docs/forecasts.md): a small
	// fleet may hold none, so for them the answer and its key are checked,
	// not rows.
	// The river gauges have no bundled sample: their answer is empty,
	// with a source status saying so.
	gated := map[string]bool{"/v1/routes/shifts": true, "/v1/anomalies": true, "/v1/river-levels": true}
	for _, c := range []struct{ path, root string }{
		{"/v1/routes/flows", "flows"},
		{"/v1/routes/shifts", "shifts"},
		{"/v1/routes/deceptions", "deceptions"},
		{"/v1/forecasts?method=pipeline", "forecasts"},
		{"/v1/forecasts?method=statistical", "forecasts"},
		{"/v1/forecasts?method=ml", "forecasts"},
		{"/v1/forecasts/accuracy", "accuracy"},
		{"/v1/anomalies", "anomalies"},
		{"/v1/anomalies/maturity", "maturity"},
		{"/v1/calibration", "calibration"},
		{"/v1/earnings", "earnings"},
		{"/v1/earnings/port-revenue", "port_revenue"},
		{"/v1/commodity-prices", "commodity_prices"},
		{"/v1/transport-data", "transport_data"},
		{"/v1/freight-rates", "freight_rates"},
		{"/v1/satellite/regions", "regions"},
		{"/v1/satellite/health", "assessments"},
		{"/v1/satellite/production", "forecasts"},
		{"/v1/sar-coverage?lat=64.8378&lng=-147.7164&date=2021-01-02", "products"},
		{"/v1/river-levels", "source"},
		{"/v1/disruptions?hours=720", "chokepoints"},
	} {
		r := s.Do(t, apptest.Request{Path: c.path, Key: key, IP: apptest.FreshIP()})
		if r.StatusCode != 200 {
			t.Errorf("%s: %d %s", c.path, r.StatusCode, r.Body)
			continue
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if _, ok := body[c.root]; !ok {
			t.Errorf("%s: no %q: %.300s", c.path, c.root, r.Body)
		}
		if n := rowsIn(body[c.root]); n == 0 && !gated[c.path] {
			t.Errorf("%s: no rows in %q: %.300s", c.path, c.root, r.Body)
		} else {
			t.Logf("%s: %d rows", c.path, n)
		}
	}
}

// rowsIn counts a response's rows: a list's items, or an object's ports
// (the calibration summary).
func rowsIn(raw json.RawMessage) int {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		return len(list)
	}
	var obj struct {
		Ports []json.RawMessage `json:"ports"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		return len(obj.Ports)
	}
	return 0
}
