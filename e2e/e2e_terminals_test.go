package e2e

import (
	"math"
	"overwatch"
	"overwatch/apptest"
	"overwatch/maritime/terminals"
	"overwatch/read"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// terminalDashboard is the JSON of GET /v1/lng and /v1/mining.
type terminalDashboard struct {
	Carriers   int                     `json:"carriers_at_terminals"`
	Volume     float64                 `json:"estimated_volume_7d_tons"`
	Departures int                     `json:"departures_7d"`
	Active     *int                    `json:"active_terminals"`
	Total      *int                    `json:"total_terminals"`
	Coal       *int                    `json:"coal_departures_7d"`
	IronOre    *int                    `json:"iron_ore_departures_7d"`
	Terminals  []read.TerminalActivity `json:"terminals"`
}

// The four terminal endpoints through the real pipeline: a seeded
// simulation of the last days, the port-call job, the server on the same
// databases. Departures in the last 7 days match the simulator's truth
// exactly, per terminal and commodity, and the estimated volumes lie
// within 10 % of the true cargoes; Free sees no coordinates; no key, 401.
func TestTerminalsEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	began := time.Now()
	r := simulateRecent(t, "terminals_e2e", 21, 200, 10)
	out := &apptest.SyncWriter{}
	r.Command(t, out, "jobs", "--job", "port_calls")
	t.Logf("simulated and derived in %s\n%s", time.Since(began).Round(time.Millisecond), out)
	truth := readTruthCalls(t, r.TruthPath)

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL})
	free, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-free", overwatch.PlanFree)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-pro", overwatch.PlanPro)
	get := func(key, path string, status int) []byte {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", path, resp.StatusCode, resp.Body, status)
		}
		return resp.Body
	}
	for _, p := range []string{"/v1/lng", "/v1/lng/terminals", "/v1/mining", "/v1/mining/terminals"} {
		get("", p, 401)
	}

	// expected adds up the truth's calls at the sector's terminal berths
	// that left in (now-7d, now], of those the simulation could see (up
	// to its end).
	type want struct {
		departures int
		by         map[string]int
		volume     float64
	}
	expected := func(sector string, now time.Time) map[string]*want {
		m := map[string]*want{}
		for _, x := range terminals.Of(sector) {
			m[x.ID] = &want{by: map[string]int{}}
		}
		for _, c := range truth {
			for _, x := range terminals.Of(sector) {
				com := x.CommodityOf(c.BerthZone)
				if c.Port != x.ID || com == "" || !c.Departure.After(now.Add(-terminals.Window)) || c.Departure.After(now) || c.Departure.After(r.End) {
					continue
				}
				w := m[x.ID]
				w.departures++
				w.by[com]++
				if c.Operation == "load" {
					w.volume += c.CargoTonnes
				}
			}
		}
		return m
	}
	check := func(sector, path string) terminalDashboard {
		t.Helper()
		for attempt := 0; ; attempt++ {
			before := read.Minute(testclock.Now().UTC())
			var d terminalDashboard
			apptest.MustUnmarshal(t, get(pro, path, 200), &d)
			if read.Minute(testclock.Now().UTC()) != before && attempt < 3 {
				continue // the minute turned during the request
			}
			exp := expected(sector, before)
			if len(d.Terminals) != len(terminals.Of(sector)) {
				t.Fatalf("%s: %d terminals", path, len(d.Terminals))
			}
			var deps, coal, iron int
			var vol, trueVol float64
			for _, a := range d.Terminals {
				w := exp[a.ID]
				deps += a.Departures7d
				coal += a.DeparturesBy[overwatch.CommodityCoal]
				iron += a.DeparturesBy[overwatch.CommodityIronOre]
				vol += a.EstimatedVolume7dT
				trueVol += w.volume
				if a.Departures7d != w.departures {
					t.Errorf("%s %s: %d departures, truth %d", path, a.ID, a.Departures7d, w.departures)
				}
				for k, n := range w.by {
					if a.DeparturesBy[k] != n {
						t.Errorf("%s %s: %d %s departures, truth %d", path, a.ID, a.DeparturesBy[k], k, n)
					}
				}
				inPort := 0 // truth calls at the port still going on when the simulation ended
				for _, c := range truth {
					if c.Port == a.ID && !c.Arrival.After(r.End) && c.Departure.After(r.End) {
						inPort++
					}
				}
				if a.CarriersNow > inPort {
					t.Errorf("%s %s: %d carriers now, but only %d vessels were at the port as the simulation ended", path, a.ID, a.CarriersNow, inPort)
				}
				if a.Latitude == nil || a.Longitude == nil {
					t.Errorf("%s %s: Pro sees no coordinates", path, a.ID)
				}
				t.Logf("%s %-24s now %d, departures %d (truth %d) %v, volume %.0f t (truth %.0f t)", sector, a.ID, a.CarriersNow,
					a.Departures7d, w.departures, a.DeparturesBy, a.EstimatedVolume7dT, w.volume)
			}
			if d.Departures != deps || math.Abs(d.Volume-vol) > 1 {
				t.Errorf("%s: totals %d departures, %.0f t; terminals add up to %d, %.0f t", path, d.Departures, d.Volume, deps, vol)
			}
			if deps == 0 {
				t.Errorf("%s: no departures in the simulation: the check checks nothing", path)
			}
			if trueVol > 0 && math.Abs(vol-trueVol) > 0.1*trueVol {
				t.Errorf("%s: volume %.0f t, truth %.0f t (%.1f %%)", path, vol, trueVol, 100*(vol-trueVol)/trueVol)
			}
			if sector == terminals.SectorMining && (d.Coal == nil || d.IronOre == nil || *d.Coal != coal || *d.IronOre != iron) {
				t.Errorf("%s: coal/iron ore split %v/%v, terminals %d/%d", path, d.Coal, d.IronOre, coal, iron)
			}
			if sector == terminals.SectorLNG && (d.Total == nil || *d.Total != 5 || d.Active == nil) {
				t.Errorf("%s: total %v active %v", path, d.Total, d.Active)
			}
			return d
		}
	}
	check(terminals.SectorLNG, "/v1/lng")
	check(terminals.SectorMining, "/v1/mining")

	// Free: the same dashboard without coordinates.
	var fd terminalDashboard
	apptest.MustUnmarshal(t, get(free, "/v1/mining", 200), &fd)
	for _, a := range fd.Terminals {
		if a.Latitude != nil || a.Longitude != nil {
			t.Errorf("free sees the coordinates of %s", a.ID)
		}
	}

	// The metadata, with its sources; coordinates by tier.
	var meta struct {
		Terminals []read.TerminalMeta `json:"terminals"`
	}
	apptest.MustUnmarshal(t, get(pro, "/v1/lng/terminals", 200), &meta)
	if len(meta.Terminals) != 5 || !strings.Contains(meta.Terminals[0].Source, "CC BY 4.0") || meta.Terminals[0].Latitude == nil {
		t.Errorf("lng terminals: %+v", meta.Terminals)
	}
	apptest.MustUnmarshal(t, get(free, "/v1/mining/terminals", 200), &meta)
	if len(meta.Terminals) != 8 || meta.Terminals[0].Latitude != nil || meta.Terminals[0].Operator.Source == "" {
		t.Errorf("mining terminals for free: %+v", meta.Terminals)
	}
}
