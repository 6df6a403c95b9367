package e2e

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// routeFixtures is what the trade-route fixtures hold, worked out by hand.
type routeFixtures struct {
	monday            time.Time
	flows             map[string]read.Flow // by week_start + destination, of Santos
	deceiver, honest  overwatch.IMO
	deceiverArrival   time.Time
	honestArrival     time.Time
	honestChangedFrom time.Time
}

// writeRouteFixtures writes port calls (and one vessel's positions) into
// the fresh database: 19 weeks of departures from Santos, 9 a week,
// 10 days to Qingdao or Rizhao (6 to 3 until the shift, arrivals from 4
// weeks ago on, then 3 to 6); from Paranaguá, a vessel declaring Qingdao
// all the way to Rizhao and one whose orders changed from Rizhao to
// Qingdao 4 days before arrival; a vessel loading in the current week.
func writeRouteFixtures(t *testing.T, chURL string, now time.Time) routeFixtures {
	t.Helper()
	fx := chtest.Open(t, chURL)
	m := mondayOf(now)
	f := routeFixtures{monday: m, flows: map[string]read.Flow{}, deceiver: apptest.NextIMO(), honest: apptest.NextIMO()}
	var calls []chtest.PortCall
	load := func(imo overwatch.IMO, port, berth string, dep time.Time, tonnes float64) {
		a := dep.Add(-24 * time.Hour)
		calls = append(calls, chtest.PortCall{IMO: imo, Port: port, Arrival: a, Departure: &dep, BerthZone: berth, Confidence: 4,
			Operation: "load", CargoTonnes: tonnes, CargoQuality: "measured", ShipType: 70, Category: "cargo", Name: "ROUTE " + imo.String()})
	}
	discharge := func(imo overwatch.IMO, port string, arr time.Time, declared, declaredPort string) {
		d := arr.Add(24 * time.Hour)
		calls = append(calls, chtest.PortCall{IMO: imo, Port: port, Arrival: arr, Departure: &d, Confidence: 4, Operation: "discharge",
			CargoQuality: "measured", Declared: declared, DeclaredPort: declaredPort, ShipType: 70, Category: "cargo", Name: "ROUTE " + imo.String()})
	}
	transit := map[string][]float64{}
	for k := 0; k <= 18; k++ {
		week := m.AddDate(0, 0, -7*(20-k))
		for j := 0; j < 9; j++ {
			imo := apptest.NextIMO()
			dest := "qingdao"
			if (k >= 15 && j >= 3) || (k < 15 && j >= 6) {
				dest = "rizhao"
			}
			dep := week.Add(48 * time.Hour)
			tonnes := 50000 + 1000*float64(j)
			load(imo, "santos", "santos-berth-1", dep, tonnes)
			discharge(imo, dest, dep.Add(240*time.Hour+time.Duration(j)*time.Hour), strings.ToUpper(dest), dest)
			key := week.Format(time.DateOnly) + " " + dest
			fl := f.flows[key]
			fl.Voyages++
			fl.Vessels++
			fl.Tonnes += tonnes
			transit[key] = append(transit[key], 10+float64(j)/24) // already in order
			f.flows[key] = fl
		}
	}
	for key, days := range transit { // the median: the middle one, or the mean of the middle two
		fl := f.flows[key]
		fl.MedianTransitDays = (days[(len(days)-1)/2] + days[len(days)/2]) / 2
		f.flows[key] = fl
	}
	f.deceiverArrival = now.Add(-48 * time.Hour).Truncate(time.Second)
	load(f.deceiver, "paranagua", "paranagua-berth-1", f.deceiverArrival.Add(-18*24*time.Hour), 45000)
	discharge(f.deceiver, "rizhao", f.deceiverArrival, "QINGDAO", "qingdao")
	f.honestArrival = now.Add(-20 * 24 * time.Hour).Truncate(time.Second)
	honestDep := f.honestArrival.Add(-20 * 24 * time.Hour)
	load(f.honest, "paranagua", "paranagua-berth-1", honestDep, 47000)
	discharge(f.honest, "qingdao", f.honestArrival, "QINGDAO", "qingdao")
	tail := apptest.NextIMO()
	load(tail, "santos", "santos-berth-1", m.Add(time.Hour), 30000)
	gen := uint64(time.Now().UnixNano())
	fx.InsertPortCalls(t, gen, calls...)
	days := map[time.Time]bool{}
	for _, c := range calls {
		days[c.Arrival.UTC().Truncate(24*time.Hour)] = true
	}
	for d := range days {
		fx.RecordGeneration(t, "port_calls", d, gen)
	}
	// The honest vessel's position reports: RIZHAO until 4 days out, then QINGDAO.
	var rows [][]any
	f.honestChangedFrom = f.honestArrival.Add(-4 * 24 * time.Hour)
	for ts := honestDep.Add(12 * time.Hour); ts.Before(f.honestArrival); ts = ts.Add(6 * time.Hour) {
		dest := "RIZHAO"
		if !ts.Before(f.honestChangedFrom) {
			dest = "QINGDAO"
		}
		rows = append(rows, []any{uint32(f.honest), ts.UTC(), -20.0, 10.0, dest, uint64(len(rows) + 1)})
	}
	fx.Insert(t, "positions", []string{"imo", "ts", "lat", "lon", "destination", "dedup_key"}, rows...)
	return f
}

// The trade-route endpoints end to end: port-call fixtures, the
// trade_routes job run by the jobs command, the three endpoints (JSON and
// CSV) checked against the fixtures, validated against the OpenAPI
// document by s.do, their parameter errors and the tier clamps.
func TestTradeRoutesEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	// The server and the job run at noon on the Wednesday of the tests'
	// week (OVERWATCH_CLOCK_START): the fixtures' weeks are laid out from
	// its Monday, and the vessels timed from now fall in the weeks meant
	// for them whatever the weekday and hour the suite runs at (on a
	// weekend, a departure 40 days before now fell in the week 5 weeks
	// back; just after Monday midnight, the vessel loading in the current
	// week was still in the future).
	now := mondayOf(testclock.Now()).Add(60 * time.Hour)
	chURL, pgURL := chtest.URL(t, "routes_e2e"), pgtest.URL(t, "routes_e2e")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn",
		"OVERWATCH_CLOCK_START": now.Format(time.RFC3339)}
	s := apptest.StartServer(t, env) // migrates both stores
	f := writeRouteFixtures(t, chURL, now)
	var out strings.Builder
	if err := app.Run(context.Background(), []string{"overwatch", "jobs", "--job", "trade_routes"}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, os.Stderr); err != nil {
		t.Fatal(err)
	}
	t.Logf("jobs: %s", out.String())
	free, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-free", overwatch.PlanFree)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-starter", overwatch.PlanStarter)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-pro", overwatch.PlanPro)
	get := func(key, path string, status int) apptest.Response {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", path, r.StatusCode, r.Body, status)
		}
		return r
	}
	decode := func(r apptest.Response, into any) {
		t.Helper()
		if err := json.Unmarshal(r.Body, into); err != nil {
			t.Fatalf("%v: %s", err, r.Body)
		}
	}

	// Flows: every Santos week, as built.
	var flows struct{ Flows []read.Flow }
	decode(get(pro, "/v1/routes/flows?origin=santos&limit=500", 200), &flows)
	if len(flows.Flows) != len(f.flows) {
		t.Fatalf("%d flows from Santos, want %d", len(flows.Flows), len(f.flows))
	}
	for i, fl := range flows.Flows {
		want, ok := f.flows[fl.WeekStart+" "+fl.Destination]
		if !ok || fl.Voyages != want.Voyages || fl.Vessels != want.Vessels || fl.Tonnes != want.Tonnes || fl.Commodity != "grain" ||
			fl.Origin != "santos" || fl.OriginName == "" || fl.MedianTransitDays != math.Round(want.MedianTransitDays*10)/10 {
			t.Errorf("flow %+v, want %+v", fl, want)
		}
		if i > 0 && fl.WeekStart > flows.Flows[i-1].WeekStart {
			t.Errorf("flows not newest week first at %d", i)
		}
	}
	// One week, one destination, the destination by UUID.
	week := f.monday.AddDate(0, 0, -7*5)
	qingdao, _ := seaport.BySlug("qingdao")
	decode(get(starter, "/v1/routes/flows?week="+week.Format(time.DateOnly)+"&destination="+qingdao.ID, 200), &flows)
	if len(flows.Flows) != 1 || flows.Flows[0].Voyages != 3 || flows.Flows[0].Tonnes != 153000 || flows.Flows[0].DestinationName != qingdao.Name {
		t.Errorf("week %s to Qingdao: %+v", week, flows.Flows)
	}
	// History clamps: Starter sees the weeks of the last 90 days, Free
	// none of these (all older than 7 days).
	decode(get(starter, "/v1/routes/flows?origin=santos", 200), &flows)
	floor := now.AddDate(0, 0, -90)
	wantStarter := 0
	for k := range f.flows {
		if w, _ := time.Parse(time.DateOnly, k[:10]); !w.Before(floor) {
			wantStarter++
		}
	}
	if len(flows.Flows) != wantStarter || wantStarter == 0 || wantStarter == len(f.flows) {
		t.Errorf("starter sees %d flows, want %d of %d", len(flows.Flows), wantStarter, len(f.flows))
	}
	decode(get(free, "/v1/routes/flows?limit=500", 200), &flows)
	if len(flows.Flows) != 0 {
		t.Errorf("free sees %d flows older than 7 days", len(flows.Flows))
	}
	decode(get(pro, "/v1/routes/flows?origin=santos&limit=3", 200), &flows)
	if len(flows.Flows) != 3 {
		t.Errorf("limit 3: %d", len(flows.Flows))
	}

	// CSV: the same rows as the JSON; Free has no CSV export.
	r := get(starter, "/v1/routes/flows?origin=santos&format=csv", 200)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") || !strings.Contains(r.Header.Get("Content-Disposition"), "overwatch-route-flows-") {
		t.Errorf("CSV headers: %q %q", ct, r.Header.Get("Content-Disposition"))
	}
	records, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil || len(records) != wantStarter+1 || records[0][0] != "week_start" || records[0][10] != "tonnes" {
		t.Fatalf("CSV: %v, %d records, header %v", err, len(records), records[0])
	}
	for _, rec := range records[1:] {
		want := f.flows[rec[0]+" "+rec[5]]
		if rec[10] != fmt.Sprint(want.Tonnes) || rec[9] != fmt.Sprint(want.Voyages) {
			t.Errorf("CSV row %v, want %+v", rec, want)
		}
	}
	get(free, "/v1/routes/flows?format=csv", 403)

	// Shifts: Santos grain (and all commodities) from Qingdao to Rizhao,
	// a third of the flow: high, from 4 weeks ago.
	var shifts struct{ Shifts []read.Shift }
	decode(get(free, "/v1/routes/shifts", 200), &shifts)
	if len(shifts.Shifts) != 4 {
		t.Fatalf("%d shifts, want 4: %s", len(shifts.Shifts), r.Body)
	}
	for _, sh := range shifts.Shifts {
		gain := sh.Destination == "rizhao"
		if sh.Origin != "santos" || sh.Severity != "high" || sh.BaselineVoyages != 108 || sh.CurrentVoyages != 36 ||
			math.Abs(math.Abs(sh.Change)-0.333) > 0.001 || (sh.Direction == "gaining") != gain ||
			sh.Started != f.monday.AddDate(0, 0, -28).Format(time.DateOnly) || sh.AsOf != f.monday.AddDate(0, 0, -7).Format(time.DateOnly) ||
			len(sh.Gaining) != 1 || sh.Gaining[0].Port != "rizhao" || len(sh.Losing) != 1 || sh.Losing[0].Port != "qingdao" {
			t.Errorf("shift %+v", sh)
		}
		if gain && (math.Abs(sh.BaselineShare-0.333) > 0.001 || math.Abs(sh.CurrentShare-0.667) > 0.001) {
			t.Errorf("rizhao shares %+v", sh)
		}
	}
	decode(get(starter, "/v1/routes/shifts?severity=high&origin=santos&commodity=all", 200), &shifts)
	if len(shifts.Shifts) != 2 {
		t.Errorf("all commodities: %+v", shifts.Shifts)
	}
	decode(get(starter, "/v1/routes/shifts?severity=critical", 200), &shifts)
	if len(shifts.Shifts) != 0 {
		t.Errorf("critical: %+v", shifts.Shifts)
	}

	// Deceptions: the deceiver kept Qingdao until Rizhao (suspicious);
	// the honest vessel changed its orders in time (listed, not flagged).
	var decs struct{ Deceptions []read.Deception }
	decode(get(pro, "/v1/routes/deceptions", 200), &decs)
	if len(decs.Deceptions) != 2 {
		t.Fatalf("%d deceptions, want 2", len(decs.Deceptions))
	}
	d, h := decs.Deceptions[0], decs.Deceptions[1]
	rizhao, _ := seaport.BySlug("rizhao")
	dist := math.Round(geo.DistanceKM(qingdao.Lat, qingdao.Lon, rizhao.Lat, rizhao.Lon)*10) / 10
	if d.IMO != f.deceiver.String() || !d.Suspicious || d.Reason != "declared_port_kept_until_arrival" || d.Declared != "QINGDAO" ||
		d.DeclaredPort != "qingdao" || d.ActualPort != "rizhao" || d.DistanceKM != dist || d.ChangesSource != "calls" ||
		d.Arrival != f.deceiverArrival.Format(time.RFC3339) || d.ChangedAt != nil || !d.SameCountry {
		t.Errorf("deceiver %+v", d)
	}
	if h.IMO != f.honest.String() || h.Suspicious || h.Reason != "change_of_orders" || h.Declared != "RIZHAO" || h.DeclaredPort != "rizhao" ||
		h.ActualPort != "qingdao" || h.DestinationChanges != 1 || h.ChangesSource != "positions" || h.DistanceKM != dist ||
		h.ChangedAt == nil || *h.ChangedAt != f.honestChangedFrom.Format(time.RFC3339) {
		t.Errorf("honest %+v", h)
	}
	decode(get(starter, "/v1/routes/deceptions?suspicious=false&actual_port=qingdao&vessel="+f.honest.String(), 200), &decs)
	if len(decs.Deceptions) != 1 || decs.Deceptions[0].IMO != f.honest.String() {
		t.Errorf("not suspicious: %+v", decs.Deceptions)
	}
	decode(get(starter, "/v1/routes/deceptions?suspicious=true", 200), &decs)
	if len(decs.Deceptions) != 1 || decs.Deceptions[0].IMO != f.deceiver.String() {
		t.Errorf("suspicious: %+v", decs.Deceptions)
	}
	decode(get(free, "/v1/routes/deceptions?limit=500", 200), &decs)
	if len(decs.Deceptions) != 1 || decs.Deceptions[0].IMO != f.deceiver.String() {
		t.Errorf("free (7 days): %+v", decs.Deceptions)
	}

	// Parameter errors name the parameter.
	for path, param := range map[string]string{
		"/v1/routes/flows?week=" + f.monday.AddDate(0, 0, 1).Format(time.DateOnly): "week",
		"/v1/routes/flows?week=last-week":                                          "week",
		"/v1/routes/flows?origin=atlantis":                                         "origin",
		"/v1/routes/flows?destination=atlantis":                                    "destination",
		"/v1/routes/flows?commodity=gold":                                          "commodity",
		"/v1/routes/flows?format=xml":                                              "format",
		"/v1/routes/flows?limit=0":                                                 "limit",
		"/v1/routes/shifts?severity=extreme":                                       "severity",
		"/v1/routes/shifts?origin=" + url.QueryEscape("not a port"):                "origin",
		"/v1/routes/shifts?commodity=gold":                                         "commodity",
		"/v1/routes/deceptions?suspicious=maybe":                                   "suspicious",
		"/v1/routes/deceptions?vessel=123":                                         "vessel",
		"/v1/routes/deceptions?actual_port=atlantis":                               "actual_port",
		"/v1/routes/deceptions?limit=x":                                            "limit",
	} {
		r := get(starter, path, 400)
		if !strings.Contains(string(r.Body), param) {
			t.Errorf("%s: %s does not name %s", path, r.Body, param)
		}
	}
}
