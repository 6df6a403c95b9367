package read

import (
	"context"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/route"
)

// fakeEstimates is an EstimateStore: it records the requests it was asked
// and returns the rows it was given.
type fakeEstimates struct {
	err  error
	rows []EstimateRow
	reqs recorder[EstimatesRequest]
}

func (f *fakeEstimates) Estimates(_ context.Context, r EstimatesRequest) ([]EstimateRow, error) {
	f.reqs.add(r)
	return f.rows, f.err
}

// estimatesOf is the GET /estimates handler on the store, uncached.
func estimatesOf(t *testing.T, s EstimateStore) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { estimateRoutes(r, s, nil, nil, fixedNow) })
}

func TestEstimatesParams(t *testing.T) {
	t.Parallel()
	store := &fakeEstimates{}
	expectErrors(t, estimatesOf(t, store).get("/estimates"), "/v1/estimates", map[string]errCase{
		"port=atlantis": {400, "unknown port 'atlantis'"},
		"limit=0":       {400, "limit must be a positive integer (at most"},
		"limit=ten":     {400, "limit must be a positive integer (at most"},
	})
	if n := store.reqs.count(); n != 0 {
		t.Errorf("a bad request reached the store %d times", n)
	}
}

func TestEstimatesBody(t *testing.T) {
	t.Parallel()
	w := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)
	actual := 123456.7
	store := &fakeEstimates{rows: []EstimateRow{
		{EstimateWeek: portstats.EstimateWeek{Week: w, Port: "new-orleans", ISOYear: 2026, ISOWeek: 11, Vessels: 3, Calls: 4, CallsWithDraught: 3, Tonnage: 150000.4, Confidence: 0.6666}, Actuals: &actual},
		{EstimateWeek: portstats.EstimateWeek{Week: w, Port: "santos", ISOYear: 2026, ISOWeek: 11, Tonnage: 0.4}},
	}}
	h := estimatesOf(t, store).get("/estimates")
	status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/estimates?port=santos&limit=200")
	want := `{"estimates":[{"port":"new-orleans","port_name":"New Orleans (Lower Mississippi)","iso_year":2026,"iso_week":11,"week_start":"2026-03-09","vessels":3,"calls":4,"calls_with_draught":3,"tonnage":150000,"confidence":0.67,"usda_actuals":123457,"calibrated_tonnage":150000,"calibration_factor":1,"calibration_source":"none"},` +
		`{"port":"santos","port_name":"Santos","iso_year":2026,"iso_week":11,"week_start":"2026-03-09","vessels":0,"calls":0,"calls_with_draught":0,"tonnage":0,"confidence":0,"usda_actuals":null,"calibrated_tonnage":0,"calibration_factor":1,"calibration_source":"none"}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if r, want := store.reqs.last(t), (EstimatesRequest{Port: "santos", Limit: 200}); r != want {
		t.Errorf("Pro request %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanFree, h, "/v1/estimates")
	if r, want := store.reqs.last(t), (EstimatesRequest{From: time.Date(2026, 3, 12, 0, 0, 0, 0, time.UTC), Limit: 20}); r != want {
		t.Errorf("Free request %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanStarter, h, "/v1/estimates")
	if r := store.reqs.last(t); r.Limit != 52 {
		t.Errorf("default limit %+v", r)
	}
}
