package read

import (
	"testing"
	"time"

	"overwatch"
)

func TestEstimatesParams(t *testing.T) {
	expectErrors(t, Estimates(&fakeAnalytics{}, fixedNow), "/v1/estimates", map[string]errCase{
		"port=atlantis": {404, "unknown port 'atlantis'"},
		"limit=0":       {400, "limit must be a positive integer"},
		"limit=ten":     {400, "limit must be a positive integer"},
	})
}

func TestEstimatesBody(t *testing.T) {
	w := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)
	actual := 123456.7
	store := &fakeAnalytics{estimates: []EstimateRow{
		{Week: w, Port: "new-orleans", ISOYear: 2026, ISOWeek: 11, Vessels: 3, Calls: 4, CallsWithDraught: 3, Tonnage: 150000.4, Confidence: 0.6666, Actuals: &actual},
		{Week: w, Port: "santos", ISOYear: 2026, ISOWeek: 11, Tonnage: 0.4},
	}}
	status, body, _ := serve(t, overwatch.PlanPro, Estimates(store, fixedNow), "/v1/estimates?port=santos&limit=300")
	want := `{"estimates":[{"port":"new-orleans","port_name":"New Orleans (Lower Mississippi)","iso_year":2026,"iso_week":11,"week_start":"2026-03-09","vessels":3,"calls":4,"calls_with_draught":3,"tonnage":150000,"confidence":0.67,"usda_actuals":123457},` +
		`{"port":"santos","port_name":"Santos","iso_year":2026,"iso_week":11,"week_start":"2026-03-09","vessels":0,"calls":0,"calls_with_draught":0,"tonnage":0,"confidence":0,"usda_actuals":null}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if f := store.estFilter; f.Port != "santos" || f.Limit != 200 || !f.From.IsZero() {
		t.Errorf("Pro filter %+v", f)
	}
	serve(t, overwatch.PlanFree, Estimates(store, fixedNow), "/v1/estimates")
	if f := store.estFilter; f.Port != "" || f.Limit != 20 || !f.From.Equal(time.Date(2026, 3, 12, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Free filter %+v", f)
	}
	serve(t, overwatch.PlanStarter, Estimates(store, fixedNow), "/v1/estimates")
	if f := store.estFilter; f.Limit != 52 {
		t.Errorf("default limit %+v", f)
	}
}
