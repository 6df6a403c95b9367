package read

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
)

func TestExportAccessAndParams(t *testing.T) {
	store := &fakeAnalytics{}
	for _, plan := range []overwatch.Plan{overwatch.PlanFree, ""} {
		status, body, h := serve(t, plan, Export(store, fixedNow), "/v1/export")
		if status != 403 || body != `{"error":"CSV export requires the Starter plan or higher"}` || h.Get("Content-Disposition") != "" {
			t.Errorf("plan %q: %d %s %v", plan, status, body, h)
		}
	}
	expectErrors(t, Export(store, fixedNow), "/v1/export", map[string]errCase{
		"port=atlantis": {404, "unknown port 'atlantis'"},
		"type=pdf":      {400, "type must be one of visits, estimates"},
		"limit=0":       {400, "limit must be a positive integer"},
		"limit=x":       {400, "limit must be a positive integer"},
	})
}

func TestExportVisitsCSV(t *testing.T) {
	arrival := time.Date(2026, 3, 10, 6, 0, 0, 0, time.UTC)
	store := &fakeAnalytics{visits: []VisitRow{
		{IMO: 9321483, Name: "=HYPERLINK(\"http://x\",\"click\")", Flag: "PA", Category: "cargo", Port: "santos", Arrival: arrival,
			Departure: at(arrival, 50), Anchorage: "santos-anch-1", AnchorStart: at(arrival, 1), AnchorEnd: at(arrival, 11), WaitHours: 10,
			BerthZone: "santos-berth-1", BerthStart: at(arrival, 12), BerthEnd: at(arrival, 49), BerthHours: 37, PortHours: 50, Confidence: 4,
			DraftBefore: 8.3, DraftAfter: 12.7, Operation: "load", CargoTonnes: 41234.4, CargoQuality: "measured", Declared: "-SANTOS, BR"},
		{IMO: 1234567, Name: "OPEN CALL", Port: "santos", Arrival: arrival, Confidence: 2, Operation: "unknown", CargoQuality: "none"},
	}}
	status, body, h := serve(t, overwatch.PlanStarter, Export(store, fixedNow), "/v1/export?port=santos&limit=50000")
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	if h.Get("Content-Type") != "text/csv; charset=utf-8" || h.Get("Content-Disposition") != `attachment; filename="overwatch-visits-santos-20260318.csv"` {
		t.Errorf("headers %v", h)
	}
	want := strings.Join(VisitColumns, ",") + "\r\n" +
		`9321483,"'=HYPERLINK(""http://x"",""click"")",PA,cargo,santos,2026-03-10T06:00:00Z,2026-03-12T08:00:00Z,santos-anch-1,` +
		`2026-03-10T07:00:00Z,2026-03-10T17:00:00Z,10.0,santos-berth-1,2026-03-10T18:00:00Z,2026-03-12T07:00:00Z,37.0,50.0,4,8.3,12.7,load,41234,measured,"'-SANTOS, BR"` + "\r\n" +
		`1234567,OPEN CALL,,,santos,2026-03-10T06:00:00Z,,,,,,,,,,,2,,,unknown,,none,` + "\r\n"
	if body != want {
		t.Errorf("got\n%s\nwant\n%s", body, want)
	}
	if f := store.exportFilter; f.Port != "santos" || f.Limit != 10000 || !f.Since.Equal(testNow.AddDate(0, 0, -90)) {
		t.Errorf("filter %+v", f)
	}
}

func at(t time.Time, hours int) *time.Time {
	v := t.Add(time.Duration(hours) * time.Hour)
	return &v
}

func TestExportEstimatesCSV(t *testing.T) {
	store := &fakeAnalytics{estimates: []EstimateRow{
		{Week: time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC), Port: "new-orleans", ISOYear: 2026, ISOWeek: 11, Vessels: 2, Calls: 3, CallsWithDraught: 2, Tonnage: 99999.6, Confidence: 0.5},
	}}
	status, body, h := serve(t, overwatch.PlanPro, Export(store, fixedNow), "/v1/export?type=estimates")
	want := "port,iso_year,iso_week,week_start,vessels,calls,calls_with_draught,tonnage,confidence,usda_actuals\r\n" +
		"new-orleans,2026,11,2026-03-09,2,3,2,100000,0.50,\r\n"
	if status != 200 || body != want || h.Get("Content-Disposition") != `attachment; filename="overwatch-estimates-all-20260318.csv"` {
		t.Errorf("%d %v\n%s", status, h, body)
	}
	if f := store.exportFilter; f.Port != "" || f.Limit != 100 || !f.Since.IsZero() {
		t.Errorf("filter %+v", f)
	}
}

func TestExportStoreErrors(t *testing.T) {
	// Before the first row: the error path answers, without the file's headers.
	store := &fakeAnalytics{err: errors.New("store down")}
	status, body, h := serve(t, overwatch.PlanStarter, Export(store, fixedNow), "/v1/export")
	if status != 500 || body != `{"error":"internal error"}` || h.Get("Content-Disposition") != "" {
		t.Errorf("%d %s %v", status, body, h)
	}
	// With rows: the file is written before any byte goes out, so a
	// failing store is always an error status, never half a file.
	store.visits = []VisitRow{{IMO: 1, Port: "santos", Arrival: testNow, Confidence: 2}}
	for len(store.visits) < 600 {
		store.visits = append(store.visits, store.visits[0])
	}
	if status, body, h := serve(t, overwatch.PlanPro, Export(store, fixedNow), "/v1/export?limit=10000"); status != 500 || h.Get("Content-Disposition") != "" {
		t.Errorf("%d %s", status, body)
	}
	// A store that takes its time still streams.
	slow := &slowExport{fakeAnalytics: &fakeAnalytics{}}
	if status, body, _ := serve(t, overwatch.PlanStarter, Export(slow, fixedNow), "/v1/export?limit=2"); status != 200 || strings.Count(body, "\r\n") != 3 {
		t.Errorf("%d %q", status, body)
	}
}

// slowExport answers slowly, with rows beyond the row cap.
type slowExport struct{ *fakeAnalytics }

func (s *slowExport) ExportVisits(ctx context.Context, f ExportFilter) ([]VisitRow, error) {
	var rows []VisitRow
	for i := range 5 {
		time.Sleep(5 * time.Millisecond)
		rows = append(rows, VisitRow{IMO: overwatch.IMO(1000000 + i), Port: "santos", Arrival: testNow, Confidence: 2})
	}
	return rows, ctx.Err()
}

// The file is written once per store answer: the same slice gives the same
// bytes, a new slice (the data changed) a new file, and the memo keeps at
// most csvMemoFiles files.
func TestExportMemo(t *testing.T) {
	row := func(imo overwatch.IMO) VisitRow {
		return VisitRow{IMO: imo, Port: "santos", Arrival: testNow, Confidence: 2}
	}
	store := &fakeAnalytics{visits: []VisitRow{row(1000001), row(1000002)}}
	h := Export(store, fixedNow)
	_, first, _ := serve(t, overwatch.PlanPro, h, "/v1/export")
	_, again, _ := serve(t, overwatch.PlanPro, h, "/v1/export")
	if first != again || !strings.Contains(first, "1000002") {
		t.Errorf("the same answer twice:\n%s\n%s", first, again)
	}
	if _, capped, _ := serve(t, overwatch.PlanPro, h, "/v1/export?limit=1"); strings.Contains(capped, "1000002") {
		t.Errorf("another cap served the kept file:\n%s", capped)
	}
	store.visits = []VisitRow{row(1000003)}
	if _, changed, _ := serve(t, overwatch.PlanPro, h, "/v1/export"); !strings.Contains(changed, "1000003") || strings.Contains(changed, "1000001") {
		t.Errorf("a new answer:\n%s", changed)
	}
	store.visits = nil
	if _, empty, _ := serve(t, overwatch.PlanPro, h, "/v1/export"); strings.Count(empty, "\r\n") != 1 {
		t.Errorf("no rows:\n%q", empty)
	}
	store.estimates = nil
	if _, empty, _ := serve(t, overwatch.PlanPro, h, "/v1/export?type=estimates"); !strings.HasPrefix(empty, "port,iso_year") {
		t.Errorf("no estimates after no visits (the same empty answer):\n%q", empty)
	}

	m := &csvMemo{}
	for i := range 3 * csvMemoFiles {
		rows := []VisitRow{row(overwatch.IMO(2000000 + i))}
		body, err := csvOf(m, "visits", rows, 10, VisitColumns, visitCells)
		if err != nil || !strings.Contains(string(body), strconv.Itoa(2000000+i)) {
			t.Fatalf("file %d: %v %q", i, err, body)
		}
	}
	if n := len(m.entries); n != csvMemoFiles {
		t.Errorf("%d files kept, want %d", n, csvMemoFiles)
	}
}
