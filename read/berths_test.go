package read

import (
	"strings"
	"testing"
	"time"

	"overwatch/maritime/seaport"

	"overwatch"
)

func TestBerthParams(t *testing.T) {
	store := &fakeAnalytics{}
	expectErrors(t, BerthUtilization(store, fixedNow), "/v1/berth-utilization", map[string]errCase{
		"port=atlantis": {404, "unknown port 'atlantis'"},
	})
	expectErrors(t, BerthWeekly(store, fixedNow), "/v1/berth-utilization/weekly", map[string]errCase{
		"":                                  {400, "port is required"},
		"port=atlantis":                     {404, "unknown port 'atlantis'"},
		"port=santos&zone_id=busan-berth-1": {404, "unknown berth zone 'busan-berth-1' at port 'santos'"},
		"port=santos&weeks=0":               {400, "weeks must be an integer from 1 to 52"},
		"port=santos&weeks=53":              {400, "weeks must be an integer from 1 to 52"},
		"port=santos&weeks=1e3":             {400, "weeks must be an integer from 1 to 52"},
		"port=santos&zone_id=santos-berth-1&weeks=-1": {400, "weeks must be"},
	})
}

func TestBerthUtilizationItems(t *testing.T) {
	santos, _ := seaport.BySlug("santos")
	z1, z2 := santos.Berths[0], santos.Berths[1]
	dwell := 30.04
	store := &fakeAnalytics{usage: []BerthUsageRow{
		{Port: "santos", ZoneID: z1.ID, OccupiedHours: 100.04, Vessels: 3, Stays: 2, MeanDwellHours: &dwell},
		{Port: "santos", ZoneID: z2.ID, OccupiedHours: 10000, Vessels: 9},
	}}
	status, body, _ := serve(t, overwatch.PlanStarter, BerthUtilization(store, fixedNow), "/v1/berth-utilization?port=santos")
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
	if a := store.usageArgs; a[0] != 1 || !a[1].(time.Time).Equal(testNow.Add(-BerthWindow)) || !a[2].(time.Time).Equal(testNow) {
		t.Errorf("args %v", a)
	}
	status, body, _ = serve(t, overwatch.PlanFree, BerthUtilization(&fakeAnalytics{}, fixedNow), "/v1/berth-utilization")
	decode(t, body, &got)
	zones := 0
	for _, p := range seaport.All() {
		zones += len(p.Berths)
	}
	if status != 200 || len(got.Items) != zones || got.Items[0].Port != "alexandria" || got.Items[0].Utilization != 0 || got.Items[0].VesselsServed != 0 {
		t.Fatalf("every zone of every port: %d items of %d", len(got.Items), zones)
	}
}

func TestBerthWeeklyBody(t *testing.T) {
	monday := time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC)
	store := &fakeAnalytics{weeks: []BerthWeekRow{
		{Week: monday, ZoneID: "santos-berth-1", ZoneName: "T1", Capacity: 2, OccupiedHours: 100.06, AvailableHours: 336, Utilization: 0.29779, Vessels: 2, Stays: 0, MeanDwellHours: 0},
		{Week: monday, ZoneID: "santos-berth-2", ZoneName: "T2", Capacity: 1, OccupiedHours: 170, AvailableHours: 168, Utilization: 1.01, Vessels: 1, Stays: 1, MeanDwellHours: 170},
	}}
	status, body, _ := serve(t, overwatch.PlanPro, BerthWeekly(store, fixedNow), "/v1/berth-utilization/weekly?port=santos&zone_id=santos-berth-1&weeks=4")
	want := `{"port":"santos","port_name":"Santos","port_country":"BR","weeks":4,"berth_utilization_weekly":[` +
		`{"week_start":"2026-03-16","zone_id":"santos-berth-1","zone_name":"T1","capacity":2,"occupied_hours":100.1,"available_hours":336,"utilization":0.298,"vessels_served":2,"stays":0,"mean_dwell_hours":null},` +
		`{"week_start":"2026-03-16","zone_id":"santos-berth-2","zone_name":"T2","capacity":1,"occupied_hours":170,"available_hours":168,"utilization":1,"vessels_served":1,"stays":1,"mean_dwell_hours":170}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if a := store.weeksArgs; a[0] != "santos" || a[1] != "santos-berth-1" || !a[2].(time.Time).Equal(monday.AddDate(0, 0, -21)) {
		t.Errorf("args %v", a)
	}
	_, body, _ = serve(t, overwatch.PlanFree, BerthWeekly(store, fixedNow), "/v1/berth-utilization/weekly?port=santos")
	// Free's floor is 7 days back: the first midnight after it, so weeks
	// from this Monday on.
	if a := store.weeksArgs; a[1] != "" || !a[2].(time.Time).Equal(time.Date(2026, 3, 12, 0, 0, 0, 0, time.UTC)) || !strings.Contains(body, `"weeks":12`) {
		t.Errorf("Free sees this week only: %v %s", a, body)
	}
}
