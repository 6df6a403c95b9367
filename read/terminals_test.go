package read

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/terminals"
)

// The dashboards answer exactly the specification's root keys, add up the
// calls of the window at the sector's berths, and hide coordinates from
// Free; a store error is a 500.
func TestTerminalDashboards(t *testing.T) {
	dep := testNow.Add(-time.Hour)
	var asked TerminalCallsRequest
	calls := func(_ context.Context, r TerminalCallsRequest) ([]terminals.Call, error) {
		asked = r
		return []terminals.Call{
			{Port: "ras-laffan", BerthZone: "ras-laffan-berth-1", Arrival: testNow.Add(-30 * time.Hour), Departure: &dep, Operation: "load", DWTEstimate: 100000},
			{Port: "ras-laffan", BerthZone: "ras-laffan-berth-3", Arrival: testNow.Add(-30 * time.Hour), Departure: &dep, Operation: "load", CargoTonnes: 90000},
			{Port: "hay-point", BerthZone: "hay-point-berth-1", Arrival: testNow.Add(-30 * time.Hour), Departure: &dep, Operation: "load", CargoTonnes: 80000},
			{Port: "dampier", BerthZone: "dampier-berth-1", Arrival: testNow.Add(-3 * time.Hour)},
		}, nil
	}
	keys := func(body string) (map[string]json.RawMessage, []string) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatal(err)
		}
		var k []string
		for x := range m {
			k = append(k, x)
		}
		sort.Strings(k)
		return m, k
	}
	status, body, _ := serve(t, overwatch.PlanPro, TerminalDashboard(terminals.SectorLNG, calls, fixedNow), "/v1/lng")
	m, k := keys(body)
	if status != 200 || len(k) != 6 || string(m["departures_7d"]) != "1" || string(m["estimated_volume_7d_tons"]) != "72496" ||
		string(m["total_terminals"]) != "5" || string(m["active_terminals"]) != "1" {
		t.Errorf("lng: %d %v %s", status, k, body)
	}
	if asked.Now != testNow.Truncate(time.Minute) || asked.Since != asked.Now.Add(-7*24*time.Hour) || asked.Ports == "" {
		t.Errorf("asked %+v", asked)
	}
	status, body, _ = serve(t, overwatch.PlanFree, TerminalDashboard(terminals.SectorMining, calls, fixedNow), "/v1/mining")
	m, k = keys(body)
	if status != 200 || len(k) != 6 || string(m["coal_departures_7d"]) != "1" || string(m["iron_ore_departures_7d"]) != "0" ||
		string(m["carriers_at_terminals"]) != "1" {
		t.Errorf("mining: %d %v %s", status, k, body)
	}
	var items []TerminalActivity
	if err := json.Unmarshal(m["terminals"], &items); err != nil || len(items) != 8 || items[0].Latitude != nil {
		t.Errorf("mining terminals for Free: %v %+v", err, items)
	}
	failing := func(context.Context, TerminalCallsRequest) ([]terminals.Call, error) { return nil, errors.New("down") }
	if status, _, _ := serve(t, overwatch.PlanPro, TerminalDashboard(terminals.SectorMining, failing, fixedNow), "/v1/mining"); status != 500 {
		t.Errorf("store error: %d", status)
	}
}

func TestTerminalLists(t *testing.T) {
	for _, c := range []struct {
		sector string
		plan   overwatch.Plan
		n      int
		coords bool
	}{{terminals.SectorLNG, overwatch.PlanPro, 5, true}, {terminals.SectorMining, overwatch.PlanFree, 8, false}} {
		_, body, _ := serve(t, c.plan, TerminalList(c.sector), "/v1/x")
		var r struct {
			Terminals []TerminalMeta `json:"terminals"`
		}
		if err := json.Unmarshal([]byte(body), &r); err != nil || len(r.Terminals) != c.n {
			t.Fatalf("%s: %v %s", c.sector, err, body)
		}
		for _, x := range r.Terminals {
			if (x.Latitude != nil) != c.coords || x.Source == "" || x.Operator.Source == "" || len(x.Berths) == 0 {
				t.Errorf("%s %s: %+v", c.sector, x.ID, x)
			}
		}
	}
}
