package read

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/earnings"
	"overwatch/route"
)

// fakeEarnings is an EarningsStore that records its requests.
type fakeEarnings struct {
	voyages recorder[EarningsRequest]
	weeks   recorder[PortRevenueRequest]
	rows    []earnings.Result
	revenue []earnings.PortWeek
}

func (f *fakeEarnings) VoyageEarnings(_ context.Context, r EarningsRequest) ([]earnings.Result, error) {
	f.voyages.add(r)
	return f.rows, nil
}

func (f *fakeEarnings) PortRevenue(_ context.Context, r PortRevenueRequest) ([]earnings.PortWeek, error) {
	f.weeks.add(r)
	return f.revenue, nil
}

// The earnings handlers: parameters into the store request (the port by
// slug or id, the limit clamped by endpoint and plan, the plan's history
// floor), the items presented with their inputs, 400s naming the
// parameter.
func TestEarningsHandlers(t *testing.T) {
	dep := time.Date(2026, 2, 4, 12, 0, 0, 0, time.UTC)
	store := &fakeEarnings{
		rows: []earnings.Result{{Voyage: earnings.Voyage{IMO: 9559341, Name: "AGIOS", Origin: "new-orleans", Destination: "chiba",
			Commodity: "grain", LoadArrival: dep.Add(-48 * time.Hour), Departure: dep, Arrival: dep.AddDate(0, 0, 40), DischargeDepart: dep.AddDate(0, 0, 42),
			Tonnes: earnings.Bounds{Low: 55000.4, Central: 60000.2, High: 65000.7}, DWT: 65000, DistanceNM: 9233.3,
			FuelTonnes: earnings.Bounds{Low: 800, Central: 1000.04, High: 1200}, FuelSource: "voyage_emissions"},
			VoyageDays: 44, PortDays: 4, SeaDays: 40,
			Rate:   earnings.Rate{USDPerTonne: earnings.Spread(60, 0.1, 0.1), Basis: "dataset", Source: "usda_agtransport:ehs5-yac3 U.S. Gulf → Japan", Date: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)},
			Bunker: earnings.Bunker{USDPerTonne: earnings.Spread(600, 0.15, 0.15), Basis: "default", Source: "default"},
			TCE:    earnings.Bounds{Low: 50000.4, Central: 60000.6, High: 70000}}},
		revenue: []earnings.PortWeek{{Port: "new-orleans", Week: time.Date(2026, 2, 2, 0, 0, 0, 0, time.UTC), Voyages: 2, Tonnes: 120000.4,
			Revenue: earnings.Bounds{Low: 1, Central: 2, High: 3.6}, PortCost: earnings.Bounds{Low: 4, Central: 5, High: 6}}},
	}
	routes := mount(t, func(r route.Router) { earningsRoutes(r, store, nil, fixedNow) })
	if routes.access["GET /earnings"] != overwatch.AccessKey || routes.access["GET /earnings/port-revenue"] != overwatch.AccessKey {
		t.Errorf("access %v", routes.access)
	}
	h := routes.get("/earnings")
	status, body, _ := serve(t, overwatch.PlanPro, h, "/?vessel=9559341&port=chiba&limit=200")
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	if r := store.voyages.last(t); r.IMO != 9559341 || r.Port != "chiba" || r.Limit != 200 {
		t.Errorf("request %+v", r)
	}
	var out struct{ Earnings []VoyageEarning }
	if err := json.Unmarshal([]byte(body), &out); err != nil || len(out.Earnings) != 1 {
		t.Fatalf("%v %s", err, body)
	}
	v := out.Earnings[0]
	if v.IMO != "9559341" || v.OriginName == "" || v.CargoTonnes.Central != 60000 || v.DistanceNM != 9233 || v.Fuel.Tonnes.Central != 1000 ||
		v.FreightRate.Date == nil || *v.FreightRate.Date != "2026-02-01" || v.BunkerPrice.Date != nil || v.BunkerPrice.BrentUSDPerBarrel != nil ||
		v.BunkerPrice.Fuel != "vlsfo" || v.TCEUSDPerDay != (Range{50000, 60001, 70000}) || v.DWT == nil || *v.DWT != 65000 {
		t.Errorf("item %+v", v)
	}
	// Starter: the plan's limit and its 90-day floor.
	serve(t, overwatch.PlanStarter, h, "/")
	if r := store.voyages.last(t); r.Limit != 50 || !r.From.Equal(testNow.AddDate(0, 0, -90).Truncate(time.Minute)) || r.IMO != 0 || r.Port != "" {
		t.Errorf("starter request %+v", r)
	}
	expectErrors(t, h, "/", map[string]errCase{"vessel=12": {400, "vessel"}, "port=atlantis": {400, "port"}, "limit=0": {400, "limit"}})

	h = routes.get("/earnings/port-revenue")
	status, body, _ = serve(t, overwatch.PlanStarter, h, "/?port=new-orleans")
	var rev struct {
		PortRevenue []PortRevenueWeek `json:"port_revenue"`
	}
	if err := json.Unmarshal([]byte(body), &rev); status != 200 || err != nil || len(rev.PortRevenue) != 1 {
		t.Fatalf("%d %v %s", status, err, body)
	}
	if w := rev.PortRevenue[0]; w.WeekStart != "2026-02-02" || w.ISOWeek != 6 || w.Tonnes != 120000 || w.FreightRevenueUSD != (Range{1, 2, 4}) || w.PortName == "" {
		t.Errorf("week %+v", w)
	}
	r := store.weeks.last(t)
	if r.Port != "new-orleans" || r.Limit != 52 || r.From.Weekday() != time.Monday || r.From.Before(testNow.AddDate(0, 0, -90)) ||
		r.From.After(testNow.AddDate(0, 0, -83)) {
		t.Errorf("port revenue request %+v", r)
	}
	expectErrors(t, h, "/", map[string]errCase{"port=atlantis": {400, "port"}, "limit=x": {400, "limit"}})
}
