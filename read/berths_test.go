package read

import (
	"context"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// fakeBerths is a BerthStore: it records the requests it was asked and
// returns the rows it was given.
type fakeBerths struct {
	err   error
	usage []BerthUsageRow
	weeks []portstats.BerthWeek

	usageReqs recorder[BerthUsageRequest]
	weekReqs  recorder[BerthWeeksRequest]
}

func (f *fakeBerths) BerthUsage(_ context.Context, r BerthUsageRequest) ([]BerthUsageRow, error) {
	f.usageReqs.add(r)
	return f.usage, f.err
}

func (f *fakeBerths) BerthWeeks(_ context.Context, r BerthWeeksRequest) ([]portstats.BerthWeek, error) {
	f.weekReqs.add(r)
	return f.weeks, f.err
}

// berthRoutesOf mounts the berth routes on the store, uncached.
func berthRoutesOf(t *testing.T, s BerthStore) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { berthRoutes(r, s, nil, fixedNow) })
}

func TestBerthParams(t *testing.T) {
	t.Parallel()
	store := &fakeBerths{}
	routes := berthRoutesOf(t, store)
	expectErrors(t, routes.get("/berth-utilization"), "/v1/berth-utilization", map[string]errCase{
		"port=atlantis": {400, "unknown port 'atlantis'"},
	})
	expectErrors(t, routes.get("/berth-utilization/weekly"), "/v1/berth-utilization/weekly", map[string]errCase{
		"":                                  {400, "port is required"},
		"port=atlantis":                     {400, "unknown port 'atlantis'"},
		"port=santos&zone_id=busan-berth-1": {404, "unknown berth zone 'busan-berth-1' at port 'santos'"},
		"port=santos&weeks=0":               {400, "weeks must be an integer from 1 to 52"},
		"port=santos&weeks=53":              {400, "weeks must be an integer from 1 to 52"},
		"port=santos&weeks=1e3":             {400, "weeks must be an integer from 1 to 52"},
		"port=santos&zone_id=santos-berth-1&weeks=-1": {400, "weeks must be"},
	})
	if n := store.usageReqs.count() + store.weekReqs.count(); n != 0 {
		t.Errorf("a bad request reached the store %d times", n)
	}
}

func TestBerthUtilizationItems(t *testing.T) {
	t.Parallel()
	santos := mustPort("santos")
	z1, z2 := santos.Berths[0], santos.Berths[1]
	dwell := 30.04
	store := &fakeBerths{usage: []BerthUsageRow{
		{Port: "santos", ZoneID: z1.ID, OccupiedHours: 100.04, Vessels: 3, Stays: 2, MeanDwellHours: &dwell},
		{Port: "santos", ZoneID: z2.ID, OccupiedHours: 10000, Vessels: 9},
	}}
	status, body, _ := serve(t, overwatch.PlanStarter, berthRoutesOf(t, store).get("/berth-utilization"), "/v1/berth-utilization?port=santos")
	var got struct {
		Items []ZoneUtilization `json:"berth_utilization"`
	}
	decode(t, body, &got)
	if status != 200 || len(got.Items) != len(santos.Berths) {
		t.Fatalf("%d %s", status, body)
	}
	a, b := got.Items[0], got.Items[1]
	avail := 168 * float64(z1.Capacity)
	if a.ZoneID != z1.ID || a.ZoneName != z1.Name || a.Capacity != z1.Capacity || a.OccupiedHours != 100 || a.AvailableHours != avail ||
		a.Utilization != roundTo(100.04/avail, 3) || a.VesselsServed != 3 || a.MeanDwellHours == nil || *a.MeanDwellHours != 30 ||
		a.PeriodStart != "2026-03-11T15:30:00Z" || a.PeriodEnd != "2026-03-18T15:30:00Z" || a.PortName != "Santos" {
		t.Errorf("zone 1: %+v", a)
	}
	if b.Utilization != 1 || b.MeanDwellHours != nil {
		t.Errorf("utilisation is capped at 1 and a zone without stays has no dwell: %+v", b)
	}
	if r, want := store.usageReqs.last(t), (BerthUsageRequest{Port: "santos", From: testNow.Add(-BerthWindow), To: testNow}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	empty := &fakeBerths{}
	status, body, _ = serve(t, overwatch.PlanFree, berthRoutesOf(t, empty).get("/berth-utilization"), "/v1/berth-utilization")
	decode(t, body, &got)
	zones := 0
	for _, p := range seaport.All() {
		zones += len(p.Berths)
	}
	if status != 200 || len(got.Items) != zones || got.Items[0].Port != "alexandria" || got.Items[0].Utilization != 0 || got.Items[0].VesselsServed != 0 {
		t.Fatalf("every zone of every port: %d items of %d", len(got.Items), zones)
	}
	// Every port is one request for all of them (""); Free's window is its
	// 7 days of history.
	if r, want := empty.usageReqs.last(t), (BerthUsageRequest{From: testNow.Add(-BerthWindow), To: testNow}); r != want {
		t.Errorf("every port: request %+v, want %+v", r, want)
	}
}

func TestBerthWeeklyBody(t *testing.T) {
	t.Parallel()
	monday := time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC)
	store := &fakeBerths{weeks: []portstats.BerthWeek{
		{Week: monday, Port: "santos", ZoneID: "santos-berth-1", ZoneName: "T1", Capacity: 2, OccupiedHours: 100.06, AvailableHours: 336, Utilization: 0.29779, Vessels: 2, Stays: 0, MeanDwellHours: 0},
		{Week: monday, Port: "santos", ZoneID: "santos-berth-2", ZoneName: "T2", Capacity: 1, OccupiedHours: 170, AvailableHours: 168, Utilization: 1.01, Vessels: 1, Stays: 1, MeanDwellHours: 170},
	}}
	h := berthRoutesOf(t, store).get("/berth-utilization/weekly")
	status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/berth-utilization/weekly?port=santos&zone_id=santos-berth-1&weeks=4")
	want := `{"port":"santos","port_name":"Santos","port_country":"BR","weeks":4,"berth_utilization_weekly":[` +
		`{"week_start":"2026-03-16","zone_id":"santos-berth-1","zone_name":"T1","capacity":2,"occupied_hours":100.1,"available_hours":336,"utilization":0.298,"vessels_served":2,"stays":0,"mean_dwell_hours":null},` +
		`{"week_start":"2026-03-16","zone_id":"santos-berth-2","zone_name":"T2","capacity":1,"occupied_hours":170,"available_hours":168,"utilization":1,"vessels_served":1,"stays":1,"mean_dwell_hours":170}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if r, want := store.weekReqs.last(t), (BerthWeeksRequest{Port: "santos", ZoneID: "santos-berth-1", From: monday.AddDate(0, 0, -21)}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	_, body, _ = serve(t, overwatch.PlanFree, h, "/v1/berth-utilization/weekly?port=santos")
	// Free's floor is 7 days back: the first midnight after it, so weeks
	// from this Monday on.
	if r, want := store.weekReqs.last(t), (BerthWeeksRequest{Port: "santos", From: time.Date(2026, 3, 12, 0, 0, 0, 0, time.UTC)}); r != want || !strings.Contains(body, `"weeks":12`) {
		t.Errorf("Free sees this week only: %+v (want %+v) %s", r, want, body)
	}
}
