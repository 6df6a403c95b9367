package e2e

import (
	"context"
	"io"
	"math"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"strings"
	"testing"
	"time"
)

// marketAPI is the JSON of the market endpoints.
type marketAPI struct {
	Prices    []read.CommodityPrice `json:"commodity_prices"`
	Transport []read.TransportRate  `json:"transport_data"`
}

// The market endpoints on the real sources' files: `overwatch import
// prices|transport` loads the bundled samples, the server answers the
// published values (spot-checked against the files), synonyms, the fuzzy
// region, the plans' depth and results, and 400s naming the parameter.
func TestMarketEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	chURL, pgURL := chtest.URL(t, "market_e2e"), pgtest.URL(t, "market_e2e")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_LOG_LEVEL": "warn"}
	getenv := func(k string) string { return env[k] }
	entries, err := os.ReadDir("../sources/market/samples")
	if err != nil {
		t.Fatal(err)
	}
	var prices, transport []string
	for _, e := range entries {
		switch {
		case e.IsDir(): // the samples of other sources
		case strings.HasPrefix(e.Name(), "agtransport_"):
			transport = append(transport, "../sources/market/samples/"+e.Name())
		case !strings.HasSuffix(e.Name(), ".md"):
			prices = append(prices, "../sources/market/samples/"+e.Name())
		}
	}
	out := &apptest.SyncWriter{}
	for _, args := range [][]string{append([]string{"import", "prices"}, prices...), append([]string{"import", "transport"}, transport...)} {
		if err := app.Run(context.Background(), append([]string{"overwatch"}, args...), apptest.ClockEnv(getenv), out, io.Discard); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	t.Logf("imported:\n%s", out)
	if err := app.Run(context.Background(), []string{"overwatch", "import", "transport", prices[0]}, apptest.ClockEnv(getenv), io.Discard, io.Discard); err == nil {
		t.Error("a price file imported as transport data")
	}

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL})
	free, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-free", overwatch.PlanFree)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-pro", overwatch.PlanPro)
	get := func(key, path string, status int) marketAPI {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", path, resp.StatusCode, resp.Body, status)
		}
		var m marketAPI
		if status == 200 {
			apptest.MustUnmarshal(t, resp.Body, &m)
		}
		return m
	}
	findPrice := func(rows []read.CommodityPrice, series, date string) read.CommodityPrice {
		t.Helper()
		for _, p := range rows {
			if p.Series == series && p.Date == date {
				return p
			}
		}
		t.Fatalf("no %s on %s among %d rows", series, date, len(rows))
		return read.CommodityPrice{}
	}

	// Published values, as in the files.
	wheat := get(pro, "/v1/commodity-prices?commodity=Wheat&since=2024-04-01&limit=500", 200).Prices
	w := findPrice(wheat, "PWHEAMTUSDM", "2024-04-01")
	if w.Price != 208.38168450000001 || w.Unit != "usd_per_tonne" || w.Source != "fred" || w.Frequency != "monthly" ||
		w.USDPerTonne == nil || *w.USDPerTonne != 208.38 || !strings.Contains(w.Attribution, "FRED") {
		t.Errorf("FRED wheat 2024-04-01: %+v", w)
	}
	for i, p := range wheat {
		if p.Commodity != "wheat" || p.Date < "2024-04-01" || (i > 0 && p.Date > wheat[i-1].Date) {
			t.Fatalf("row %d: %+v", i, p)
		}
	}
	maize := get(pro, "/v1/commodity-prices?commodity=corn&since=2024-10-01&limit=500", 200).Prices
	if m := findPrice(maize, "PMAIZMTUSDM", "2024-10-01"); m.Commodity != "maize" || m.Price != 189.587905861801 {
		t.Errorf("FRED maize (asked as corn) 2024-10-01: %+v", m)
	}
	brent := get(pro, "/v1/commodity-prices?commodity=brent&since=2021-04-27&limit=500", 200).Prices
	if b := findPrice(brent, "DCOILBRENTEU", "2026-04-27"); b.Price != 113.89 || b.Unit != "usd_per_barrel" || b.Frequency != "daily" {
		t.Errorf("Brent daily 2026-04-27: %+v", b)
	}
	all := get(pro, "/v1/commodity-prices?commodity=crude_oil&since=2021-05-03&limit=500", 200).Prices
	for _, p := range all {
		if p.Series == "DCOILBRENTEU" && p.Date == "2021-05-03" {
			t.Errorf("a day FRED publishes as missing is served: %+v", p)
		}
	}
	soy := get(pro, "/v1/commodity-prices?commodity=soy&since=2026-08-01", 200).Prices
	var bid *read.CommodityPrice
	for i := range soy {
		if soy[i].Source == "usda_ams" {
			bid = &soy[i]
			break
		}
	}
	if bid == nil || bid.Unit != "usd_cents_per_bushel" || bid.Published == nil || *bid.Published != "2026-08-11" || bid.Detail == "" {
		t.Errorf("AMS soybean bid: %+v", bid)
	} else if bid.USDPerTonne == nil || math.Abs(*bid.USDPerTonne-bid.Price/100/0.0272155) > 0.01 {
		t.Errorf("AMS soybean bid in USD/t: %+v (want %.2f)", bid, bid.Price/100/0.0272155)
	}
	hrw := get(pro, "/v1/commodity-prices?commodity=wheat&since=2025-10-01", 200).Prices
	wb := findPrice(hrw, "WHEAT_US_HRW", "2025-10-01")
	if wb.Source != "worldbank" || wb.Published == nil || *wb.Published != "2025-11-04" {
		t.Errorf("World Bank HRW wheat 2025-10: %+v", wb)
	}

	// Transport: the fuzzy region, percent of tariff converted and kept.
	barge := get(pro, "/v1/transport-data?mode=barge&region=st%20louis&limit=500", 200).Transport
	var stl *read.TransportRate
	for i, r := range barge {
		if !strings.Contains(strings.ToLower(r.Region), "louis") || r.Mode != "barge" {
			t.Errorf("region st louis: %+v", r)
		}
		if r.Dataset == "deqi-uken" && r.Date == "2026-08-18" {
			stl = &barge[i]
		}
	}
	if stl == nil || stl.Rate != 587.5 || stl.Unit != "pct_of_tariff" || stl.BenchmarkTariff == nil || *stl.BenchmarkTariff != 3.99 ||
		stl.USDPerTonne == nil || math.Abs(*stl.USDPerTonne-587.5*3.99/100/0.90718474) > 0.01 {
		t.Errorf("St. Louis barge 2026-08-18: %+v", stl)
	}
	ocean := get(pro, "/v1/transport-data?mode=ocean&commodity=wheat&since=2026-07-01", 200).Transport
	var gulf bool
	for _, r := range ocean {
		if r.Dataset == "ehs5-yac3" && r.Date == "2026-07-01" && strings.Contains(r.Origin, "Gulf") {
			gulf = r.Rate == 68.95 && r.Unit == "usd_per_tonne"
		}
	}
	if !gulf {
		t.Errorf("Gulf→Japan 2026-07 (68.95 USD/t) not served for wheat: %+v", ocean)
	}
	if none := get(pro, "/v1/transport-data?region=atlantis", 200).Transport; len(none) != 0 {
		t.Errorf("an unknown region: %d rows", len(none))
	}

	// Plans: Free sees 20 rows within 7 days of each series' newest value.
	freeRows := get(free, "/v1/commodity-prices?limit=500", 200).Prices
	if len(freeRows) == 0 || len(freeRows) > 20 {
		t.Errorf("free: %d rows", len(freeRows))
	}
	newest := map[string]string{}
	for _, p := range get(pro, "/v1/commodity-prices?limit=500", 200).Prices {
		if p.Date > newest[p.Series] {
			newest[p.Series] = p.Date
		}
	}
	for _, p := range freeRows {
		n, _ := time.Parse(time.DateOnly, newest[p.Series])
		if d, _ := time.Parse(time.DateOnly, p.Date); n.IsZero() || d.Before(n.AddDate(0, 0, -7)) {
			t.Errorf("free sees %s %s, more than 7 days before the newest %s", p.Series, p.Date, newest[p.Series])
		}
	}

	// Errors name the parameter.
	for path, want := range map[string]string{
		"/v1/commodity-prices?commodity=unobtainium":            "commodity",
		"/v1/commodity-prices?since=yesterday":                  "since",
		"/v1/commodity-prices?since=2999-01-01":                 "since",
		"/v1/commodity-prices?limit=0":                          "limit",
		"/v1/transport-data?mode=air":                           "mode",
		"/v1/transport-data?commodity=plutonium":                "commodity",
		"/v1/transport-data?region=" + strings.Repeat("x", 101): "region",
		"/v1/transport-data?since=2024-13-01":                   "since",
	} {
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: pro})
		if resp.StatusCode != 400 || !strings.Contains(string(resp.Body), want) {
			t.Errorf("%s: %d %s, want 400 naming %s", path, resp.StatusCode, resp.Body, want)
		}
	}
	get("", "/v1/commodity-prices", 401)
	get("", "/v1/transport-data", 401)
}
