package read

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/route"
)

// fakeExport is an ExportStore: it records the requests it was asked and
// returns the rows it was given.
type fakeExport struct {
	err       error
	visits    []portcall.Call
	estimates []EstimateRow

	visitReqs    recorder[ExportRequest]
	estimateReqs recorder[EstimatesRequest]
}

func (f *fakeExport) ExportVisits(_ context.Context, r ExportRequest) ([]portcall.Call, error) {
	f.visitReqs.add(r)
	return f.visits, f.err
}

func (f *fakeExport) Estimates(_ context.Context, r EstimatesRequest) ([]EstimateRow, error) {
	f.estimateReqs.add(r)
	return f.estimates, f.err
}

// exportOf is the GET /export handler on the store, through the cache
// (nil: uncached).
func exportOf(t *testing.T, s ExportStore, c *Cache) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { exportRoutes(r, s, c, fixedNow) })
}

func TestExportAccessAndParams(t *testing.T) {
	t.Parallel()
	store := &fakeExport{}
	h := exportOf(t, store, nil).get("/export")
	for _, plan := range []overwatch.Plan{overwatch.PlanFree, ""} {
		status, body, hdr := serve(t, plan, h, "/v1/export")
		if status != 403 || body != `{"error":"the Starter plan or higher is needed for CSV export; this key's plan is Free"}` || hdr.Get("Content-Disposition") != "" {
			t.Errorf("plan %q: %d %s %v", plan, status, body, hdr)
		}
	}
	expectErrors(t, h, "/v1/export", map[string]errCase{
		"port=atlantis": {400, "unknown port 'atlantis'"},
		"type=pdf":      {400, "type must be one of visits, estimates"},
		"limit=0":       {400, "limit must be a positive integer (at most"},
		"limit=x":       {400, "limit must be a positive integer (at most"},
	})
	if n := store.visitReqs.count() + store.estimateReqs.count(); n != 0 {
		t.Errorf("a refused request reached the store %d times", n)
	}
}

func TestExportVisitsCSV(t *testing.T) {
	t.Parallel()
	arrival := time.Date(2026, 3, 10, 6, 0, 0, 0, time.UTC)
	store := &fakeExport{visits: []portcall.Call{
		{IMO: 9321483, Name: "=HYPERLINK(\"http://x\",\"click\")", Flag: "PA", Category: "cargo", Port: "santos", Arrival: arrival,
			Departure: at(arrival, 50), Anchorage: "santos-anch-1", AnchorStart: at(arrival, 1), AnchorEnd: at(arrival, 11),
			BerthZone: "santos-berth-1", BerthStart: at(arrival, 12), BerthEnd: at(arrival, 49), Confidence: 4,
			DraftBefore: 8.3, DraftAfter: 12.7, Operation: "load", CargoTonnes: 41234.4, CargoQuality: "measured", Declared: "-SANTOS, BR"},
		{IMO: 1234567, Name: "OPEN CALL", Port: "santos", Arrival: arrival, Confidence: 2, Operation: "unknown", CargoQuality: "none"},
	}}
	status, body, h := serve(t, overwatch.PlanStarter, exportOf(t, store, nil).get("/export"), "/v1/export?port=santos&limit=10000")
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	if h.Get("Content-Type") != "text/csv; charset=utf-8" || h.Get("Content-Disposition") != `attachment; filename="overwatch-visits-santos-20260318.csv"` {
		t.Errorf("headers %v", h)
	}
	// The wait, berth and port hours are the call's (WaitHours, BerthHours,
	// PortHours).
	want := visitHeader + "\r\n" +
		`9321483,"'=HYPERLINK(""http://x"",""click"")",PA,cargo,santos,2026-03-10T06:00:00Z,2026-03-12T08:00:00Z,santos-anch-1,` +
		`2026-03-10T07:00:00Z,2026-03-10T17:00:00Z,10.0,santos-berth-1,2026-03-10T18:00:00Z,2026-03-12T07:00:00Z,37.0,50.0,4,8.3,12.7,load,41234,measured,"'-SANTOS, BR"` + "\r\n" +
		`1234567,OPEN CALL,,,santos,2026-03-10T06:00:00Z,,,,,,,,,,,2,,,unknown,,none,` + "\r\n"
	if body != want {
		t.Errorf("got\n%s\nwant\n%s", body, want)
	}
	if r, want := store.visitReqs.last(t), (ExportRequest{Port: "santos", Since: testNow.AddDate(0, 0, -90), Limit: 10000}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	if n := store.estimateReqs.count(); n != 0 {
		t.Errorf("a visits export asked for estimates %d times", n)
	}
}

func at(t time.Time, hours int) *time.Time {
	v := t.Add(time.Duration(hours) * time.Hour)
	return &v
}

func TestExportEstimatesCSV(t *testing.T) {
	t.Parallel()
	store := &fakeExport{estimates: []EstimateRow{
		{EstimateWeek: portstats.EstimateWeek{Week: time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC), Port: "new-orleans", ISOYear: 2026, ISOWeek: 11, Vessels: 2, Calls: 3, CallsWithDraught: 2, Tonnage: 99999.6, Confidence: 0.5}},
	}}
	h := exportOf(t, store, nil).get("/export")
	status, body, hdr := serve(t, overwatch.PlanPro, h, "/v1/export?type=estimates")
	want := "port,iso_year,iso_week,week_start,vessels,calls,calls_with_draught,tonnage,confidence,usda_actuals\r\n" +
		"new-orleans,2026,11,2026-03-09,2,3,2,100000,0.50,\r\n"
	if status != 200 || body != want || hdr.Get("Content-Disposition") != `attachment; filename="overwatch-estimates-all-20260318.csv"` {
		t.Errorf("%d %v\n%s", status, hdr, body)
	}
	if r, want := store.estimateReqs.last(t), (EstimatesRequest{Limit: 100}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	// Starter's floor, 90 days back, starts the weeks at the first
	// midnight after it.
	serve(t, overwatch.PlanStarter, h, "/v1/export?type=estimates&port=santos")
	if r, want := store.estimateReqs.last(t), (EstimatesRequest{Port: "santos", From: time.Date(2025, 12, 19, 0, 0, 0, 0, time.UTC), Limit: 100}); r != want {
		t.Errorf("Starter request %+v, want %+v", r, want)
	}
	if n := store.visitReqs.count(); n != 0 {
		t.Errorf("an estimates export asked for visits %d times", n)
	}
}

func TestExportStoreErrors(t *testing.T) {
	t.Parallel()
	// Before the first row: the error path answers, without the file's headers.
	store := &fakeExport{err: errors.New("store down")}
	h := exportOf(t, store, nil).get("/export")
	status, body, hdr := serve(t, overwatch.PlanStarter, h, "/v1/export")
	if status != 500 || body != `{"error":"internal error"}` || hdr.Get("Content-Disposition") != "" {
		t.Errorf("%d %s %v", status, body, hdr)
	}
	// With rows: the file is written before any byte goes out, so a
	// failing store is always an error status, never half a file.
	store.visits = []portcall.Call{{IMO: 1, Port: "santos", Arrival: testNow, Confidence: 2}}
	for len(store.visits) < 600 {
		store.visits = append(store.visits, store.visits[0])
	}
	if status, body, hdr := serve(t, overwatch.PlanPro, h, "/v1/export?limit=10000"); status != 500 || hdr.Get("Content-Disposition") != "" {
		t.Errorf("%d %s", status, body)
	}
	// A store that takes its time still streams.
	slow := &slowExport{fakeExport: &fakeExport{}}
	if status, body, _ := serve(t, overwatch.PlanStarter, exportOf(t, slow, nil).get("/export"), "/v1/export?limit=2"); status != 200 || strings.Count(body, "\r\n") != 3 {
		t.Errorf("%d %q", status, body)
	}
}

// slowExport answers slowly, with rows beyond the row cap.
type slowExport struct{ *fakeExport }

func (s *slowExport) ExportVisits(ctx context.Context, r ExportRequest) ([]portcall.Call, error) {
	s.visitReqs.add(r)
	var rows []portcall.Call
	for i := range 5 {
		time.Sleep(5 * time.Millisecond)
		rows = append(rows, portcall.Call{IMO: overwatch.IMO(1000000 + i), Port: "santos", Arrival: testNow, Confidence: 2})
	}
	return rows, ctx.Err()
}

// The file is written once per request and kept by the read cache: the
// same request streams the same bytes without asking the store again,
// another row cap is another file, a new version of the port calls a new
// file, and the two exports do not share answers. (The cache's bound on
// what it keeps is TestCacheEvictsOldestBeyondItsSize's.)
func TestExportCached(t *testing.T) {
	t.Parallel()
	row := func(imo overwatch.IMO) portcall.Call {
		return portcall.Call{IMO: imo, Port: "santos", Arrival: testNow, Confidence: 2}
	}
	store := &fakeExport{visits: []portcall.Call{row(1000001), row(1000002)}}
	versions := &fakeVersions{}
	cache := NewCache(versions, CacheOptions{Check: time.Hour})
	h := exportOf(t, store, cache).get("/export")
	_, first, _ := serve(t, overwatch.PlanPro, h, "/v1/export")
	_, again, _ := serve(t, overwatch.PlanPro, h, "/v1/export")
	if first != again || !strings.Contains(first, "1000002") {
		t.Errorf("the same answer twice:\n%s\n%s", first, again)
	}
	if n := store.visitReqs.count(); n != 1 {
		t.Errorf("two identical requests asked the store %d times", n)
	}
	if _, capped, _ := serve(t, overwatch.PlanPro, h, "/v1/export?limit=1"); strings.Contains(capped, "1000002") || !strings.Contains(capped, "1000001") {
		t.Errorf("another cap served the kept file:\n%s", capped)
	}
	if n := store.visitReqs.count(); n != 2 {
		t.Errorf("another cap: %d store calls, want 2", n)
	}

	// New rows are seen once their table has a new version: not before.
	store.visits = []portcall.Call{row(1000003)}
	if _, kept, _ := serve(t, overwatch.PlanPro, h, "/v1/export"); kept != first {
		t.Errorf("the kept file before the table changed:\n%s", kept)
	}
	versions.bump(tablePortCalls)
	cache.Invalidate()
	if _, changed, _ := serve(t, overwatch.PlanPro, h, "/v1/export"); !strings.Contains(changed, "1000003") || strings.Contains(changed, "1000001") {
		t.Errorf("a new answer:\n%s", changed)
	}
	store.visits = nil
	versions.bump(tablePortCalls)
	cache.Invalidate()
	if _, empty, _ := serve(t, overwatch.PlanPro, h, "/v1/export"); empty != visitHeader+"\r\n" {
		t.Errorf("no rows:\n%q", empty)
	}
	// The same request of the other type is the other export's answer.
	if _, empty, _ := serve(t, overwatch.PlanPro, h, "/v1/export?type=estimates"); empty != estimateHeader+"\r\n" {
		t.Errorf("no estimates after no visits:\n%q", empty)
	}
	if n := store.estimateReqs.count(); n != 1 {
		t.Errorf("estimates: %d store calls, want 1", n)
	}
	// Errors are not kept.
	store.err = errors.New("store down")
	versions.bump(tablePortCalls)
	cache.Invalidate()
	if status, _, _ := serve(t, overwatch.PlanPro, h, "/v1/export"); status != 500 {
		t.Errorf("store error: %d", status)
	}
	store.err = nil
	if status, _, _ := serve(t, overwatch.PlanPro, h, "/v1/export"); status != 200 {
		t.Errorf("after the error: %d", status)
	}
}

// The header rows of the exports, as published.
const (
	visitHeader    = "imo,name,flag,vessel_type,port,arrival,departure,anchorage,anchor_start,anchor_end,wait_hours,berth_zone,berth_start,berth_end,berth_hours,port_hours,confidence,draft_before,draft_after,operation,cargo_tonnes,cargo_quality,declared_destination"
	estimateHeader = "port,iso_year,iso_week,week_start,vessels,calls,calls_with_draught,tonnage,confidence,usda_actuals"
)
