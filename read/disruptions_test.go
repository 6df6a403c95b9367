package read

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/chokepoint"
	"overwatch/route"
)

// fakeDisruptions is a DisruptionStore: it records the requests it was
// asked and returns the rows it was given.
type fakeDisruptions struct {
	rows   []chokepoint.Disruption
	counts []chokepoint.Count
	src    DisruptionSources
	pw     []chokepoint.PortWatchDay
	reqs   recorder[DisruptionRequest]
}

func (f *fakeDisruptions) Disruptions(_ context.Context, r DisruptionRequest) ([]chokepoint.Disruption, error) {
	f.reqs.add(r)
	return f.rows, nil
}

func (f *fakeDisruptions) ChokepointTransits(context.Context, time.Time, time.Time) ([]chokepoint.Count, error) {
	return f.counts, nil
}

func (f *fakeDisruptions) DisruptionSources(context.Context) (DisruptionSources, error) {
	return f.src, nil
}

func (f *fakeDisruptions) PortWatchLatest(context.Context) ([]chokepoint.PortWatchDay, error) {
	return f.pw, nil
}

func TestDisruptionsParams(t *testing.T) {
	t.Parallel()
	store := &fakeDisruptions{}
	routes := mount(t, func(r route.Router) { disruptionRoutes(r, store, fixedNow) })
	h := routes.get("/disruptions")
	expectErrors(t, h, "/v1/disruptions", map[string]errCase{
		"hours=0":   {400, "hours must be an integer from 1 to 720"},
		"hours=721": {400, "hours must be an integer from 1 to 720"},
		"hours=abc": {400, "hours must be an integer from 1 to 720"},
		"limit=0":   {400, "limit must be a positive integer (at most"},
		"limit=-3":  {400, "limit must be a positive integer (at most"},
	})
	if n := store.reqs.count(); n != 0 {
		t.Errorf("a bad request reached the store %d times", n)
	}
	// Defaults: the last 24 hours, 20 signals; the query passed as given;
	// the limit clamped by the endpoint and by the plan.
	if status, _, _ := serve(t, overwatch.PlanPro, h, "/v1/disruptions?query=Suez%20Canal"); status != 200 {
		t.Fatalf("status %d", status)
	}
	r := store.reqs.last(t)
	if !r.Since.Equal(testNow.Add(-24*time.Hour).Truncate(time.Minute)) || r.Limit != 20 || r.Query != "Suez Canal" {
		t.Errorf("request %+v", r)
	}
	serve(t, overwatch.PlanPro, h, "/v1/disruptions?hours=720&limit=100")
	if r := store.reqs.last(t); r.Limit != 100 || !r.Since.Equal(testNow.Add(-720*time.Hour).Truncate(time.Minute)) {
		t.Errorf("pro, limit 100: %+v", r)
	}
	serve(t, overwatch.PlanFree, h, "/v1/disruptions?limit=100")
	if r := store.reqs.last(t); r.Limit > 20 {
		t.Errorf("free, limit 100: %d", r.Limit)
	}
}

func TestDisruptionsBody(t *testing.T) {
	t.Parallel()
	day := testNow.Truncate(24 * time.Hour).Add(-24 * time.Hour)
	sig := chokepoint.Signal{Chokepoint: chokepoint.Suez, Kind: chokepoint.KindDiversion, Day: day, Recent: 1, Norm: 8,
		Alternative: chokepoint.CapeGoodHope, AltRecent: 9, AltNorm: 4}
	store := &fakeDisruptions{rows: []chokepoint.Disruption{chokepoint.FromSignal(sig),
		{Kind: chokepoint.KindNews, Source: chokepoint.SourceGDELT, Title: "Strike at the port of Santos", URL: "https://example.com/a",
			SourceName: "example.com", PublishedAt: testNow.Add(-time.Hour), Tone: math.NaN(), Port: "santos"}},
		counts: []chokepoint.Count{{Chokepoint: chokepoint.Suez, Day: day, VesselType: "tanker", Transits: 3}},
		src:    DisruptionSources{TransitsNewest: day.Add(24 * time.Hour), TransitsAt: testNow}, // today, partial: shown as of yesterday
		pw:     []chokepoint.PortWatchDay{{Chokepoint: chokepoint.Suez, Day: day, Tanker: 18, Total: 74}}}
	routes := mount(t, func(r route.Router) { disruptionRoutes(r, store, fixedNow) })
	status, body, _ := serve(t, overwatch.PlanPro, routes.get("/disruptions"), "/v1/disruptions")
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	var got struct {
		Signals     []DisruptionSignal          `json:"signals"`
		Count       int                         `json:"count"`
		Timespan    int                         `json:"timespan_hours"`
		Chokepoints []ChokepointTraffic         `json:"chokepoints"`
		Sources     map[string]DisruptionSource `json:"sources"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got.Count != 2 || got.Timespan != 24 || got.Signals[0].Transits == nil || *got.Signals[0].Transits.Alternative != chokepoint.CapeGoodHope ||
		got.Signals[1].Transits != nil || got.Signals[1].Tone != nil || *got.Signals[1].Port != "santos" || got.Signals[1].Chokepoint != nil {
		t.Errorf("signals %s", body)
	}
	if len(got.Chokepoints) != 8 || got.Chokepoints[0].LatestTotal != 3 || got.Chokepoints[0].LatestByType["tanker"] != 3 ||
		got.Chokepoints[0].PortWatch == nil || got.Chokepoints[0].PortWatch.Total != 74 || got.Chokepoints[1].PortWatch != nil {
		t.Errorf("chokepoints %+v", got.Chokepoints)
	}
	if got.Sources["gdelt"].Status != "no_data" || got.Sources["ais"].Status != "live" || got.Sources["portwatch"].Status != "live" {
		t.Errorf("sources %+v", got.Sources)
	}
}
