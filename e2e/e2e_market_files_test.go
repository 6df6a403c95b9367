package e2e

import (
	"context"
	"io"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"strings"
	"testing"
	"time"
)

// One published value of every real market file (sources/market/testdata,
// copied from ../shared/data/market and ../shared/data/freight), read
// back through the API right after `overwatch import` of that file: the
// date and the price or rate the publisher printed. The files are
// imported oldest first, so that the value checked is among the newest
// observations of its commodity or mode. The two rail and truck fixtures
// are built from the datasets' documented layout (no recorded response
// exists): they show that those modes are served.
func TestMarketEveryRealFileThroughTheAPI(t *testing.T) {
	t.Parallel() // its own databases
	chURL, pgURL := chtest.URL(t, "market_files"), pgtest.URL(t, "market_files")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_LOG_LEVEL": "warn"}
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL})
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	const dir = "../sources/market/testdata/"
	type check struct {
		file, kind, path string
		// series (prices) or dataset and region (rates), the date, the value
		series, region, date string
		value                float64
		absent               string // a date the file publishes as missing, never served
	}
	checks := []check{
		{"fred_DCOILBRENTEU_brent_daily_legacy_dot_missing.csv", "prices", "/v1/commodity-prices?commodity=brent&since=2013-01-01&limit=500",
			"DCOILBRENTEU", "", "2013-08-16", 111.82, "2013-03-29"},
		{"fred_PWHEAMTUSDM_wheat_monthly_legacy_DATE_header.csv", "prices", "/v1/commodity-prices?commodity=wheat&since=2020-01-01",
			"PWHEAMTUSDM", "", "2024-04-01", 208.3816845, ""},
		{"fred_PMAIZMTUSDM_maize_monthly_legacy_DATE_header.csv", "prices", "/v1/commodity-prices?commodity=corn&since=2020-01-01",
			"PMAIZMTUSDM", "", "2024-10-01", 189.587905861801, ""},
		{"fred_PSOYBUSDM_soybeans_monthly_legacy_DATE_header.csv", "prices", "/v1/commodity-prices?commodity=soy&since=2020-01-01",
			"PSOYBUSDM", "", "2024-10-01", 368.491384434783, ""},
		{"fred_PSOYBUSDM_soybeans_monthly_1990-2025.csv", "prices", "/v1/commodity-prices?commodity=soybeans&since=2020-01-01",
			"PSOYBUSDM", "", "2025-01-01", 377.853040173913, ""},
		{"fred_PWHEAMTUSDM_wheat_monthly_2000-2025.csv", "prices", "/v1/commodity-prices?commodity=wheat&since=2020-01-01",
			"PWHEAMTUSDM", "", "2025-01-01", 190.62964206349207, ""},
		{"worldbank_pinksheet_CMO-Historical-Data-Monthly.xlsx", "prices", "/v1/commodity-prices?commodity=wheat&since=2025-01-01",
			"WHEAT_US_HRW", "", "2025-09-01", 233.76, ""},
		{"fred_POILBREUSDM_brent_monthly.csv", "prices", "/v1/commodity-prices?commodity=crude_oil&since=2025-06-01&limit=500",
			"POILBREUSDM", "", "2026-01-01", 64.59409090909091, ""},
		{"fred_DCOILBRENTEU_brent_daily_empty_missing.csv", "prices", "/v1/commodity-prices?commodity=brent&since=2026-01-01&limit=500",
			"DCOILBRENTEU", "", "2026-04-27", 113.89, "2026-04-03"},
		{"ams_mars_v1.2_report3147_gulf_export_bids_2026-08-11.json", "prices", "/v1/commodity-prices?commodity=soybeans&since=2026-08-01",
			"ams_3147:soybeans:basis", "", "2026-08-11", 0, ""},
		{"agtransport_7spn-fbua_barge_rates_usd_per_ton_zero_and_missing_2025w47-w51.json", "transport", "/v1/transport-data?mode=barge&region=la%20crosse",
			"7spn-fbua", "La Crosse – Minneapolis", "2025-11-25", 29.4025, "2025-12-02"},
		{"agtransport_deqi-uken_barge_rates_pct_tariff_2026w28-w33.json", "transport", "/v1/transport-data?mode=barge&region=st.%20louis",
			"deqi-uken", "St. Louis", "2026-08-18", 587.5, ""},
		{"agtransport_7spn-fbua_barge_rates_usd_per_ton_2026w32-w33.json", "transport", "/v1/transport-data?mode=barge&region=la%20crosse",
			"7spn-fbua", "La Crosse – Minneapolis", "2026-08-18", 47.3535, ""},
		{"agtransport_2n8s-739j_ukraine_black_sea_ocean_grain_rates_quarterly.json", "transport", "/v1/transport-data?mode=ocean&region=odesa%20alexandria&commodity=wheat&limit=500",
			"2n8s-739j", "", "", 20.43, ""},
		{"agtransport_ehs5-yac3_ocean_grain_rates_gulf_pnw_japan_monthly.json", "transport", "/v1/transport-data?mode=ocean&since=2026-07-01",
			"ehs5-yac3", "", "2026-07-01", 68.95, ""},
		{"constructed_agtransport_cvu8-kpyk_secondary_railcar_bids_layout.json", "transport", "/v1/transport-data?mode=rail", "cvu8-kpyk", "", "", 0, ""},
		{"constructed_agtransport_fxkn-2w9c_grain_truck_rates_layout.json", "transport", "/v1/transport-data?mode=truck", "fxkn-2w9c", "", "", 0, ""},
	}
	for _, c := range checks {
		if err := app.Run(context.Background(), []string{"overwatch", "import", c.kind, dir + c.file}, apptest.ClockEnv(func(k string) string { return env[k] }), io.Discard, io.Discard); err != nil {
			t.Fatalf("import %s %s: %v", c.kind, c.file, err)
		}
		// The read cache checks the tables' versions once a second.
		var resp apptest.Response
		found := false
		apptest.Eventually(t, 5*time.Second, c.file+" served", func() bool {
			var m marketAPI
			resp = s.Do(t, apptest.Request{Path: c.path, IP: apptest.FreshIP(), Key: key})
			if resp.StatusCode != 200 {
				t.Fatalf("%s: %d %s", c.path, resp.StatusCode, resp.Body)
			}
			apptest.MustUnmarshal(t, resp.Body, &m)
			for _, p := range m.Prices {
				if p.Series == c.series && p.Date == c.absent {
					t.Errorf("%s: %s is published as missing but served: %+v", c.file, c.absent, p)
				}
				if p.Series == c.series && p.Date == c.date && (c.value == 0 || p.Price == c.value) {
					found = true
				}
			}
			for _, r := range m.Transport {
				if r.Dataset == c.series && r.Date == c.absent && (c.region == "" || r.Region == c.region) {
					t.Errorf("%s: %s is published as missing (or 0) but served: %+v", c.file, c.absent, r)
				}
				if r.Dataset == c.series && (c.date == "" || r.Date == c.date) && (c.region == "" || r.Region == c.region) && (c.value == 0 || r.Rate == c.value) {
					found = true
				}
			}
			return found
		})
	}
	var all marketAPI
	apptest.MustUnmarshal(t, s.Do(t, apptest.Request{Path: "/v1/commodity-prices?commodity=soybeans&since=2026-08-01", IP: apptest.FreshIP(), Key: key}).Body, &all)
	for _, p := range all.Prices {
		if strings.HasSuffix(p.Series, ":basis") && p.Unit != "usd_cents_per_bushel" {
			t.Errorf("an AMS basis bid in %s: %+v", p.Unit, p)
		}
	}
}
