package e2e

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/seaport"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// The earnings endpoints end to end: port calls and market rows (an ocean
// rate of the Gulf→Japan lane, a Brent price), the earnings job run by
// the jobs command, both endpoints validated against the OpenAPI document
// by s.do, their inputs and bounds, the tier clamps and the parameter
// errors.
func TestEarningsEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	now := testclock.Now().UTC()
	chURL, pgURL := chtest.URL(t, "earnings_e2e"), pgtest.URL(t, "earnings_e2e")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	s := apptest.StartServer(t, env) // migrates both stores
	fx := chtest.Open(t, chURL)
	recent, old := apptest.NextIMO(), apptest.NextIMO()
	day := func(d float64) *time.Time {
		v := now.Truncate(time.Hour).Add(time.Duration(d * 24 * float64(time.Hour)))
		return &v
	}
	call := func(imo overwatch.IMO, port, op string, arr, dep *time.Time, tonnes float64) chtest.PortCall {
		return chtest.PortCall{IMO: imo, Port: port, Arrival: *arr, Departure: dep, Confidence: 4, Operation: op, CargoTonnes: tonnes,
			CargoQuality: "measured", ShipType: 70, Category: "cargo", Name: "EARN " + imo.String()}
	}
	calls := []chtest.PortCall{
		// Recent: New Orleans → Chiba, departed 45 days ago, 40 days at sea.
		call(recent, "new-orleans", "load", day(-47), day(-45), 60000),
		call(recent, "chiba", "discharge", day(-5), day(-3), 0),
		// Old: Santos → Qingdao, departed 200 days ago (beyond Starter's 90 days).
		call(old, "santos", "load", day(-202), day(-200), 50000),
		call(old, "qingdao", "discharge", day(-165), day(-163), 0),
	}
	gen := uint64(time.Now().UnixNano())
	fx.InsertPortCalls(t, gen, calls...)
	for _, c := range calls {
		fx.RecordGeneration(t, "port_calls", c.Arrival.UTC().Truncate(24*time.Hour), gen)
	}
	month := time.Date(day(-45).Year(), day(-45).Month(), 1, 0, 0, 0, 0, time.UTC)
	fx.Insert(t, "transport_rates", []string{"mode", "dataset", "source", "commodity", "region", "origin", "destination", "vessel_size",
		"date", "frequency", "rate", "unit", "usd_per_tonne", "benchmark", "published", "fetched_at"},
		[]any{"ocean", "ehs5-yac3", "usda_agtransport", "grain", "Gulf to Japan", "U.S. Gulf", "Japan", "", month, "monthly", 60.0,
			"usd_per_tonne", 60.0, 0.0, month, now})
	fx.Insert(t, "commodity_prices", []string{"source", "series", "name", "commodity", "date", "frequency", "value", "unit", "currency",
		"usd_per_tonne", "detail", "published", "fetched_at"},
		[]any{"fred", "POILBREUSDM", "Global price of Brent Crude", "crude_oil", month, "monthly", 75.0, "usd_per_barrel", "USD", math.NaN(), "", month, now})
	var out strings.Builder
	if err := app.Run(context.Background(), []string{"overwatch", "jobs", "--job", "earnings"}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, os.Stderr); err != nil {
		t.Fatal(err)
	}
	t.Logf("jobs: %s", out.String())
	free, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-free", overwatch.PlanFree)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-starter", overwatch.PlanStarter)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-pro", overwatch.PlanPro)
	get := func(key, path string, status int, into any) []byte {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", path, r.StatusCode, r.Body, status)
		}
		if into != nil {
			if err := json.Unmarshal(r.Body, into); err != nil {
				t.Fatalf("%v: %s", err, r.Body)
			}
		}
		return r.Body
	}
	s.Do(t, apptest.Request{Path: "/v1/earnings", IP: apptest.FreshIP()}) // no key: 401, validated too

	var e struct{ Earnings []read.VoyageEarning }
	get(pro, "/v1/earnings", 200, &e)
	if len(e.Earnings) != 2 || e.Earnings[0].IMO != recent.String() || e.Earnings[1].IMO != old.String() {
		t.Fatalf("pro: %+v", e.Earnings)
	}
	v := e.Earnings[0]
	if v.Origin != "new-orleans" || v.Destination != "chiba" || v.OriginName == "" || v.FreightRate.Basis != "dataset" ||
		v.FreightRate.USDPerTonne.Central != 60 || v.FreightRate.Date == nil || !strings.Contains(v.FreightRate.Source, "ehs5-yac3") ||
		v.BunkerPrice.Basis != "brent" || v.BunkerPrice.BrentUSDPerBarrel == nil || *v.BunkerPrice.BrentUSDPerBarrel != 75 ||
		v.BunkerPrice.USDPerTonne.Central != math.Round(75*7.53*100)/100 || v.Fuel.Source != "emissions_model" || !(v.Fuel.Tonnes.Central > 0) ||
		v.VoyageDays != 44 || v.PortDays != 4 || v.SeaDays != 40 || v.CargoTonnes.Central != 60000 || v.RevenueUSD.Central != 3_600_000 {
		t.Errorf("recent voyage %+v", v)
	}
	tce := v.TCEUSDPerDay
	if !(tce.Low < tce.Central && tce.Central < tce.High) ||
		math.Abs(tce.Central-(v.RevenueUSD.Central-v.FuelCostUSD.Central-v.PortCostsUSD.Central)/v.VoyageDays) > 1 {
		t.Errorf("TCE %+v of revenue %v, fuel %v, ports %v over %v days", tce, v.RevenueUSD, v.FuelCostUSD, v.PortCostsUSD, v.VoyageDays)
	}
	if o := e.Earnings[1]; o.FreightRate.Basis != "model" || o.FreightRate.Date != nil {
		t.Errorf("old voyage (no dataset lane): %+v", o.FreightRate)
	}
	// Filters, clamps and the history floor.
	qingdao, _ := seaport.BySlug("qingdao")
	for path, want := range map[string]int{"/v1/earnings?vessel=" + recent.String(): 1, "/v1/earnings?port=" + qingdao.ID: 1,
		"/v1/earnings?port=chiba": 1, "/v1/earnings?port=rotterdam": 0, "/v1/earnings?limit=1": 1} {
		get(pro, path, 200, &e)
		if len(e.Earnings) != want {
			t.Errorf("%s: %d voyages, want %d", path, len(e.Earnings), want)
		}
	}
	if get(starter, "/v1/earnings", 200, &e); len(e.Earnings) != 1 || e.Earnings[0].IMO != recent.String() {
		t.Errorf("starter sees %+v", e.Earnings)
	}
	if get(free, "/v1/earnings", 200, &e); len(e.Earnings) != 0 {
		t.Errorf("free sees %d voyages older than 7 days", len(e.Earnings))
	}

	var pr struct {
		PortRevenue []read.PortRevenueWeek `json:"port_revenue"`
	}
	get(pro, "/v1/earnings/port-revenue", 200, &pr)
	if len(pr.PortRevenue) != 2 || pr.PortRevenue[0].Port != "new-orleans" || pr.PortRevenue[0].Voyages != 1 ||
		pr.PortRevenue[0].FreightRevenueUSD.Central != 3_600_000 || pr.PortRevenue[0].PortCostUSD.Central <= 0 ||
		pr.PortRevenue[0].WeekStart != mondayOf(*day(-45)).Format(time.DateOnly) {
		t.Fatalf("port revenue %+v", pr.PortRevenue)
	}
	if r := pr.PortRevenue[0].FreightRevenueUSD; !(r.Low < r.Central && r.Central < r.High) {
		t.Errorf("revenue bounds %+v", r)
	}
	if get(pro, "/v1/earnings/port-revenue?port=santos&limit=5", 200, &pr); len(pr.PortRevenue) != 1 || pr.PortRevenue[0].Port != "santos" {
		t.Errorf("santos: %+v", pr.PortRevenue)
	}
	if get(starter, "/v1/earnings/port-revenue", 200, &pr); len(pr.PortRevenue) != 1 {
		t.Errorf("starter sees %+v", pr.PortRevenue)
	}

	// Parameter errors name the parameter.
	for path, param := range map[string]string{
		"/v1/earnings?vessel=123":                 "vessel",
		"/v1/earnings?port=atlantis":              "port",
		"/v1/earnings?limit=0":                    "limit",
		"/v1/earnings?limit=x":                    "limit",
		"/v1/earnings/port-revenue?port=atlantis": "port",
		"/v1/earnings/port-revenue?limit=-1":      "limit",
	} {
		if body := get(starter, path, 400, nil); !strings.Contains(string(body), param) {
			t.Errorf("%s: %s does not name %s", path, body, param)
		}
	}
}
