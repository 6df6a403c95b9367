package clickhouse_test

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/emissions"
	"overwatch/maritime/voyage"
	"overwatch/read"
	"overwatch/testclock"
)

// The earnings store against the real server: the job reading the port
// calls, the voyage_emissions legs, the ocean rates and Brent prices of
// the market tables, writing voyage_earnings and port_revenue_weekly, the
// reads with their filters and floor, a re-run replacing its weeks.
func TestEarningsStore(t *testing.T) {
	t.Parallel()
	db, fx := chtest.DB(t, "earnings"), chtest.Open(t, chtest.URL(t, "earnings"))
	ctx := context.Background()
	base := time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC) // a Monday
	h := func(hours float64) *time.Time { return at(base, hours) }
	a, b := overwatch.IMO(9200001), overwatch.IMO(9200002)
	insertCalls(t, fx, uint64(time.Now().UnixNano()),
		// a: New Orleans → Chiba, 40 days at sea; b: Santos → Qingdao.
		chtest.PortCall{IMO: a, Port: "new-orleans", Arrival: *h(0), Departure: h(48), Confidence: 4, Operation: "load",
			CargoTonnes: 60000, CargoQuality: "measured", ShipType: 70, Name: "ALPHA"},
		chtest.PortCall{IMO: a, Port: "chiba", Arrival: *h(48 + 960), Departure: h(48 + 960 + 72), Confidence: 4, Operation: "discharge", ShipType: 70, Name: "ALPHA"},
		chtest.PortCall{IMO: b, Port: "santos", Arrival: *h(24), Departure: h(72), Confidence: 4, Operation: "load",
			CargoTonnes: 50000, CargoQuality: "estimated_range", ShipType: 70, Name: "BRAVO"},
		chtest.PortCall{IMO: b, Port: "qingdao", Arrival: *h(72 + 800), Departure: h(72 + 848), Confidence: 4, Operation: "discharge", ShipType: 70, Name: "BRAVO"},
	)
	leg := voyage.Record{ID: voyage.ID(a, *h(48)), Input: emissions.VoyageInput{IMO: a, From: "new-orleans", To: "chiba", Departure: *h(48),
		Arrival: *h(48 + 960), DWT: 65000}, Result: emissions.Voyage{IMO: a, From: "new-orleans", To: "chiba", Departure: *h(48),
		Arrival: *h(48 + 960), DistanceNM: 9300, FuelTonnes: emissions.Bounds{Low: 800, Central: 1000, High: 1200}}}
	if err := db.WriteVoyageEmissions(ctx, 1, []time.Time{h(48 + 960).Truncate(24 * time.Hour)}, []voyage.Record{leg}); err != nil {
		t.Fatal(err)
	}
	now := testclock.Now().UTC()
	fx.Insert(t, "transport_rates", []string{"mode", "dataset", "source", "commodity", "region", "origin", "destination", "vessel_size",
		"date", "frequency", "rate", "unit", "usd_per_tonne", "benchmark", "published", "fetched_at"},
		[]any{"ocean", "ehs5-yac3", "usda_agtransport", "grain", "Gulf to Japan", "U.S. Gulf", "Japan", "", base.AddDate(0, -1, 0), "monthly",
			55.0, "usd_per_tonne", 55.0, 0.0, base, now},
		[]any{"ocean", "ehs5-yac3", "usda_agtransport", "grain", "Gulf to Japan", "U.S. Gulf", "Japan", "", base.AddDate(0, -2, 0), "monthly",
			math.NaN(), "usd_per_tonne", math.NaN(), 0.0, base, now},
		[]any{"barge", "deqi-uken", "usda_agtransport", "grain", "St. Louis", "", "", "", base, "weekly", 400.0, "pct_of_tariff", 17.6, 3.99, base, now})
	fx.Insert(t, "commodity_prices", []string{"source", "series", "name", "commodity", "date", "frequency", "value", "unit", "currency",
		"usd_per_tonne", "detail", "published", "fetched_at"},
		[]any{"fred", "POILBREUSDM", "Global price of Brent Crude", "crude_oil", base.AddDate(0, -1, 0), "monthly", 80.0, "usd_per_barrel", "USD",
			math.NaN(), "", base, now},
		[]any{"fred", "PWHEAMTUSDM", "Global price of Wheat", "wheat", base, "monthly", 250.0, "usd_per_tonne", "USD", 250.0, "", base, now})

	store := jobs.EarningsStore(db)
	rates, err := store.EarningsOceanRates(ctx)
	if err != nil || len(rates) != 1 || rates[0].USDPerTonne != 55 || rates[0].Origin != "U.S. Gulf" {
		t.Fatalf("ocean rates %+v %v", rates, err)
	}
	prices, err := store.EarningsBrentPrices(ctx)
	if err != nil || len(prices) != 1 || prices[0].USDPerBarrel != 80 || prices[0].Series != "POILBREUSDM" {
		t.Fatalf("brent %+v %v", prices, err)
	}
	res, err := jobs.Earnings(db)(ctx, jobs.State{})
	if err != nil || res.Rows != 4 {
		t.Fatalf("job: %+v %v", res, err)
	}
	all, err := db.VoyageEarnings(ctx, read.EarningsRequest{Limit: 10})
	if err != nil || len(all) != 2 {
		t.Fatalf("voyages %d %v", len(all), err)
	}
	bravo, alpha := all[0], all[1] // newest departure first
	if alpha.IMO != a || alpha.FuelSource != "voyage_emissions" || alpha.FuelTonnes.Central != 1000 || alpha.DWT != 65000 ||
		alpha.Rate.Basis != "dataset" || alpha.Rate.USDPerTonne.Central != 55 || alpha.Bunker.Basis != "brent" || alpha.Bunker.BrentPerBarrel != 80 ||
		alpha.VoyageDays != 45 || alpha.PortDays != 5 || alpha.DistanceNM != 9300 || !alpha.Departure.Equal(*h(48)) {
		t.Errorf("alpha %+v", alpha)
	}
	if want := (55*60000 - 1000*80*7.53 - alpha.PortCosts.Central) / 45; math.Abs(alpha.TCE.Central-want) > 1e-6 || !(alpha.TCE.Low < want) {
		t.Errorf("alpha TCE %+v, want %v", alpha.TCE, want)
	}
	if bravo.IMO != b || bravo.FuelSource != "emissions_model" || bravo.Rate.Basis != "model" || !bravo.Rate.Date.IsZero() || bravo.Name != "BRAVO" {
		t.Errorf("bravo %+v", bravo)
	}
	for _, c := range []struct {
		r    read.EarningsRequest
		want int
	}{{read.EarningsRequest{IMO: a, Limit: 10}, 1}, {read.EarningsRequest{Port: "qingdao", Limit: 10}, 1},
		{read.EarningsRequest{Port: "rotterdam", Limit: 10}, 0}, {read.EarningsRequest{Limit: 1}, 1},
		{read.EarningsRequest{From: *h(60), Limit: 10}, 1}} {
		if got, err := db.VoyageEarnings(ctx, c.r); err != nil || len(got) != c.want {
			t.Errorf("%+v: %d voyages %v, want %d", c.r, len(got), err, c.want)
		}
	}
	weeks, err := db.PortRevenue(ctx, read.PortRevenueRequest{Limit: 10})
	if err != nil || len(weeks) != 2 || weeks[0].Port != "new-orleans" || !weeks[0].Week.Equal(base) || weeks[0].Voyages != 1 ||
		math.Abs(weeks[0].Revenue.Central-55*60000) > 1e-6 || weeks[0].PortCost != alpha.LoadPort {
		t.Fatalf("port revenue %+v %v", weeks, err)
	}
	if got, err := db.PortRevenue(ctx, read.PortRevenueRequest{Port: "santos", Limit: 10}); err != nil || len(got) != 1 {
		t.Errorf("santos: %+v %v", got, err)
	}
	if got, err := db.PortRevenue(ctx, read.PortRevenueRequest{From: base.AddDate(0, 0, 7), Limit: 10}); err != nil || len(got) != 0 {
		t.Errorf("floor: %+v %v", got, err)
	}
	// A re-run replaces the weeks whole.
	if _, err := jobs.DeriveEarnings(ctx, db, base, base.Add(48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, err := db.VoyageEarnings(ctx, read.EarningsRequest{Limit: 10}); err != nil || len(got) != 2 {
		t.Errorf("after a re-run: %d voyages %v", len(got), err)
	}
}
