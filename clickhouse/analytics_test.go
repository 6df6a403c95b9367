package clickhouse_test

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/portstats"
	"overwatch/read"
)

// The analytics tests share one database. Generations are recorded per
// (table, day) across every port, so each test works on its own days (its
// own year) and its own ports.

func openAnalyticsDB(t *testing.T) (*clickhouse.DB, *chtest.Fixtures) {
	t.Helper()
	return chtest.DB(t, "analytics"), chtest.Open(t, chtest.URL(t, "analytics"))
}

// at is a time relative to base, in hours.
func at(base time.Time, hours float64) *time.Time {
	v := base.Add(time.Duration(hours * float64(time.Hour)))
	return &v
}

// insertCalls writes the calls under gen and records gen for each of
// their days.
func insertCalls(t *testing.T, fx *chtest.Fixtures, gen uint64, calls ...chtest.PortCall) {
	t.Helper()
	fx.InsertPortCalls(t, gen, calls...)
	days := map[time.Time]bool{}
	for _, c := range calls {
		days[c.Arrival.UTC().Truncate(24*time.Hour)] = true
	}
	for d := range days {
		fx.RecordGeneration(t, "port_calls", d, gen)
	}
}

func exportIMOs(t *testing.T, db *clickhouse.DB, f read.ExportRequest) []overwatch.IMO {
	t.Helper()
	var got []overwatch.IMO
	rows, err := db.ExportVisits(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		got = append(got, r.IMO)
	}
	return got
}

func equalIMOs(a, b []overwatch.IMO) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAnalyticsGenerations(t *testing.T) {
	db, fx := openAnalyticsDB(t)
	ctx := context.Background()
	day := time.Date(2031, 5, 6, 0, 0, 0, 0, time.UTC)
	call := func(imo overwatch.IMO, hours float64) chtest.PortCall {
		return chtest.PortCall{IMO: imo, Port: "paranagua", Arrival: *at(day, hours), Confidence: 3, Name: "GEN"}
	}
	f := read.ExportRequest{Port: "paranagua", Limit: 100}

	// Generation 1 of the day, then a newer generation 2 that no longer has
	// call 1: only generation 2 is seen.
	insertCalls(t, fx, 1, call(9100001, 2), call(9100002, 3))
	if got := exportIMOs(t, db, f); !equalIMOs(got, []overwatch.IMO{9100002, 9100001}) {
		t.Fatalf("generation 1: %v", got)
	}
	insertCalls(t, fx, 2, call(9100002, 3), call(9100003, 4))
	if got := exportIMOs(t, db, f); !equalIMOs(got, []overwatch.IMO{9100003, 9100002}) {
		t.Fatalf("generation 2 must hide generation 1: %v", got)
	}

	// Generation 3 is written but not recorded (a run still going, or one
	// that failed half-way): not seen. Nor is a day with no recorded
	// generation at all.
	fx.InsertPortCalls(t, 3, call(9100004, 5))
	next := call(9100005, 30)
	fx.InsertPortCalls(t, 1, next)
	if got := exportIMOs(t, db, f); !equalIMOs(got, []overwatch.IMO{9100003, 9100002}) {
		t.Fatalf("unrecorded generations are seen: %v", got)
	}
	live, err := db.CongestionNow(ctx, read.CongestionNowRequest{Port: "paranagua", Now: day.Add(48 * time.Hour), Since: day.Add(-24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].InPort != 2 || live[0].Arrivals7d != 2 {
		t.Fatalf("congestion sees other generations: %+v", live)
	}

	// Recording generation 3 makes it current, whole.
	fx.RecordGeneration(t, "port_calls", day, 3)
	if got := exportIMOs(t, db, f); !equalIMOs(got, []overwatch.IMO{9100004}) {
		t.Fatalf("generation 3: %v", got)
	}
	// Confidence below 2 is never published; the floor and limit hold.
	insertCalls(t, fx, 2, next, chtest.PortCall{IMO: 9100006, Port: "paranagua", Arrival: *at(day, 31), Confidence: 1})
	if got := exportIMOs(t, db, f); !equalIMOs(got, []overwatch.IMO{9100005, 9100004}) {
		t.Fatalf("with the next day: %v", got)
	}
	if got := exportIMOs(t, db, read.ExportRequest{Port: "paranagua", Since: *at(day, 24), Limit: 100}); !equalIMOs(got, []overwatch.IMO{9100005}) {
		t.Fatalf("since: %v", got)
	}
	if got := exportIMOs(t, db, read.ExportRequest{Port: "paranagua", Limit: 1}); !equalIMOs(got, []overwatch.IMO{9100005}) {
		t.Fatalf("limit: %v", got)
	}
}

func TestAnalyticsCongestion(t *testing.T) {
	db, fx := openAnalyticsDB(t)
	ctx := context.Background()
	now := time.Date(2032, 3, 17, 12, 0, 0, 0, time.UTC)
	const port = "santos"
	calls := []chtest.PortCall{
		// Waiting at anchor now, arrived 30 h ago.
		{IMO: 9200001, Port: port, Arrival: *at(now, -30), AnchorStart: at(now, -29), Confidence: 2, Category: "cargo"},
		// At berth now after 10 h at anchor (the wait ended 5 h ago).
		{IMO: 9200002, Port: port, Arrival: *at(now, -20), AnchorStart: at(now, -15), AnchorEnd: at(now, -5), BerthStart: at(now, -5), Confidence: 3, Category: "cargo"},
		// Arrived 12 h ago, departed 2 h ago, no anchorage.
		{IMO: 9200003, Port: port, Arrival: *at(now, -12), Departure: at(now, -2), Confidence: 4, Category: "tanker"},
		// Departed 3 days ago after 20 h at anchor.
		{IMO: 9200004, Port: port, Arrival: *at(now, -120), AnchorStart: at(now, -118), AnchorEnd: at(now, -98), Departure: at(now, -72), Confidence: 4, Category: "cargo"},
		// Long gone: its wait ended 10 days ago.
		{IMO: 9200005, Port: port, Arrival: *at(now, -300), AnchorStart: at(now, -299), AnchorEnd: at(now, -240), Departure: at(now, -230), Confidence: 4, Category: "cargo"},
		// Confidence 1: not counted.
		{IMO: 9200006, Port: port, Arrival: *at(now, -3), AnchorStart: at(now, -2), Confidence: 1, Category: "cargo"},
		// Another port.
		{IMO: 9200007, Port: "rio-grande", Arrival: *at(now, -3), Confidence: 2, Category: "cargo"},
	}
	insertCalls(t, fx, 7, calls...)
	f := read.CongestionNowRequest{Now: now, Since: now.Add(-7 * 24 * time.Hour)}
	live, err := db.CongestionNow(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	// Every port (Port ""): those of this test's calls; other tests' calls
	// in this database are at other times or ports.
	live = slices.DeleteFunc(live, func(r read.CongestionLiveRow) bool {
		return r.Port != port && r.Port != "rio-grande" && r.Port != "tubarao"
	})
	if len(live) != 2 || live[0].Port != "rio-grande" || live[0].InPort != 1 || live[0].MedianWaitHours != nil {
		t.Fatalf("ports: %+v", live)
	}
	s := live[1]
	if s.Waiting != 1 || s.AtBerth != 1 || s.InPort != 2 || s.Arrivals24h != 2 || s.Departures24h != 1 || s.Arrivals7d != 4 || s.Departures7d != 2 {
		t.Errorf("counts: %+v", s)
	}
	if s.MedianWaitHours == nil || *s.MedianWaitHours != 15 || s.P90WaitHours == nil || math.Abs(*s.P90WaitHours-19) > 1e-9 {
		t.Errorf("waits [10 20]: median %v p90 %v", s.MedianWaitHours, s.P90WaitHours)
	}
	f.Port, f.Category = port, "tanker"
	if live, err = db.CongestionNow(ctx, f); err != nil || len(live) != 1 || live[0].InPort != 0 || live[0].Departures24h != 1 || live[0].Arrivals7d != 1 {
		t.Fatalf("tanker: %+v %v", live, err)
	}

	// Daily rows: three baseline days, today, one too old, another type,
	// and a superseded generation.
	today := now.Truncate(24 * time.Hour)
	cols := []string{"day", "gen", "port", "vessel_type", "waiting", "at_berth", "in_port", "arrivals", "departures", "waits", "median_wait_hours", "p90_wait_hours", "median_port_hours"}
	daily := func(d int, gen uint64, vt string, waiting, arrivals, waits uint32, median float64) []any {
		return []any{today.AddDate(0, 0, d), gen, port, vt, waiting, uint32(1), waiting + 1, arrivals, arrivals, waits, median, median * 2, float64(30)}
	}
	rows := [][]any{
		daily(-3, 1, "all", 2, 1, 0, 0), daily(-2, 1, "all", 4, 2, 3, 10), daily(-1, 1, "all", 6, 3, 1, 20),
		daily(0, 1, "all", 50, 50, 1, 50), daily(-100, 1, "all", 90, 90, 1, 90), daily(-2, 1, "tanker", 9, 9, 1, 9),
		daily(-1, 0, "all", 70, 70, 1, 70), // generation 0 of that day is superseded
	}
	fx.Insert(t, "congestion_daily", cols, rows...)
	for _, d := range []int{-100, -3, -2, -1, 0} {
		for _, gen := range []uint64{0, 1} {
			fx.RecordGeneration(t, "congestion_daily", today.AddDate(0, 0, d), gen)
		}
	}
	base, err := db.CongestionBaseline(ctx, read.CongestionBaselineRequest{Port: port, VesselType: "all", From: today.AddDate(0, 0, -90), To: today})
	if err != nil {
		t.Fatal(err)
	}
	if len(base) != 1 || base[0].Days != 3 || base[0].Waiting != 4 || base[0].Arrivals != 2 || base[0].MedianWaitHours == nil || *base[0].MedianWaitHours != 15 {
		t.Fatalf("baseline: %+v", base)
	}
	hist, err := db.CongestionHistory(ctx, read.CongestionHistoryRequest{Port: port, VesselType: "all", From: today.AddDate(0, 0, -2), To: today.AddDate(0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 3 || !hist[0].Day.Equal(today.AddDate(0, 0, -2)) || hist[0].Waiting != 4 || hist[0].Waits != 3 ||
		hist[0].P90WaitHours != 20 || hist[1].Waiting != 6 || hist[2].InPort != 51 || hist[2].MedianPortHours != 30 {
		t.Fatalf("history: %+v", hist)
	}
	if hist, err = db.CongestionHistory(ctx, read.CongestionHistoryRequest{Port: port, VesselType: "tanker", From: today.AddDate(0, 0, -90), To: today}); err != nil || len(hist) != 1 || hist[0].Waiting != 9 {
		t.Fatalf("tanker history: %+v %v", hist, err)
	}
}

func TestAnalyticsBerths(t *testing.T) {
	db, fx := openAnalyticsDB(t)
	ctx := context.Background()
	now := time.Date(2033, 7, 20, 0, 0, 0, 0, time.UTC)
	const port, z1, z2 = "tacoma", "tacoma-berth-1", "tacoma-berth-2"
	insertCalls(t, fx, 4,
		// 48 h at berth from 8 days ago: 24 h of it in the window, a stay that ended in it.
		chtest.PortCall{IMO: 9300001, Port: port, Arrival: *at(now, -200), BerthZone: z1, BerthStart: at(now, -192), BerthEnd: at(now, -144), Departure: at(now, -143), Confidence: 3},
		// At berth for the last 10 h, still there.
		chtest.PortCall{IMO: 9300002, Port: port, Arrival: *at(now, -12), BerthZone: z1, BerthStart: at(now, -10), Confidence: 2},
		// Berth end unknown, departed: the stay ends at the departure.
		chtest.PortCall{IMO: 9300002, Port: port, Arrival: *at(now, -60), BerthZone: z1, BerthStart: at(now, -50), Departure: at(now, -44), Confidence: 2},
		// Another zone, and one that left before the window.
		chtest.PortCall{IMO: 9300003, Port: port, Arrival: *at(now, -30), BerthZone: z2, BerthStart: at(now, -30), BerthEnd: at(now, -20), Departure: at(now, -19), Confidence: 4},
		chtest.PortCall{IMO: 9300004, Port: port, Arrival: *at(now, -400), BerthZone: z2, BerthStart: at(now, -399), BerthEnd: at(now, -300), Departure: at(now, -299), Confidence: 4},
	)
	usage, err := db.BerthUsage(ctx, read.BerthUsageRequest{Port: port, From: now.Add(-168 * time.Hour), To: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(usage) != 2 {
		t.Fatalf("zones: %+v", usage)
	}
	u := usage[0]
	if u.ZoneID != z1 || math.Abs(u.OccupiedHours-40) > 1e-9 || u.Vessels != 2 || u.Stays != 2 || u.MeanDwellHours == nil || *u.MeanDwellHours != 27 {
		t.Errorf("zone 1 (24 + 10 + 6 h; stays of 48 and 6 h): %+v dwell %v", u, u.MeanDwellHours)
	}
	if u := usage[1]; u.ZoneID != z2 || u.OccupiedHours != 10 || u.Vessels != 1 || u.Stays != 1 {
		t.Errorf("zone 2: %+v", u)
	}

	// Weekly rows: two weeks of zone 1, one of zone 2, and an unrecorded
	// generation of the later week.
	monday := time.Date(2033, 7, 18, 0, 0, 0, 0, time.UTC)
	cols := []string{"day", "gen", "port", "zone_id", "zone_name", "capacity", "occupied_hours", "available_hours", "utilization", "vessels", "stays", "mean_dwell_hours"}
	week := func(d time.Time, gen uint64, zone string, occupied float64) []any {
		return []any{d, gen, port, zone, "Zone " + zone, uint16(2), occupied, float64(336), occupied / 336, uint32(1), uint32(1), float64(12)}
	}
	fx.Insert(t, "berth_weekly", cols, week(monday.AddDate(0, 0, -7), 1, z1, 100), week(monday, 1, z1, 50),
		week(monday, 1, z2, 20), week(monday, 2, z1, 999))
	for _, d := range []time.Time{monday.AddDate(0, 0, -7), monday} {
		fx.RecordGeneration(t, "berth_weekly", d, 1)
	}
	weeks, err := db.BerthWeeks(ctx, read.BerthWeeksRequest{Port: port, From: monday.AddDate(0, 0, -7)})
	if err != nil {
		t.Fatal(err)
	}
	if len(weeks) != 3 || weeks[0].OccupiedHours != 100 || weeks[1].ZoneID != z1 || weeks[1].OccupiedHours != 50 || weeks[2].ZoneID != z2 || weeks[2].Capacity != 2 {
		t.Fatalf("weeks: %+v", weeks)
	}
	if weeks, err = db.BerthWeeks(ctx, read.BerthWeeksRequest{Port: port, ZoneID: z2, From: monday}); err != nil || len(weeks) != 1 || weeks[0].OccupiedHours != 20 {
		t.Fatalf("one zone: %+v %v", weeks, err)
	}
}

func TestAnalyticsFleetAge(t *testing.T) {
	db, fx := openAnalyticsDB(t)
	ctx := context.Background()
	now := time.Date(2034, 9, 1, 0, 0, 0, 0, time.UTC)
	const port = "rosario"
	call := func(imo overwatch.IMO, hours float64, built uint16, estimated bool, cat string) chtest.PortCall {
		return chtest.PortCall{IMO: imo, Port: port, Arrival: *at(now, hours), Departure: at(now, hours+20), Confidence: 3,
			BuildYear: built, BuildYearEstimated: estimated, Category: cat}
	}
	insertCalls(t, fx, 1,
		call(9400001, -100, 2031, false, "cargo"),    // 3 years: 0-5
		call(9400002, -200, 2010, true, "cargo"),     // an older record...
		call(9400002, -50, 2012, false, "cargo"),     // ...the newest call's year wins: 22 years, 20-25
		call(9400003, -300, 2000, true, "tanker"),    // 34 years: 25+
		call(9400004, -400, 2029, false, "cargo"),    // 5 years: 5-10
		call(9400005, -100*24, 1990, false, "cargo"), // outside the 90 days
		call(9400006, -10, 0, false, "cargo"),        // unknown build year
	)
	rows, err := db.FleetAge(ctx, read.FleetAgeRequest{Port: port, From: now.Add(-90 * 24 * time.Hour), To: now, Year: 2034})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]portstats.FleetAgeWeek{}
	for _, r := range rows {
		got[r.Bucket] = r
	}
	if len(rows) != 4 || got["0-5"].Vessels != 1 || got["0-5"].MeanAge != 3 || got["5-10"].MeanAge != 5 ||
		got["20-25"].MeanAge != 22 || got["20-25"].Estimated != 0 || got["25+"].Estimated != 1 || got["25+"].MeanAge != 34 {
		t.Fatalf("buckets: %+v", rows)
	}
	rows, err = db.FleetAge(ctx, read.FleetAgeRequest{Port: port, Category: "tanker", From: now.Add(-90 * 24 * time.Hour), To: now, Year: 2034})
	if err != nil || len(rows) != 1 || rows[0].Bucket != "25+" {
		t.Fatalf("tanker: %+v %v", rows, err)
	}

	monday := time.Date(2034, 8, 28, 0, 0, 0, 0, time.UTC)
	cols := []string{"day", "gen", "port", "vessel_type", "bucket", "vessels", "estimated", "mean_age"}
	fx.Insert(t, "fleet_age_weekly", cols,
		[]any{monday.AddDate(0, 0, -7), uint64(1), port, "all", "0-5", uint32(2), uint32(0), float64(2)},
		[]any{monday, uint64(1), port, "all", "0-5", uint32(1), uint32(1), float64(4)},
		[]any{monday, uint64(1), port, "all", "25+", uint32(3), uint32(0), float64(30)},
		[]any{monday, uint64(1), port, "cargo", "25+", uint32(3), uint32(0), float64(30)},
		[]any{monday, uint64(0), port, "all", "25+", uint32(50), uint32(0), float64(30)},
	)
	for _, rec := range []struct {
		d   time.Time
		gen uint64
	}{{monday.AddDate(0, 0, -7), 1}, {monday, 0}, {monday, 1}} {
		fx.RecordGeneration(t, "fleet_age_weekly", rec.d, rec.gen)
	}
	hist, err := db.FleetAgeHistory(ctx, read.FleetAgeHistoryRequest{Port: port, VesselType: "all", From: monday})
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Bucket != "0-5" || hist[1].Vessels != 3 || hist[1].Port != port || !hist[1].Week.Equal(monday) {
		t.Fatalf("history: %+v", hist)
	}
}

func TestAnalyticsEstimatesAndReliability(t *testing.T) {
	db, fx := openAnalyticsDB(t)
	ctx := context.Background()
	w1, w2 := time.Date(2035, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2035, 1, 8, 0, 0, 0, 0, time.UTC)
	cols := []string{"day", "gen", "port", "iso_year", "iso_week", "vessels", "calls", "calls_with_draught", "tonnage", "confidence"}
	est := func(d time.Time, gen uint64, port string, tonnage float64) []any {
		y, w := d.ISOWeek()
		return []any{d, gen, port, uint16(y), uint8(w), uint32(2), uint32(3), uint32(2), tonnage, 0.62}
	}
	fx.Insert(t, "estimates_weekly", cols, est(w1, 1, "new-orleans", 100000), est(w2, 1, "new-orleans", 120000),
		est(w2, 1, "odesa", 5000), est(w2, 0, "odesa", 1))
	for _, d := range []time.Time{w1, w2} {
		fx.RecordGeneration(t, "estimates_weekly", d, 1)
	}
	imported := time.Date(2035, 2, 1, 0, 0, 0, 0, time.UTC)
	acols := []string{"port", "day", "commodity", "tonnes", "source", "imported_at"}
	fx.Insert(t, "export_actuals", acols,
		[]any{"new-orleans", w2, "corn", float64(50000), "usda", imported},
		[]any{"new-orleans", w2, "soybeans", float64(40000), "usda", imported})
	// A newer import of the same key replaces the corn figure.
	fx.Insert(t, "export_actuals", acols,
		[]any{"new-orleans", w2, "corn", float64(60000), "usda", imported.Add(time.Hour)})
	rows, err := db.Estimates(ctx, read.EstimatesRequest{Limit: 10, From: w1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0].Port != "new-orleans" || !rows[0].Week.Equal(w2) || rows[0].Actuals == nil || *rows[0].Actuals != 100000 ||
		rows[1].Port != "odesa" || rows[1].Tonnage != 5000 || rows[1].Actuals != nil || rows[2].Actuals != nil || rows[2].ISOWeek != 1 || rows[2].ISOYear != 2035 {
		t.Fatalf("estimates: %+v", rows)
	}
	if rows, err = db.Estimates(ctx, read.EstimatesRequest{Port: "new-orleans", Limit: 1, From: w1}); err != nil || len(rows) != 1 || rows[0].Tonnage != 120000 {
		t.Fatalf("port and limit: %+v %v", rows, err)
	}
	if rows, err = db.Estimates(ctx, read.EstimatesRequest{Port: "new-orleans", Limit: 10, From: w2}); err != nil || len(rows) != 1 {
		t.Fatalf("from: %+v %v", rows, err)
	}

	// Destination reliability: one window (day 1970-01-01), generations as
	// everywhere.
	epoch := time.Unix(0, 0).UTC()
	rcols := []string{"day", "gen", "imo", "name", "flag", "ship_type", "category", "calls", "declared", "matched", "share", "tier", "last_call"}
	rel := func(gen uint64, imo, calls, matched uint32, tier string, last time.Time) []any {
		return []any{epoch, gen, imo, "REL", "PA", uint8(70), "cargo", calls, calls, matched, float64(matched) / float64(calls), tier, last}
	}
	fx.Insert(t, "destination_reliability", rcols,
		rel(5, 9500001, 10, 9, "reliable", w2), rel(5, 9500002, 10, 2, "unreliable", w2), rel(5, 9500003, 4, 3, "moderate", w1),
		rel(4, 9500004, 99, 99, "reliable", w2))
	for _, gen := range []uint64{4, 5} {
		fx.RecordGeneration(t, "destination_reliability", epoch, gen)
	}
	check := func(f read.ReliabilityRequest, want ...overwatch.IMO) {
		t.Helper()
		f.Limit = max(f.Limit, 1)
		got, err := db.DestinationReliability(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var imos []overwatch.IMO
		for _, r := range got {
			imos = append(imos, r.IMO)
		}
		if !equalIMOs(imos, want) {
			t.Errorf("%+v: %v, want %v", f, imos, want)
		}
	}
	check(read.ReliabilityRequest{Limit: 10}, 9500001, 9500002, 9500003)
	check(read.ReliabilityRequest{Limit: 2}, 9500001, 9500002)
	check(read.ReliabilityRequest{Limit: 10, Tier: "moderate"}, 9500003)
	check(read.ReliabilityRequest{Limit: 10, IMO: 9500002}, 9500002)
	check(read.ReliabilityRequest{Limit: 10, IMO: 9500004})
	check(read.ReliabilityRequest{Limit: 10, Since: w2}, 9500001, 9500002)
}
