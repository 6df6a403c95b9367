package read

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// fakeFleetAge is a FleetAgeStore: it records the requests it was asked
// and returns the rows it was given.
type fakeFleetAge struct {
	err     error
	live    []portstats.FleetAgeWeek // without a week
	history []portstats.FleetAgeWeek

	liveReqs    recorder[FleetAgeRequest]
	historyReqs recorder[FleetAgeHistoryRequest]
}

func (f *fakeFleetAge) FleetAge(_ context.Context, r FleetAgeRequest) ([]portstats.FleetAgeWeek, error) {
	f.liveReqs.add(r)
	return f.live, f.err
}

func (f *fakeFleetAge) FleetAgeHistory(_ context.Context, r FleetAgeHistoryRequest) ([]portstats.FleetAgeWeek, error) {
	f.historyReqs.add(r)
	return f.history, f.err
}

// fleetAgeRoutesOf mounts the fleet-age routes on the store, uncached.
func fleetAgeRoutesOf(t *testing.T, s FleetAgeStore) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { fleetAgeRoutes(r, s, nil, fixedNow) })
}

func TestFleetAgeParams(t *testing.T) {
	t.Parallel()
	store := &fakeFleetAge{}
	routes := fleetAgeRoutesOf(t, store)
	expectErrors(t, routes.get("/fleet-age"), "/v1/fleet-age", map[string]errCase{
		"port=atlantis":         {400, "unknown port 'atlantis'"},
		"vessel_type=submarine": {400, "vessel_type must be one of"},
	})
	expectErrors(t, routes.get("/fleet-age/history"), "/v1/fleet-age/history", map[string]errCase{
		"":                              {400, "port is required"},
		"port=nowhere":                  {400, "unknown port 'nowhere'"},
		"port=santos&weeks=0":           {400, "weeks must be an integer from 1 to 52"},
		"port=santos&weeks=60":          {400, "weeks must be an integer from 1 to 52"},
		"port=santos&vessel_type=CARGO": {400, "vessel_type must be one of"},
	})
	if n := store.liveReqs.count() + store.historyReqs.count(); n != 0 {
		t.Errorf("a bad request reached the store %d times", n)
	}
}

func TestAgeProfile(t *testing.T) {
	t.Parallel()
	p, estimated := newAgeProfile([]portstats.FleetAgeWeek{
		{Bucket: "0-5", Vessels: 2, Estimated: 1, MeanAge: 2},
		{Bucket: "20-25", Vessels: 1, MeanAge: 22},
		{Bucket: "25+", Vessels: 3, Estimated: 2, MeanAge: 30},
		{Bucket: "unknown", Vessels: 50, MeanAge: 99}, // not a bucket: ignored
	})
	b, _ := json.Marshal(p)
	want := `{"vessels":6,"mean_age_years":19.3,"buckets":[{"bucket":"0-5","vessels":2,"percentage":33.3},` +
		`{"bucket":"5-10","vessels":0,"percentage":0},{"bucket":"10-15","vessels":0,"percentage":0},{"bucket":"15-20","vessels":0,"percentage":0},` +
		`{"bucket":"20-25","vessels":1,"percentage":16.7},{"bucket":"25+","vessels":3,"percentage":50}],"risk":{"over_20_pct":66.7,"over_25_pct":50}}`
	if string(b) != want || estimated != 3 {
		t.Errorf("got  %s (%d estimated)\nwant %s", b, estimated, want)
	}
	empty, _ := newAgeProfile(nil)
	b, _ = json.Marshal(empty)
	if want := `{"vessels":0,"mean_age_years":null,"buckets":[{"bucket":"0-5","vessels":0,"percentage":null},` +
		`{"bucket":"5-10","vessels":0,"percentage":null},{"bucket":"10-15","vessels":0,"percentage":null},{"bucket":"15-20","vessels":0,"percentage":null},` +
		`{"bucket":"20-25","vessels":0,"percentage":null},{"bucket":"25+","vessels":0,"percentage":null}],"risk":{"over_20_pct":null,"over_25_pct":null}}`; string(b) != want {
		t.Errorf("no vessels: %s", b)
	}
}

func TestFleetAgeItems(t *testing.T) {
	t.Parallel()
	store := &fakeFleetAge{live: []portstats.FleetAgeWeek{
		{Port: "santos", VesselType: "cargo", Bucket: "10-15", Vessels: 4, Estimated: 4, MeanAge: 12},
		{Port: "busan", VesselType: "cargo", Bucket: "0-5", Vessels: 1, MeanAge: 1},
	}}
	h := fleetAgeRoutesOf(t, store).get("/fleet-age")
	status, body, _ := serve(t, overwatch.PlanStarter, h, "/v1/fleet-age?vessel_type=cargo")
	var got struct {
		Items []map[string]any `json:"fleet_age"`
	}
	decode(t, body, &got)
	if status != 200 || len(got.Items) != len(seaport.All()) {
		t.Fatalf("%d %s", status, body)
	}
	for _, it := range got.Items {
		if it["vessel_type"] != "cargo" || it["period_start"] != "2025-12-18T15:30:00Z" || it["period_end"] != "2026-03-18T15:30:00Z" {
			t.Fatalf("item %v", it)
		}
		switch it["port"] {
		case "santos":
			if it["vessels"] != 4.0 || it["estimated_build_years"] != 4.0 || it["mean_age_years"] != 12.0 || it["port_name"] != "Santos" {
				t.Errorf("santos %v", it)
			}
		case "busan":
			if it["vessels"] != 1.0 || it["estimated_build_years"] != 0.0 {
				t.Errorf("busan %v", it)
			}
		default:
			if it["vessels"] != 0.0 || it["mean_age_years"] != nil {
				t.Errorf("%v", it)
			}
		}
	}
	// Every port is one request for all of them ("").
	if r, want := store.liveReqs.last(t), (FleetAgeRequest{Category: "cargo", From: testNow.Add(-FleetAgeWindow), To: testNow, Year: 2026}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanFree, h, "/v1/fleet-age?port=santos")
	if r, want := store.liveReqs.last(t), (FleetAgeRequest{Port: "santos", From: testNow.AddDate(0, 0, -7), To: testNow, Year: 2026}); r != want {
		t.Errorf("Free request %+v, want %+v", r, want)
	}
}

func TestFleetAgeHistoryBody(t *testing.T) {
	t.Parallel()
	w1, w2 := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC)
	store := &fakeFleetAge{history: []portstats.FleetAgeWeek{
		{Week: w1, Port: "santos", VesselType: "all", Bucket: "0-5", Vessels: 1, MeanAge: 3},
		{Week: w1, Port: "santos", VesselType: "all", Bucket: "25+", Vessels: 1, MeanAge: 31},
		{Week: w2, Port: "santos", VesselType: "all", Bucket: "5-10", Vessels: 2, MeanAge: 6},
	}}
	h := fleetAgeRoutesOf(t, store).get("/fleet-age/history")
	status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/fleet-age/history?port=santos&weeks=2")
	var got FleetAgeHistoryBody
	decode(t, body, &got)
	if status != 200 || got.Port != "santos" || got.PortName != "Santos" || got.Weeks != 2 || got.VesselType != nil || len(got.History) != 2 {
		t.Fatalf("%d %s", status, body)
	}
	h1, h2 := got.History[0], got.History[1]
	if h1.WeekStart != "2026-03-09" || h1.Vessels != 2 || *h1.MeanAgeYears != 17 || *h1.Risk.Over25Pct != 50 || *h1.Risk.Over20Pct != 50 ||
		h2.WeekStart != "2026-03-16" || h2.Vessels != 2 || *h2.Buckets[1].Percentage != 100 || *h2.Risk.Over20Pct != 0 {
		t.Errorf("history %s", body)
	}
	if r, want := store.historyReqs.last(t), (FleetAgeHistoryRequest{Port: "santos", VesselType: "all", From: w1}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	store.history = nil
	_, body, _ = serve(t, overwatch.PlanPro, h, "/v1/fleet-age/history?port=santos&vessel_type=tanker")
	if r := store.historyReqs.last(t); body != `{"port":"santos","port_name":"Santos","weeks":12,"vessel_type":"tanker","history":[]}` || r.VesselType != "tanker" {
		t.Errorf("%s %+v", body, r)
	}
}
