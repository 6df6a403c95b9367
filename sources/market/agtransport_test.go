package market

import (
	"math"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/market"
)

func parseAg(t *testing.T, file, dataset string) Result {
	t.Helper()
	res, err := Parse(file, reader(readTestdata(t, file)), dataset, day("2026-08-20"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindAgTransport {
		t.Fatalf("kind %s", res.Kind)
	}
	for _, r := range res.Rates {
		if r.Source != "usda_agtransport" || r.Dataset != res.Dataset || r.Region == "" || !r.Published.Equal(day("2026-08-20")) || r.Date.Location() != time.UTC {
			t.Fatalf("bad rate %+v", r)
		}
	}
	return res
}

func find(rs []market.Rate, region, date string) (market.Rate, bool) {
	for _, r := range rs {
		if r.Region == region && r.Date.Equal(day(date)) {
			return r, true
		}
	}
	return market.Rate{}, false
}

func TestAgTransportBargePct(t *testing.T) {
	res := parseAg(t, "agtransport_deqi-uken_barge_rates_pct_tariff_2026w28-w33.json", "")
	if res.Dataset != DatasetBargePct || len(res.Rates) != 40 {
		t.Fatalf("dataset %s, %d rates", res.Dataset, len(res.Rates))
	}
	r, ok := find(res.Rates, "St. Louis", "2026-08-18")
	if !ok || r.Mode != "barge" || r.Unit != "pct_of_tariff" || r.Rate != 587.5 || r.Benchmark != 3.99 || r.Frequency != "weekly" {
		t.Fatalf("St. Louis %+v", r)
	}
	// 587.5 % of 3.99 USD/short ton = 23.44125 USD/short ton = 25.8392... USD/t.
	if !approx(r.USDPerTonne, 23.44125/0.90718474) {
		t.Errorf("St. Louis USD/t %v", r.USDPerTonne)
	}
	if r, ok := find(res.Rates, "Cairo-Memphis", "2026-08-18"); !ok || r.Benchmark != 3.14 || !approx(r.USDPerTonne, 558.3333*3.14/100/0.90718474) {
		t.Errorf("Cairo-Memphis %+v", r)
	}
	for _, r := range res.Rates {
		if r.Benchmark == 0 || math.IsNaN(r.USDPerTonne) {
			t.Errorf("no benchmark for %q", r.Region)
		}
	}
}

func TestAgTransportBargeTon(t *testing.T) {
	res := parseAg(t, "agtransport_7spn-fbua_barge_rates_usd_per_ton_2026w32-w33.json", "")
	if res.Dataset != DatasetBargeTon || len(res.Rates) != 40 {
		t.Fatalf("dataset %s, %d rates", res.Dataset, len(res.Rates))
	}
	r, ok := find(res.Rates, "La Crosse – Minneapolis", "2026-08-18")
	if !ok || r.Rate != 47.3535 || r.Unit != "usd_per_short_ton" || !approx(r.USDPerTonne, 47.3535/0.90718474) || r.Benchmark != 0 {
		t.Fatalf("La Crosse %+v", r)
	}
	if _, ok := find(res.Rates, "Cape Girardeau –Grafton", "2026-08-18"); !ok {
		t.Error("odd spacing name not kept verbatim")
	}
	zero := parseAg(t, "agtransport_7spn-fbua_barge_rates_usd_per_ton_zero_and_missing_2025w47-w51.json", DatasetBargeTon)
	if len(zero.Rates) != 2 || zero.Missing != 3 {
		t.Errorf("zero/absent: %d rates, %d missing; want 2 and 3", len(zero.Rates), zero.Missing)
	}
}

func TestAgTransportOcean(t *testing.T) {
	res := parseAg(t, "agtransport_ehs5-yac3_ocean_grain_rates_gulf_pnw_japan_monthly.json", "")
	if res.Dataset != DatasetOceanJapan || len(res.Rates) != 80 {
		t.Fatalf("dataset %s, %d rates", res.Dataset, len(res.Rates))
	}
	g, ok1 := find(res.Rates, "U.S. Gulf to Japan", "2026-07-01")
	p, ok2 := find(res.Rates, "Pacific Northwest to Japan", "2026-07-01")
	if !ok1 || !ok2 || g.Rate != 68.95 || p.Rate != 35.95 || g.USDPerTonne != 68.95 || g.Origin != "U.S. Gulf" ||
		g.Destination != "Japan" || p.Origin != "Pacific Northwest" || g.Mode != "ocean" || g.Frequency != "monthly" || g.Unit != "usd_per_tonne" {
		t.Fatalf("gulf %+v pnw %+v", g, p)
	}
	bs := parseAg(t, "agtransport_2n8s-739j_ukraine_black_sea_ocean_grain_rates_quarterly.json", "")
	if bs.Dataset != DatasetBlackSea || len(bs.Rates) != 40 {
		t.Fatalf("dataset %s, %d rates", bs.Dataset, len(bs.Rates))
	}
	var wheat, corn bool
	for _, r := range bs.Rates {
		if r.Region == "Odesa-Alexandria,Egypt" && r.Date.Equal(day("2025-10-01")) {
			switch r.Commodity {
			case "wheat":
				wheat = r.Rate == 20.43 && r.VesselSize == "25,000-30,000" && r.Origin == "Odesa" && r.Destination == "Alexandria,Egypt" && r.Frequency == "quarterly"
			case "maize":
				corn = r.Rate == 20.52
			}
		}
		if r.Region == "Izmail-Marmara Sea ports,Turkey" && r.Commodity == "maize" && r.VesselSize != "3,000" {
			t.Errorf("vessel size %q", r.VesselSize)
		}
	}
	if !wheat || !corn {
		t.Errorf("Odesa→Alexandria 2025Q4 wheat %v corn %v", wheat, corn)
	}
}

// Rail and truck: no recorded response exists; these fixtures follow the
// datasets' documented public layout (testdata/README.md).
func TestAgTransportRailTruckLayout(t *testing.T) {
	rail := parseAg(t, "constructed_agtransport_cvu8-kpyk_secondary_railcar_bids_layout.json", "")
	if rail.Dataset != DatasetRailBids || len(rail.Rates) != 4 || rail.Missing != 1 {
		t.Fatalf("rail %s %d rates %d missing", rail.Dataset, len(rail.Rates), rail.Missing)
	}
	want := map[string]float64{"BNSF Shuttle, delivery 2026-08": 193.75, "BNSF Shuttle, delivery 2026-10": -50,
		"UP Non-Shuttle, delivery 2026-08": 0, "UP Shuttle, delivery 2026-11": 1000}
	for _, r := range rail.Rates {
		if v, ok := want[r.Region]; !ok || r.Rate != v || r.Unit != "usd_per_car" || r.Mode != "rail" || !math.IsNaN(r.USDPerTonne) || !r.Date.Equal(day("2026-07-23")) {
			t.Errorf("rail %+v", r)
		}
	}
	truck := parseAg(t, "constructed_agtransport_fxkn-2w9c_grain_truck_rates_layout.json", "")
	if truck.Dataset != DatasetTruck || len(truck.Rates) != 3 || truck.Missing != 1 {
		t.Fatalf("truck %s %d rates", truck.Dataset, len(truck.Rates))
	}
	if r, ok := find(truck.Rates, "National, 25 miles", "2026-01-01"); !ok || r.Rate != 6.83 || r.Unit != "usd_per_mile" || r.Frequency != "quarterly" || r.Mode != "truck" {
		t.Errorf("truck %+v", r)
	}
}

func TestAgTransportRefuses(t *testing.T) {
	for name, c := range map[string]struct{ body, dataset, want string }{
		"object":      {`{"error":true,"message":"x"}`, "", "byte"},
		"unknown":     {`[{"foo":"1"}]`, "", "row 1"},
		"mixed":       {`[{"date":"2026-08-18T00:00:00.000","week":"33","location":"St. Louis","rate":"1"},{"date":"2026-08-18T00:00:00.000","river_system_location":"x","price_per_ton":"1"}]`, "", "row 2"},
		"bad date":    {`[{"date":"18/08/2026","week":"33","location":"St. Louis","rate":"1"}]`, "", "row 1"},
		"bad rate":    {`[{"date":"2026-08-18T00:00:00.000","week":"33","location":"St. Louis","rate":"lots"}]`, "", "rate"},
		"no location": {`[{"date":"2026-08-18T00:00:00.000","week":"33","rate":"5"}]`, "deqi-uken", "location"},
		"cut":         {`[{"date":"2026-08-18T00:00:00.000","week":"33","location":"St. Louis","rate":"1"}`, "", "AgTransport"},
		"bad quarter": {`[{"route":"a-b","year_quarter":"2025Q9","rate":"1"}]`, "", "quarter"},
		"dataset":     {`[{"a":"1"}]`, "abcd-efgh", "abcd-efgh"},
		"nested":      {`[{"date":"2026-08-18T00:00:00.000","week":"33","location":"St. Louis","rate":{"x":1}}]`, "", "rate"},
	} {
		_, err := ParseAgTransport(strings.NewReader(c.body), c.dataset, time.Time{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, c.want)
		}
	}
	if rs, err := ParseAgTransport(strings.NewReader(`[]`), "", time.Time{}); err != nil || len(rs) != 0 {
		t.Errorf("empty array: %v %v", rs, err)
	}
}

func TestDetectAgTransport(t *testing.T) {
	for want, keys := range map[string][]string{
		DatasetBargePct:   {"date", "week", "month", "year", "location", "rate"},
		DatasetBargeTon:   {"date", "month", "year", "river_system_location"},
		DatasetOceanJapan: {"date", "gulf_to_japan", "pnw_to_japan", "gulf_pnw_spread"},
		DatasetBlackSea:   {"quarter_ending_date", "route", "origin", "vessel_size", "rate"},
		DatasetRailBids:   {"date", "company", "train_type", "bid"},
		DatasetTruck:      {"yearquarter", "region", "distance", "rate_mile_trukload"},
	} {
		if got, ok := DetectAgTransport(keys...); !ok || got != want {
			t.Errorf("DetectAgTransport(%v) = %q, %v; want %q", keys, got, ok, want)
		}
	}
	if got, ok := DetectAgTransport("date", "value"); ok {
		t.Errorf("detected %q", got)
	}
}
