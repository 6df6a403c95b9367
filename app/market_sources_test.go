package app

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/jobs/jobstest"
	"overwatch/read"
	"overwatch/sources"
	marketsource "overwatch/sources/market"
	"overwatch/sources/sourcetest"
)

// sample is a bundled real market file (sources/market/samples).
func sample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../sources/market/samples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The price and transport refreshes against a local server serving the
// sources' real bytes, into the real ClickHouse: a good fetch stores
// every file; each failure fails the run, is counted on /metrics, and
// leaves every stored observation as it was (the same rows, the same
// values).
func TestMarketRefreshJobs(t *testing.T) {
	db := chtest.DB(t, "market_jobs")
	srv := sourcetest.NewServer(t, map[string][]byte{
		"/fredgraph.csv?id=PWHEAMTUSDM":     sample(t, "fred_PWHEAMTUSDM_wheat_monthly_2000-2025.csv"),
		"/fredgraph.csv?id=DCOILBRENTEU":    sample(t, "fred_DCOILBRENTEU_brent_daily_empty_missing.csv"),
		"/CMO-Historical-Data-Monthly.xlsx": sample(t, "worldbank_pinksheet_CMO-Historical-Data-Monthly.xlsx"),
		"/services/v1.2/reports/3147":       sample(t, "ams_mars_v1.2_report3147_gulf_export_bids_2026-08-11.json"),
		"/resource/deqi-uken.json":          sample(t, "agtransport_deqi-uken_barge_rates_pct_tariff_2026w28-w33.json"),
		"/resource/ehs5-yac3.json":          sample(t, "agtransport_ehs5-yac3_ocean_grain_rates_gulf_pnw_japan_monthly.json"),
		"/resource/2n8s-739j.json":          sample(t, "agtransport_2n8s-739j_ukraine_black_sea_ocean_grain_rates_quarterly.json"),
		"/resource/7spn-fbua.json":          sample(t, "agtransport_7spn-fbua_barge_rates_usd_per_ton_2026w32-w33.json"),
	})
	cfg := marketsource.Config{FREDURL: srv.URL + "/fredgraph.csv", FREDSeries: []string{"PWHEAMTUSDM", "DCOILBRENTEU"},
		WorldBankURL: srv.URL + "/CMO-Historical-Data-Monthly.xlsx", AMSURL: srv.URL + "/services/v1.2/reports/3147", AMSKey: "secret-key",
		AgTransportURL: srv.URL + "/resource", AgTransportDatasets: []string{"deqi-uken", "ehs5-yac3", "2n8s-739j", "7spn-fbua"},
		PricesEvery: time.Hour, TransportEvery: time.Hour}
	all := marketJobs(cfg, db, db)
	if len(all) != 2 || all[0].Name != "prices_refresh" || all[1].Name != "transport_refresh" {
		t.Fatalf("jobs %+v", all)
	}
	ctx := context.Background()
	sc, err := jobs.NewScheduler(all, jobstest.Locker{}, jobstest.States{}, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range all {
		if _, err := sc.RunNow(ctx, j.Name); err != nil {
			t.Fatalf("%s: %v", j.Name, err)
		}
	}
	snapshot := func() (string, string) {
		prices, err := db.CommodityPrices(ctx, read.PriceRequest{Limit: 100000})
		if err != nil {
			t.Fatal(err)
		}
		rates, err := db.TransportRates(ctx, read.TransportRequest{Limit: 100000})
		if err != nil {
			t.Fatal(err)
		}
		var p, r strings.Builder
		for _, x := range prices {
			p.WriteString(x.Series + x.Date.Format(time.DateOnly) + x.Detail + strconvF(x.Value) + "\n")
		}
		for _, x := range rates {
			r.WriteString(x.Dataset + x.Region + x.Origin + x.Date.Format(time.DateOnly) + strconvF(x.Rate) + "\n")
		}
		return p.String(), r.String()
	}
	goodPrices, goodRates := snapshot()
	for _, want := range []string{"PWHEAMTUSDM2024-04-01", "DCOILBRENTEU2026-04-27", "WHEAT_US_HRW"} {
		if !strings.Contains(goodPrices, want) {
			t.Errorf("prices lack %s", want)
		}
	}
	for _, want := range []string{"deqi-ukenSt. Louis", "ehs5-yac3", "2n8s-739j", "7spn-fbua"} {
		if !strings.Contains(goodRates, want) {
			t.Errorf("rates lack %s", want)
		}
	}

	failures := []string{"5xx", "429", "html", "short", "truncated", "slow"}
	for _, m := range failures {
		srv.Set(m)
		for _, j := range all {
			rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, err := sc.RunNow(rctx, j.Name)
			cancel()
			if err == nil {
				t.Errorf("%s %s: the run succeeded", m, j.Name)
			} else if strings.Contains(err.Error(), "secret-key") {
				t.Errorf("%s: the error shows the AMS key: %v", m, err)
			}
		}
		if p, r := snapshot(); p != goodPrices || r != goodRates {
			t.Errorf("%s: the stored observations changed after a failed fetch: %s", m, firstDiff(p+r, goodPrices+goodRates))
		}
	}
	reg := prometheus.NewRegistry()
	RegisterJobs(reg, sc)
	for _, j := range all {
		if n := jobstest.Metric(t, reg, "overwatch_job_failures_total", j.Name); n != float64(len(failures)) {
			t.Errorf("overwatch_job_failures_total{job=%q} = %v, want %d", j.Name, n, len(failures))
		}
	}
	if _, err := sources.Get(ctx, nil, "", "file:///etc/passwd", sources.Options{}); err == nil {
		t.Error("a file URL was fetched")
	}
	if got := marketJobs(marketsource.Config{AMSURL: "https://example.org"}, db, db); len(got) != 0 {
		t.Errorf("jobs without URLs or the AMS key: %+v", got)
	}
}

// strconvF prints a float exactly.
func strconvF(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// firstDiff is the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return "line " + strconv.Itoa(i) + ": " + g[i] + ", was " + w[i]
		}
	}
	return "lengths " + strconv.Itoa(len(g)) + " and " + strconv.Itoa(len(w))
}
