package read

import (
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/maritime/trade"
	"overwatch/route"
)

// fakeRoutes is a RouteStore: it records the requests and returns the
// rows it was given.
type fakeRoutes struct {
	flows      []trade.Flow
	shifts     []trade.Shift
	deceptions []trade.Deception
	flowReqs   recorder[FlowsRequest]
	shiftReqs  recorder[ShiftsRequest]
	decReqs    recorder[DeceptionsRequest]
}

func (f *fakeRoutes) RouteFlows(_ context.Context, r FlowsRequest) ([]trade.Flow, error) {
	f.flowReqs.add(r)
	return f.flows, nil
}

func (f *fakeRoutes) RouteShifts(_ context.Context, r ShiftsRequest) ([]trade.Shift, error) {
	f.shiftReqs.add(r)
	return f.shifts, nil
}

func (f *fakeRoutes) RouteDeceptions(_ context.Context, r DeceptionsRequest) ([]trade.Deception, error) {
	f.decReqs.add(r)
	return f.deceptions, nil
}

func routesOf(t *testing.T, s RouteStore) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { tradeRoutes(r, s, nil, fixedNow) })
}

func TestRouteParams(t *testing.T) {
	t.Parallel()
	store := &fakeRoutes{}
	rt := routesOf(t, store)
	expectErrors(t, rt.get("/routes/flows"), "/v1/routes/flows", map[string]errCase{
		"week=2026-03-17":   {400, "week must be the Monday"},
		"week=2026-3-16":    {400, "week must be the Monday"},
		"week=monday":       {400, "week must be the Monday"},
		"origin=atlantis":   {400, "unknown port 'atlantis' in origin"},
		"destination=nope":  {400, "unknown port 'nope' in destination"},
		"commodity=gold":    {400, "commodity must be one of"},
		"commodity=all":     {400, "commodity must be one of"},
		"format=xlsx":       {400, "format must be one of json, csv"},
		"limit=0":           {400, "limit must be a positive integer (at most"},
		"limit=1&format=cs": {400, "format must be one of"},
	})
	expectErrors(t, rt.get("/routes/shifts"), "/v1/routes/shifts", map[string]errCase{
		"severity=low":    {400, "severity must be one of moderate, high, critical"},
		"origin=atlantis": {400, "unknown port 'atlantis' in origin"},
		"commodity=gold":  {400, "commodity must be one of"},
		"limit=-1":        {400, "limit must be a positive integer (at most"},
	})
	expectErrors(t, rt.get("/routes/deceptions"), "/v1/routes/deceptions", map[string]errCase{
		"vessel=123":           {400, "vessel"},
		"suspicious=yes":       {400, "suspicious must be 'true' or 'false'"},
		"actual_port=atlantis": {400, "unknown port 'atlantis' in actual_port"},
		"limit=x":              {400, "limit must be a positive integer (at most"},
	})
	if n := store.flowReqs.count() + store.shiftReqs.count() + store.decReqs.count(); n != 0 {
		t.Errorf("a bad request reached the store %d times", n)
	}
}

func TestRouteFlowsHandler(t *testing.T) {
	t.Parallel()
	w := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)
	store := &fakeRoutes{flows: []trade.Flow{{Week: w, Origin: "santos", Destination: "qingdao", Commodity: "grain", Vessels: 2, Voyages: 3,
		Tonnes: 150000.4, MedianTransitDays: 34.56}}}
	h := routesOf(t, store).get("/routes/flows")
	qingdao, _ := seaport.BySlug("qingdao")
	status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/routes/flows?origin=santos&destination="+qingdao.ID+"&week=2026-03-09&commodity=grain&limit=500")
	want := `{"flows":[{"week_start":"2026-03-09","iso_year":2026,"iso_week":11,"origin":"santos","origin_name":"Santos","destination":"qingdao",` +
		`"destination_name":"Qingdao","commodity":"grain","vessels":2,"voyages":3,"tonnes":150000,"median_transit_days":34.6}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if r, want := store.flowReqs.last(t), (FlowsRequest{Origin: "santos", Destination: "qingdao", Week: w, Commodity: "grain", Limit: 500}); r != want {
		t.Errorf("Pro request %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanFree, h, "/v1/routes/flows")
	if r, want := store.flowReqs.last(t), (FlowsRequest{From: time.Date(2026, 3, 12, 0, 0, 0, 0, time.UTC), Limit: 20}); r != want {
		t.Errorf("Free request %+v, want %+v", r, want)
	}
	if status, _, _ := serve(t, overwatch.PlanFree, h, "/v1/routes/flows?format=csv"); status != 403 {
		t.Errorf("Free CSV: %d", status)
	}
	status, body, hdr := serve(t, overwatch.PlanStarter, h, "/v1/routes/flows?format=csv")
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if status != 200 || err != nil || len(recs) != 2 || strings.Join(recs[0], ",") !=
		"week_start,iso_year,iso_week,origin,origin_name,destination,destination_name,commodity,vessels,voyages,tonnes,median_transit_days" ||
		recs[1][10] != "150000" || recs[1][11] != "34.6" || !strings.HasPrefix(hdr.Get("Content-Type"), "text/csv") {
		t.Errorf("CSV %d %v %q %v", status, err, body, hdr)
	}
	if r := store.flowReqs.last(t); r.Limit != 100 || !r.From.Equal(time.Date(2025, 12, 19, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Starter CSV request %+v", r)
	}
}

func TestRouteShiftsHandler(t *testing.T) {
	t.Parallel()
	asOf := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)
	store := &fakeRoutes{shifts: []trade.Shift{{AsOf: asOf, Origin: "new-orleans", Commodity: "grain", Destination: "qingdao",
		BaselineShare: 0.6666, CurrentShare: 0.3333, Change: -0.3333, Severity: trade.SeverityHigh, BaselineVoyages: 36, CurrentVoyages: 12,
		BaselineTonnes: 1.8e6, CurrentTonnes: 6e5, Started: asOf.AddDate(0, 0, -14),
		Gaining: []trade.Mover{{Port: "dalian", Change: 0.3333}}, Losing: []trade.Mover{{Port: "qingdao", Change: -0.3333}}}}}
	h := routesOf(t, store).get("/routes/shifts")
	status, body, _ := serve(t, overwatch.PlanStarter, h, "/v1/routes/shifts?severity=high&origin=new-orleans&commodity=all")
	want := `{"shifts":[{"origin":"new-orleans","origin_name":"New Orleans (Lower Mississippi)","commodity":"grain","destination":"qingdao",` +
		`"destination_name":"Qingdao","direction":"losing","baseline_share":0.667,"current_share":0.333,"change":-0.333,"severity":"high",` +
		`"baseline_weeks":12,"current_weeks":4,"baseline_voyages":36,"current_voyages":12,"baseline_tonnes":1800000,"current_tonnes":600000,` +
		`"started":"2026-02-23","as_of":"2026-03-09","gaining":[{"port":"dalian","name":"Dalian","change":0.333}],` +
		`"losing":[{"port":"qingdao","name":"Qingdao","change":-0.333}]}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if r := store.shiftReqs.last(t); r.Severity != "high" || r.Origin != "new-orleans" || r.Commodity != "all" || r.Limit != 100 ||
		!r.From.Equal(time.Date(2025, 12, 8, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Starter request %+v", r)
	}
	serve(t, overwatch.PlanFree, h, "/v1/routes/shifts?limit=400")
	// Free: the floor is 7 days back (Wed 11 Mar); as of the week of 6
	// days before it and later.
	if r := store.shiftReqs.last(t); r.Limit != 20 || !r.From.Equal(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Free request %+v", r)
	}
}

func TestRouteDeceptionsHandler(t *testing.T) {
	t.Parallel()
	arr := time.Date(2026, 3, 15, 6, 0, 0, 0, time.UTC)
	changed := arr.Add(-96 * time.Hour)
	store := &fakeRoutes{deceptions: []trade.Deception{{IMO: 9074729, Name: "HONEST", Origin: "paranagua", Departure: arr.AddDate(0, 0, -30),
		Arrival: arr, ActualPort: "qingdao", Declared: "RIZHAO", DeclaredPort: "rizhao", DistanceKM: 112.345, SameCountry: true,
		DestinationChanges: 1, ChangesSource: trade.SourcePositions, ChangedAt: &changed, Reason: trade.ReasonChangeOfOrders}}}
	h := routesOf(t, store).get("/routes/deceptions")
	status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/routes/deceptions?vessel=9074729&suspicious=false&actual_port=qingdao")
	want := `{"deceptions":[{"imo":"9074729","name":"HONEST","origin":"paranagua","origin_name":"Paranaguá","departure":"2026-02-13T06:00:00Z",` +
		`"arrival":"2026-03-15T06:00:00Z","declared":"RIZHAO","declared_port":"rizhao","declared_port_name":"Rizhao","actual_port":"qingdao",` +
		`"actual_port_name":"Qingdao","distance_km":112.3,"same_country":true,"destination_changes":1,"changes_source":"positions",` +
		`"changed_at":"2026-03-11T06:00:00Z","suspicious":false,"reason":"change_of_orders"}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	r := store.decReqs.last(t)
	if r.IMO != 9074729 || r.Suspicious != "false" || r.ActualPort != "qingdao" || r.Limit != 100 || !r.From.IsZero() {
		t.Errorf("Pro request %+v", r)
	}
	serve(t, overwatch.PlanFree, h, "/v1/routes/deceptions?suspicious=true")
	r = store.decReqs.last(t)
	if r.Suspicious != "true" || r.Limit != 20 || !r.From.Equal(testNow.AddDate(0, 0, -7).Truncate(time.Minute)) {
		t.Errorf("Free request %+v", r)
	}
}

func FuzzParseWeek(f *testing.F) {
	for _, s := range []string{"2026-03-09", "2026-03-10", "2026-3-9", "", "0000-01-03", "2026-02-30", "9999-12-27"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		w, err := parseWeek("week", raw)
		if err != nil {
			return
		}
		if w.Weekday() != time.Monday || w.Format(time.DateOnly) != raw || w.Location() != time.UTC {
			t.Errorf("parseWeek(%q) = %s", raw, w)
		}
	})
}

// Equal requests of the three endpoints share a cache entry (their
// requests hold no pointers); a new version of the table refreshes it.
func TestRouteCaching(t *testing.T) {
	t.Parallel()
	store := &fakeRoutes{}
	versions := &fakeVersions{}
	c := NewCache(versions, CacheOptions{Check: time.Hour})
	rt := mount(t, func(r route.Router) { tradeRoutes(r, store, c, fixedNow) })
	for i := 0; i < 3; i++ {
		serve(t, overwatch.PlanPro, rt.get("/routes/flows"), "/v1/routes/flows?origin=santos&week=2026-03-09")
		serve(t, overwatch.PlanPro, rt.get("/routes/shifts"), "/v1/routes/shifts?severity=high")
		serve(t, overwatch.PlanPro, rt.get("/routes/deceptions"), "/v1/routes/deceptions?suspicious=true&vessel=9074729")
	}
	if f, s, d := store.flowReqs.count(), store.shiftReqs.count(), store.decReqs.count(); f != 1 || s != 1 || d != 1 {
		t.Errorf("store asked %d, %d, %d times, want once each", f, s, d)
	}
}
