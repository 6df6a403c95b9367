package read

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch"
	"overwatch/route"
)

// fakeFreight is a FreightRateQuery and a FreightDatasetStore.
type fakeFreight struct {
	own       []overwatch.FreightRecord
	aggs      []FreightAggregate
	published []OceanRate

	ownReqs     recorder[string]
	aggReqs     recorder[FreightAggregateRequest]
	publishReqs recorder[freightPublish]
}

// freightPublish is a PublishFreightWeeks call.
type freightPublish struct {
	now             time.Time
	minContributors int
}

func (f *fakeFreight) PublishFreightWeeks(_ context.Context, now time.Time, minContributors int) (int, int, error) {
	f.publishReqs.add(freightPublish{now, minContributors})
	return 0, 0, nil
}

func (f *fakeFreight) OwnFreightRates(_ context.Context, _ int64, vesselType string, limit int) ([]overwatch.FreightRecord, error) {
	f.ownReqs.add(vesselType)
	var out []overwatch.FreightRecord
	for _, r := range f.own {
		if vesselType == "" || r.VesselType == vesselType {
			out = append(out, r)
		}
	}
	return out[:min(len(out), limit)], nil
}

func (f *fakeFreight) FreightAggregates(_ context.Context, r FreightAggregateRequest) ([]FreightAggregate, error) {
	f.aggReqs.add(r)
	var out []FreightAggregate
	for _, a := range f.aggs {
		if r.VesselType == "" || a.VesselType == r.VesselType {
			out = append(out, a)
		}
	}
	return out, nil
}

func (f *fakeFreight) OceanRates(context.Context, OceanRateRequest) ([]OceanRate, error) {
	return f.published, nil
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// The published rows of the AgTransport ocean datasets map to classes by
// their cargo-size band (the bands of dataset 2n8s-739j), or by dataset.
func TestFreightClassOf(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dataset, size, want string
	}{
		{"2n8s-739j", "25,000-30,000", "handysize"},
		{"2n8s-739j", "50,000-55,000", "supramax"},
		{"2n8s-739j", "60,000-70,000", "panamax"},
		{"2n8s-739j", "5,000-6,000", ""},
		{"2n8s-739j", "3,000", ""},
		{"2n8s-739j", "150,000-180,000", "capesize"},
		{"2n8s-739j", "large", ""},
		{"ehs5-yac3", "", "panamax"},
		{"other", "", ""},
	} {
		got, ok := FreightClassOf(OceanRate{Dataset: c.dataset, VesselSize: c.size})
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s %q: %q %v, want %q", c.dataset, c.size, got, ok, c.want)
		}
	}
}

func TestFreightRatesParams(t *testing.T) {
	t.Parallel()
	f := &fakeFreight{}
	routes := mount(t, func(r route.Router) { freightRoutes(r, f, f, nil, fixedNow, 0) })
	if routes.access["GET /freight-rates"] != overwatch.AccessKey {
		t.Error("GET /freight-rates is not keyed")
	}
	expectErrors(t, routes.get("/freight-rates"), "/v1/freight-rates", map[string]errCase{
		"vessel_type=submarine": {400, "vessel_type must be one of handysize, supramax, panamax"},
		"vessel_type=Panamax":   {400, "vessel_type must be one of"},
		"limit=0":               {400, "limit must be a positive integer (at most"},
		"limit=x":               {400, "limit must be a positive integer (at most"},
	})
	if f.ownReqs.count()+f.aggReqs.count()+f.publishReqs.count() != 0 {
		t.Error("a bad request reached the store")
	}
}

// Own records, aggregates and published rates in one list, newest first,
// each with its source; the vessel type filters the published rows by
// class; the plan's depth counts back from each series' newest row.
func TestFreightRatesCombined(t *testing.T) {
	t.Parallel()
	created := testNow.Add(-time.Hour)
	f := &fakeFreight{
		own: []overwatch.FreightRecord{{ID: 7, VesselType: "panamax", Origin: "new-orleans", Destination: "rotterdam", Rate: 45.5,
			Unit: "usd_per_tonne", Date: day("2026-03-16"), Notes: "fixture", CreatedAt: created}},
		aggs: []FreightAggregate{{VesselType: "panamax", Origin: "santos", Destination: "qingdao", Unit: "usd_per_tonne",
			Week: day("2026-03-09"), Rate: 40.7, Count: 6, Contributors: 5},
			{VesselType: "panamax", Origin: "santos", Destination: "rizhao", Unit: "usd_per_tonne", // below the floor: never shown
				Week: day("2026-03-09"), Rate: 40, Count: 3, Contributors: 3}},
		published: []OceanRate{
			{Dataset: "ehs5-yac3", Commodity: "grain", Origin: "U.S. Gulf", Destination: "Japan", Date: day("2026-02-01"),
				Frequency: "monthly", Rate: 68.95, Unit: "usd_per_tonne", USDPerTonne: 68.95},
			{Dataset: "ehs5-yac3", Commodity: "grain", Origin: "U.S. Gulf", Destination: "Japan", Date: day("2026-01-01"),
				Frequency: "monthly", Rate: 71.19, Unit: "usd_per_tonne", USDPerTonne: 71.19},
			{Dataset: "2n8s-739j", Commodity: "wheat", Origin: "Odesa", Destination: "Alexandria,Egypt", VesselSize: "25,000-30,000",
				Date: day("2025-10-01"), Frequency: "quarterly", Rate: 20.43, Unit: "usd_per_tonne", USDPerTonne: 20.43},
			{Dataset: "2n8s-739j", Commodity: "wheat", Origin: "Izmail", Destination: "Alexandria,Egypt", VesselSize: "5,000-6,000",
				Date: day("2025-10-01"), Frequency: "quarterly", Rate: 30, Unit: "usd_per_tonne", USDPerTonne: 30},
			{Dataset: "ehs5-yac3", Commodity: "grain", Origin: "", Destination: "", Date: day("2026-02-01"),
				Frequency: "monthly", Rate: 33, Unit: "usd_per_tonne", USDPerTonne: math.NaN()}, // a spread, no route
		},
	}
	routes := mount(t, func(r route.Router) { freightRoutes(r, f, f, nil, fixedNow, 0) })
	h := routes.get("/freight-rates")

	status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/freight-rates")
	var got struct {
		FreightRates []FreightRate `json:"freight_rates"`
	}
	decode(t, body, &got)
	if status != 200 || len(got.FreightRates) != 5 {
		t.Fatalf("%d %s", status, body)
	}
	want := []struct{ source, vt, date string }{
		{"own", "panamax", "2026-03-16"}, {"contributions", "panamax", "2026-03-09"}, {"ehs5-yac3", "panamax", "2026-02-01"},
		{"ehs5-yac3", "panamax", "2026-01-01"}, {"2n8s-739j", "handysize", "2025-10-01"},
	}
	for i, w := range want {
		r := got.FreightRates[i]
		if r.Source != w.source || r.VesselType != w.vt || r.Date != w.date {
			t.Errorf("row %d: %+v, want %v", i, r, w)
		}
	}
	own, agg, pub := got.FreightRates[0], got.FreightRates[1], got.FreightRates[2]
	if own.ID == nil || *own.ID != 7 || own.Notes == nil || *own.Notes != "fixture" || own.Period != "day" || own.Count != nil {
		t.Errorf("own: %+v", own)
	}
	if agg.Rate != 40.7 || *agg.Count != 6 || *agg.Contributors != 5 || agg.Period != "week" || agg.ID != nil {
		t.Errorf("aggregate: %+v", agg)
	}
	if pub.Rate != 68.95 || pub.Period != "month" || pub.Attribution == "" || pub.Origin != "U.S. Gulf" || pub.ID != nil {
		t.Errorf("published: %+v", pub)
	}
	if r := f.aggReqs.all()[0]; !r.Since.IsZero() || r.Limit != 50 {
		t.Errorf("aggregate request %+v", r)
	}
	// Every read first publishes the weeks that have ended, with k.
	if p := f.publishReqs.all(); len(p) != 1 || !p[0].now.Equal(testNow) || p[0].minContributors != FreightMinContributors {
		t.Errorf("publication before the read: %+v", p)
	}

	// vessel_type filters; limit cuts the newest first.
	status, body, _ = serve(t, overwatch.PlanPro, h, "/v1/freight-rates?vessel_type=handysize")
	decode(t, body, &got)
	if status != 200 || len(got.FreightRates) != 1 || got.FreightRates[0].CargoSize != "25,000-30,000" || got.FreightRates[0].Period != "quarter" {
		t.Errorf("handysize: %d %s", status, body)
	}
	_, body, _ = serve(t, overwatch.PlanPro, h, "/v1/freight-rates?limit=2")
	decode(t, body, &got)
	if len(got.FreightRates) != 2 {
		t.Errorf("limit 2: %s", body)
	}

	// The free plan (7 days) sees each series' newest month only, and
	// aggregates from its history floor.
	_, body, _ = serve(t, overwatch.PlanFree, h, "/v1/freight-rates")
	decode(t, body, &got)
	var dates []string
	for _, r := range got.FreightRates {
		dates = append(dates, r.Source+" "+r.Date)
	}
	if len(got.FreightRates) != 4 || got.FreightRates[3].Date != "2025-10-01" {
		t.Errorf("free plan: %v", dates)
	}
	reqs := f.aggReqs.all()
	if r := reqs[len(reqs)-1]; !r.Since.Equal(testNow.AddDate(0, 0, -7)) {
		t.Errorf("free plan aggregate request %+v", r)
	}
}

// Whatever values two accounts post beside three others, the pooled rate
// depends on the others only through their sum: sets of others with the
// same sum give the same answer to every pair of values the two may try,
// so sweeping their own values isolates none of the others (the median of
// 1, x, 499 is x; a trimmed mean that keeps x but not its neighbours
// gives it away too).
func TestPooledFreightRateTellsOnlyTheSum(t *testing.T) {
	t.Parallel()
	others := [][]float64{{30, 35, 40}, {31, 33, 41}, {20, 35, 50}, {1, 52, 52}}
	for a := 1.0; a <= 500; a += 3.5 {
		for b := 1.0; b <= 500; b += 11.25 {
			want := PooledFreightRate(append([]float64{a, b}, others[0]...))
			for _, o := range others[1:] {
				if got := PooledFreightRate(append([]float64{b, a}, o...)); got != want {
					t.Fatalf("posting %g and %g tells %v from %v: %g vs %g", a, b, o, others[0], got, want)
				}
			}
		}
	}
	if got := PooledFreightRate([]float64{1, 30, 499}); got == 30 {
		t.Error("the pooled rate is a contributor's value")
	}
}

// A route's contributions to a week are published only from k accounts
// on, every account counted (the reader's too), k never below the floor;
// the published rate is the mean of the accounts' values, with the counts.
func TestPublishFreightAggregate(t *testing.T) {
	t.Parallel()
	week := day("2026-03-09")
	c := FreightContributions{VesselType: "capesize", Origin: "tubarao", Destination: "qingdao", Unit: "usd_per_tonne",
		Values: []float64{30, 37.25, 44, 45}, Count: 7}
	if _, ok := PublishFreightAggregate(c, week, 5); ok {
		t.Error("four accounts published where five are required")
	}
	for _, k := range []int{2, 3, 4} { // below the floor: the floor
		if _, ok := PublishFreightAggregate(FreightContributions{Values: []float64{1, 2, 3}, Count: 3}, week, k); ok {
			t.Errorf("k %d: three accounts published", k)
		}
	}
	a, ok := PublishFreightAggregate(c, week, 4)
	if !ok || a.Rate != 39.06 || a.Count != 7 || a.Contributors != 4 || !a.Week.Equal(week) || a.Origin != "tubarao" {
		t.Errorf("published %+v %v", a, ok)
	}
	if _, ok := PublishFreightAggregate(FreightContributions{Values: []float64{1, 2, 3, 4}, Count: 4}, week, 0); ok {
		t.Error("k 0 is not the default of five")
	}
}
