package clickhouse_test

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/risk"
	"overwatch/maritime/vessel"
	"overwatch/read"
)

// The risk tests share one database; each works on its own days (its own
// year) and vessels. The single-window tables (vessel_risk, hotspots,
// baselines) are replaced whole by each write, so each test checks what it
// wrote last.

func openRiskDB(t *testing.T) *clickhouse.DB { return chtest.DB(t, "risk") }

var riskGen = uint64(time.Now().UnixNano())

// nextGen is a generation newer than every other of the test binary.
func nextGen() uint64 {
	riskGen++
	return riskGen
}

func tp(t time.Time) *time.Time { return &t }

var riskIdentity = map[overwatch.IMO]vessel.Profile{
	9300001: {IMO: 9300001, Name: "DARK ONE", Flag: "PA", ShipType: 80},
	9300002: {IMO: 9300002, Name: "DARK TWO", Flag: "LR", ShipType: 71},
	9300003: {IMO: 9300003, Name: "LOITERER", Flag: "KM", ShipType: 0},
}

func eventIMOs(rows []read.RiskEventRow) []overwatch.IMO {
	out := make([]overwatch.IMO, len(rows))
	for i, r := range rows {
		out[i] = r.Vessel.IMO
	}
	return out
}

func TestRiskEventGenerations(t *testing.T) {
	db := openRiskDB(t)
	ctx := context.Background()
	d1 := time.Date(2031, 5, 1, 0, 0, 0, 0, time.UTC)
	d2 := d1.AddDate(0, 0, 1)
	before := d1.AddDate(0, 0, -1)
	gap := func(imo overwatch.IMO, start time.Time, hours float64) risk.Event {
		e := risk.Event{Type: risk.EventGap, IMO: imo, Start: start, Lat: 10, Lon: 20, EndLat: 11, EndLon: 21, Severity: risk.TierLow,
			Detail: map[string]any{"hours": hours, "implied_speed_kn": math.NaN(), "start_position": map[string]any{"lat": 10.0, "lon": 20.0}}}
		if hours > 0 {
			e.End = tp(start.Add(time.Duration(hours * float64(time.Hour))))
		}
		return e
	}
	first := []risk.Event{
		gap(9300001, d1.Add(2*time.Hour), 13),
		gap(9300002, d2.Add(3*time.Hour), 0), // open
		gap(9300003, before.Add(time.Hour), 20),
	}
	if err := db.WriteRiskEvents(ctx, nextGen(), []time.Time{d1, d2.Add(5 * time.Hour)}, first, riskIdentity, d2.Add(5*time.Hour)); err != nil {
		t.Fatal(err)
	}
	all := read.RiskEventsRequest{IMO: 0, Limit: 100, Since: before}
	rows, err := db.RiskEventRows(ctx, all)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventIMOs(rows); !equalIMOs(got, []overwatch.IMO{9300002, 9300001}) {
		t.Fatalf("first run: %v (the event before the window must not be written)", got)
	}
	if r := rows[1]; r.End == nil || !r.End.Equal(d1.Add(15*time.Hour)) || r.Detail != `{"hours":13,"implied_speed_kn":null,"start_position":{"lat":10,"lon":20}}` ||
		r.Vessel.Name != "DARK ONE" || r.Vessel.Flag != "PA" || r.Vessel.ShipType != 80 || r.Vessel.Category != "tanker" || r.Other.IMO != 0 {
		t.Errorf("closed gap: %+v", r)
	}
	if r := rows[0]; r.End != nil || r.Vessel.Category != "cargo" {
		t.Errorf("open gap: %+v", r)
	}

	// The job's readers.
	open, err := db.OpenRiskEvents(ctx, d2.Add(24*time.Hour))
	if err != nil || len(open) != 1 || open[0].IMO != 9300002 || open[0].End != nil || !open[0].Start.Equal(d2.Add(3*time.Hour)) {
		t.Fatalf("open events: %+v %v", open, err)
	}
	if open, _ := db.OpenRiskEvents(ctx, d2.Add(3*time.Hour)); len(open) != 0 {
		t.Errorf("open before its start: %+v", open)
	}
	over, err := db.RiskEvents(ctx, d1.Add(14*time.Hour), d2)
	if err != nil || len(over) != 1 || over[0].IMO != 9300001 || over[0].Detail["hours"] != 13.0 || over[0].Detail["implied_speed_kn"] != nil {
		t.Fatalf("overlapping [14h, d2): %+v %v", over, err)
	}
	if pos, ok := over[0].Detail["start_position"].(map[string]any); !ok || pos["lat"] != 10.0 {
		t.Errorf("detail round trip: %+v", over[0].Detail)
	}
	if over, _ := db.RiskEvents(ctx, d1.Add(16*time.Hour), d2.Add(time.Hour)); len(over) != 0 {
		t.Errorf("nothing overlaps: %+v", over)
	}
	if over, _ := db.RiskEvents(ctx, d2.Add(10*time.Hour), d2.Add(11*time.Hour)); len(over) != 1 || over[0].IMO != 9300002 {
		t.Errorf("the open gap overlaps everything after its start: %+v", over)
	}

	// A re-run over d2 and d3 closes the open gap (stored under the day it
	// ends) and finds nothing else: d1 is untouched, d2 replaced whole;
	// an event that ended on d1 is not written.
	d3 := d2.AddDate(0, 0, 1)
	second := []risk.Event{gap(9300002, d2.Add(3*time.Hour), 30), gap(9300001, d1.Add(7*time.Hour), 10)}
	if err := db.WriteRiskEvents(ctx, nextGen(), []time.Time{d2, d3}, second, riskIdentity, d3.Add(12*time.Hour)); err != nil {
		t.Fatal(err)
	}
	rows, err = db.RiskEventRows(ctx, all)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventIMOs(rows); !equalIMOs(got, []overwatch.IMO{9300002, 9300001}) || rows[0].End == nil || !rows[1].Start.Equal(d1.Add(2*time.Hour)) {
		t.Fatalf("second run: %+v", rows)
	}
	if open, _ := db.OpenRiskEvents(ctx, d2.Add(24*time.Hour)); len(open) != 0 {
		t.Errorf("closed: %+v", open)
	}
	// A run that finds nothing on d1 empties it.
	if err := db.WriteRiskEvents(ctx, nextGen(), []time.Time{d1}, nil, nil, d3); err != nil {
		t.Fatal(err)
	}
	if rows, _ := db.RiskEventRows(ctx, all); len(rows) != 1 || rows[0].Vessel.IMO != 9300002 {
		t.Errorf("d1 emptied: %+v", rows)
	}
}

func TestRiskEventFilters(t *testing.T) {
	db := openRiskDB(t)
	ctx := context.Background()
	day := time.Date(2032, 7, 1, 0, 0, 0, 0, time.UTC)
	h := func(hours int) time.Time { return day.Add(time.Duration(hours) * time.Hour) }
	events := []risk.Event{
		{Type: risk.EventSTS, Subtype: "proximity", IMO: 9300001, Other: 9300002, Start: h(1), End: tp(h(5)), Severity: risk.TierHigh,
			Detail: map[string]any{"confidence": "high", "tonnes": 12000.4, "hours": 4.0}},
		{Type: risk.EventSTS, Subtype: "path_intersection", IMO: 9300003, Other: 9300001, Start: h(30), Severity: risk.TierMedium,
			Detail: map[string]any{"confidence": "low", "tonnes": 500.0}},
		{Type: risk.EventLoitering, Subtype: "slow_roll", IMO: 9300003, Start: h(2), End: tp(h(9)), Severity: risk.TierLow,
			Detail: map[string]any{"context": "known_transfer_area", "area": "Gulf of Laconia"}},
		{Type: risk.EventMismatch, Subtype: "zero_change", IMO: 9300002, Start: h(3), End: tp(h(3)), Port: "santos", Severity: risk.TierMedium,
			Detail: map[string]any{"reported_from": 9.1, "reported_to": 9.1}},
		{Type: risk.EventIdentity, Subtype: "flag", IMO: 9300002, Start: h(50), End: tp(h(50)), Severity: risk.TierCritical,
			Detail: map[string]any{"field": "flag", "old": "PA", "new": "KM"}},
	}
	if err := db.WriteRiskEvents(ctx, nextGen(), []time.Time{day, day.AddDate(0, 0, 1), day.AddDate(0, 0, 2)}, events, riskIdentity, h(60)); err != nil {
		t.Fatal(err)
	}
	since := day.Add(-time.Hour)
	for name, c := range map[string]struct {
		f    read.RiskEventsRequest
		want []overwatch.IMO
	}{
		"sts either vessel":           {read.RiskEventsRequest{Type: risk.EventSTS, IMO: 9300001, EitherVessel: true}, []overwatch.IMO{9300003, 9300001}},
		"sts own vessel only":         {read.RiskEventsRequest{Type: risk.EventSTS, IMO: 9300001}, []overwatch.IMO{9300001}},
		"sts other side":              {read.RiskEventsRequest{Type: risk.EventSTS, IMO: 9300002, EitherVessel: true}, []overwatch.IMO{9300001}},
		"sts confidence":              {read.RiskEventsRequest{Type: risk.EventSTS, Confidence: "low"}, []overwatch.IMO{9300003}},
		"sts method":                  {read.RiskEventsRequest{Type: risk.EventSTS, Subtype: "proximity"}, []overwatch.IMO{9300001}},
		"loitering context":           {read.RiskEventsRequest{Type: risk.EventLoitering, Context: "known_transfer_area"}, []overwatch.IMO{9300003}},
		"loitering offshore":          {read.RiskEventsRequest{Type: risk.EventLoitering, Context: "offshore"}, []overwatch.IMO{}},
		"mismatch port":               {read.RiskEventsRequest{Type: risk.EventMismatch, Port: "santos"}, []overwatch.IMO{9300002}},
		"mismatch other port":         {read.RiskEventsRequest{Type: risk.EventMismatch, Port: "busan"}, []overwatch.IMO{}},
		"severity":                    {read.RiskEventsRequest{Severity: risk.TierMedium}, []overwatch.IMO{9300003, 9300002}},
		"ongoing":                     {read.RiskEventsRequest{OngoingOnly: true}, []overwatch.IMO{9300003}},
		"every type, newest":          {read.RiskEventsRequest{}, []overwatch.IMO{9300002, 9300003, 9300002, 9300003, 9300001}},
		"limit":                       {read.RiskEventsRequest{Limit: 2}, []overwatch.IMO{9300002, 9300003}},
		"history floor keeps ongoing": {read.RiskEventsRequest{Since: h(40), Limit: 100}, []overwatch.IMO{9300002, 9300003}},
		"identity field":              {read.RiskEventsRequest{Type: risk.EventIdentity, Subtype: "flag"}, []overwatch.IMO{9300002}},
		"under way in a range":        {read.RiskEventsRequest{From: h(6), To: h(40)}, []overwatch.IMO{9300003, 9300003}},
		"started by the range's end":  {read.RiskEventsRequest{To: h(2)}, []overwatch.IMO{9300003, 9300001}},
		"under way since":             {read.RiskEventsRequest{From: h(4)}, []overwatch.IMO{9300002, 9300003, 9300003, 9300001}},
	} {
		if c.f.Limit == 0 {
			c.f.Limit = 100
		}
		if c.f.Since.IsZero() {
			c.f.Since = since
		}
		rows, err := db.RiskEventRows(ctx, c.f)
		if err != nil {
			t.Fatal(name, err)
		}
		got := []overwatch.IMO{}
		for _, r := range rows {
			if !r.Start.Before(since) {
				got = append(got, r.Vessel.IMO)
			}
		}
		if !equalIMOs(got, c.want) {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
	rows, _ := db.RiskEventRows(ctx, read.RiskEventsRequest{Type: risk.EventSTS, IMO: 9300001, EitherVessel: true, Limit: 1, Since: since})
	if r := rows[0]; r.Other.IMO != 9300001 || r.Other.Name != "DARK ONE" || r.Other.Category != "tanker" || r.Vessel.Name != "LOITERER" ||
		r.Vessel.Flag != "KM" || r.Vessel.Category != "" {
		t.Errorf("both identities: %+v", r)
	}

	sts, err := db.STSStats(ctx, read.STSStatsRequest{Since: since})
	if err != nil {
		t.Fatal(err)
	}
	if sts.Total < 2 || sts.ByConfidence["high"] < 1 || sts.ByConfidence["low"] < 1 || sts.Tonnes < 12500 || sts.Active < 1 {
		t.Errorf("sts stats: %+v", sts)
	}
	stats, err := db.RiskStats(ctx, read.RiskStatsRequest{Now: h(31), Since: since})
	if err != nil {
		t.Fatal(err)
	}
	if stats.NewEvents24h != 1 || stats.ByTier["medium"] < 2 || stats.ByTier["critical"] < 1 {
		t.Errorf("risk stats: %+v", stats)
	}
}

func TestVesselRiskHotspotsBaselines(t *testing.T) {
	db := openRiskDB(t)
	ctx := context.Background()
	now := time.Date(2033, 1, 2, 3, 4, 5, 0, time.UTC)
	factors := []risk.Factor{
		{Name: "ais_gaps", Weight: 0.1, Value: 3, Contribution: 10, Reason: "3 AIS gaps of 12 h or more"},
		{Name: "sanctions", Weight: 0.3, Value: 0, Contribution: 0, Reason: "no sanctions-list match"},
	}
	if err := db.WriteVesselRisk(ctx, nextGen(), []risk.VesselScore{
		{IMO: 9300009, Name: "OLD", Tier: risk.TierLow, ComputedAt: now},
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.WriteVesselRisk(ctx, nextGen(), []risk.VesselScore{
		{IMO: 9300001, Name: "DARK ONE", Flag: "PA", ShipType: 80, Category: "tanker", Score: 81.26, Tier: risk.TierCritical, Factors: factors, ComputedAt: now},
		{IMO: 9300002, Name: "DARK TWO", Flag: "LR", ShipType: 71, Category: "cargo", Score: 40, Tier: risk.TierMedium, ComputedAt: now},
		{IMO: 9300003, Score: math.NaN(), Tier: risk.TierLow, ComputedAt: now},
	}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		f    read.VesselRisksRequest
		want []overwatch.IMO
	}{
		"all, by score": {read.VesselRisksRequest{}, []overwatch.IMO{9300001, 9300002, 9300003}},
		"tier":          {read.VesselRisksRequest{Tier: risk.TierMedium}, []overwatch.IMO{9300002}},
		"category":      {read.VesselRisksRequest{Category: "tanker"}, []overwatch.IMO{9300001}},
		"flag":          {read.VesselRisksRequest{Flag: "LR"}, []overwatch.IMO{9300002}},
		"imo":           {read.VesselRisksRequest{IMO: 9300003}, []overwatch.IMO{9300003}},
		"replaced":      {read.VesselRisksRequest{IMO: 9300009}, []overwatch.IMO{}},
		"limit":         {read.VesselRisksRequest{Limit: 1}, []overwatch.IMO{9300001}},
	} {
		if c.f.Limit == 0 {
			c.f.Limit = 100
		}
		rows, err := db.VesselRisks(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		got := []overwatch.IMO{}
		for _, r := range rows {
			got = append(got, r.IMO)
		}
		if !equalIMOs(got, c.want) {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
	rows, _ := db.VesselRisks(ctx, read.VesselRisksRequest{IMO: 9300001, Limit: 1})
	if r := rows[0]; r.Score != 81.26 || len(r.Factors) != 2 || r.Factors[0] != (risk.Factor{Name: "ais_gaps", Weight: 0.1, Value: 3, Contribution: 10, Reason: "3 AIS gaps of 12 h or more"}) ||
		!r.ComputedAt.Equal(now) || r.Category != "tanker" {
		t.Errorf("vessel risk: %+v", r)
	}

	if err := db.WriteHotspots(ctx, nextGen(), []risk.Hotspot{
		{ID: "1.0:36:22", Lat: 36.5, Lon: 22.5, CellDeg: 1, Events: 7, Vessels: 3, ByType: map[string]int{"sts_transfer": 4, "loitering": 3},
			FirstEvent: now.Add(-96 * time.Hour), LastEvent: now.Add(-time.Hour), Active: true, Severity: risk.TierHigh},
		{ID: "1.0:5:1", Lat: 5.5, Lon: 1.5, CellDeg: 1, Events: 9, Vessels: 2, FirstEvent: now.Add(-400 * time.Hour), LastEvent: now.Add(-300 * time.Hour)},
	}); err != nil {
		t.Fatal(err)
	}
	spots, err := db.RiskHotspots(ctx, read.HotspotsRequest{ActiveOnly: true, Limit: 10})
	if err != nil || len(spots) != 1 || spots[0].ID != "1.0:36:22" || spots[0].ByType["sts_transfer"] != 4 || !spots[0].Active || spots[0].Vessels != 3 {
		t.Fatalf("active hotspots: %+v %v", spots, err)
	}
	if spots, _ := db.RiskHotspots(ctx, read.HotspotsRequest{Limit: 10}); len(spots) != 2 || spots[0].ID != "1.0:5:1" || len(spots[0].ByType) != 0 {
		t.Errorf("all hotspots, most events first: %+v", spots)
	}
	if spots, _ := db.RiskHotspots(ctx, read.HotspotsRequest{Since: now.Add(-200 * time.Hour), Limit: 10}); len(spots) != 1 {
		t.Errorf("history floor: %+v", spots)
	}

	if err := db.WriteBaselines(ctx, nextGen(), []risk.Baseline{
		{Area: "open_ocean", Category: "tanker", VesselDays: 300, GapsPerVesselDay: 0.02, LoiterHoursPerDay: 0.5, TransfersPerDay: 0.01, From: now.AddDate(0, 0, -30), To: now},
		{Area: "europe", Category: "cargo", VesselDays: 120, From: now.AddDate(0, 0, -30), To: now},
	}); err != nil {
		t.Fatal(err)
	}
	base, err := db.RiskBaselines(ctx, read.BaselinesRequest{})
	if err != nil || len(base) != 2 || base[0].Area != "europe" || base[1].GapsPerVesselDay != 0.02 || !base[1].To.Equal(now) {
		t.Fatalf("baselines: %+v %v", base, err)
	}
	stats, err := db.RiskStats(ctx, read.RiskStatsRequest{Now: now, Since: now.AddDate(0, 0, -30)})
	if err != nil || stats.CriticalVessels != 1 || stats.ActiveHotspots != 1 {
		t.Errorf("stats of the single-window tables: %+v %v", stats, err)
	}
}

func TestIdentityTimeline(t *testing.T) {
	db := openRiskDB(t)
	ctx := context.Background()
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	cols := []string{"imo", "valid_from", "mmsi", "name", "call_sign", "flag", "ship_type", "source"}
	row := func(days int, mmsi uint32, name, flag, source string) []any {
		return []any{uint32(9300077), t0.AddDate(0, 0, days), mmsi, name, "CALL", flag, uint8(80), source}
	}
	chtest.Open(t, chtest.URL(t, "risk")).Insert(t, "vessel_identity", cols,
		row(10, 538000001, "NEW NAME", "MH", "aishub"), row(0, 538000001, "OLD NAME", "MH", "aishub"),
		row(0, 538000001, "OLD NAME", "MH", "spire"), row(20, 620000001, "NEW NAME", "KM", "aishub"))
	rows, err := db.IdentityTimeline(ctx, 9300077)
	if err != nil || len(rows) != 3 || rows[0].Name != "OLD NAME" || rows[1].Name != "NEW NAME" || rows[2].MMSI != 620000001 || !rows[2].ValidFrom.Equal(t0.AddDate(0, 0, 20)) {
		t.Fatalf("timeline: %+v %v", rows, err)
	}
	if rows, err := db.IdentityTimeline(ctx, 9300078); err != nil || len(rows) != 0 {
		t.Errorf("unknown vessel: %+v %v", rows, err)
	}
}

// An event's position is stored with whether it is known: an event with
// none (a sanctions match, an identity change with no fix near it) reads
// back without one, to the job and to the API, never as 0,0; a row written
// before the position flags (lat, lon 0,0 for unknown) reads the same.
func TestRiskEventPositions(t *testing.T) {
	db := openRiskDB(t)
	ctx := context.Background()
	day := time.Date(2034, 7, 1, 0, 0, 0, 0, time.UTC)
	at := day.Add(5 * time.Hour)
	placed := risk.Event{Type: risk.EventIdentity, Subtype: risk.IdentityFlag, IMO: 9300001, Start: at, End: tp(at), Severity: risk.TierMedium,
		Detail: map[string]any{"field": "flag", "old": "LR", "new": "PA"}}
	placed.Place(12.5, -20.25, 12.5, -20.25)
	unplaced := risk.Event{Type: risk.EventIdentity, Subtype: risk.IdentityName, IMO: 9300001, Start: at, End: tp(at), Severity: risk.TierLow,
		Detail: map[string]any{"field": "name", "old": "A", "new": "B"}}
	nan := risk.Event{Type: risk.EventIdentity, Subtype: risk.IdentityMMSI, IMO: 9300001, Start: at, End: tp(at), Severity: risk.TierMedium,
		Detail: map[string]any{"field": "mmsi"}}
	nan.Place(math.NaN(), 3, math.NaN(), 3)
	gen := nextGen()
	if err := db.WriteRiskEvents(ctx, gen, []time.Time{day}, []risk.Event{placed, unplaced, nan}, riskIdentity, day.Add(23*time.Hour)); err != nil {
		t.Fatal(err)
	}
	// A row as written before the flags: 0,0 for no position.
	fx := chtest.Open(t, chtest.URL(t, "risk"))
	fx.Insert(t, "risk_events", []string{"day", "gen", "type", "subtype", "imo", "started_at", "ended_at", "lat", "lon", "end_lat", "end_lon", "severity", "detail"},
		[]any{day, gen, risk.EventSanctions, "direct_imo", uint32(9300002), at, at, 0.0, 0.0, 0.0, 0.0, risk.TierCritical, "{}"},
		[]any{day, gen, risk.EventGap, "", uint32(9300002), at.Add(-4 * time.Hour), at, 30.5, 0.0, 0.0, 8.25, risk.TierLow, "{}"})
	want := map[string][2]bool{"flag": {true, true}, "name": {false, false}, "mmsi": {false, false}, "direct_imo": {false, false}, "": {true, true}}
	check := func(what, sub string, has, hasEnd bool, lat, lon float64) {
		w, ok := want[sub]
		switch {
		case !ok:
			t.Errorf("%s: unexpected %q", what, sub)
		case has != w[0] || hasEnd != w[1]:
			t.Errorf("%s %q: position known %v, end %v; want %v", what, sub, has, hasEnd, w)
		case sub == "flag" && (lat != 12.5 || lon != -20.25):
			t.Errorf("%s: flag change at %v,%v", what, lat, lon)
		}
	}
	all, err := db.RiskEventRows(ctx, read.RiskEventsRequest{Limit: 100, Since: day})
	var rows []read.RiskEventRow
	for _, r := range all {
		if r.Start.Year() == day.Year() { // the other tests' open events are listed too
			rows = append(rows, r)
		}
	}
	if err != nil || len(rows) != 5 {
		t.Fatalf("%d rows, %v: %+v", len(rows), err, rows)
	}
	for _, r := range rows {
		check("API row", r.Subtype, r.HasPosition, r.HasEndPosition, r.Lat, r.Lon)
	}
	events, err := db.RiskEvents(ctx, day, day.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range events {
		if e.Start.Year() != day.Year() {
			continue
		}
		n++
		check("job's event", e.Subtype, e.HasPosition, e.HasEndPosition, e.Lat, e.Lon)
	}
	if n != 5 {
		t.Errorf("%d events of the day, want 5", n)
	}
}
