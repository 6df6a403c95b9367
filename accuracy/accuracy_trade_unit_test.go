package accuracy

import (
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/forecast"
	"overwatch/read"
	"overwatch/write/sim"
)

// Unit tests of the trade scoring on hand-made truths (the simulator's
// truth schema: route_shift, volume_anomaly, deceptive_destination,
// destination_change/honest, port_call).

var tuStart = time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC) // a Monday

// tuCall is a port_call truth line: arrival at day (from tuStart), two
// days in port.
func tuCall(imo overwatch.IMO, port, op, commodity string, day float64, tonnes float64) sim.Truth {
	arr := tuStart.Add(time.Duration(day * 24 * float64(time.Hour)))
	dep := arr.Add(48 * time.Hour)
	return sim.Truth{Type: "port_call", Vessels: []overwatch.IMO{imo}, Start: &arr, End: &dep,
		Call: &sim.PortCall{Port: port, Arrival: arr, Departure: dep, Operation: op, Commodity: commodity, CargoTonnes: tonnes}}
}

func tuTime(day float64) *time.Time {
	t := tuStart.Add(time.Duration(day * 24 * float64(time.Hour)))
	return &t
}

func TestTradeScoreFlows(t *testing.T) {
	truth := []sim.Truth{
		tuCall(1, "santos", "load", "grain", 10, 50000), // departs day 12 (week of day 7)
		tuCall(1, "qingdao", "discharge", "grain", 45, 50000),
		tuCall(2, "santos", "load", "grain", 11, 30000),
		tuCall(2, "singapore", "unknown", "", 30, 0), // a bunkering stop does not end the voyage
		tuCall(2, "qingdao", "discharge", "grain", 50, 30000),
		tuCall(3, "santos", "load", overwatch.CommodityContainers, 11, 9000), // liners: not a flow
		tuCall(3, "qingdao", "discharge", overwatch.CommodityContainers, 50, 9000),
		tuCall(4, "santos", "load", "grain", 200, 40000), // departs after the settled weeks
		tuCall(4, "qingdao", "discharge", "grain", 230, 40000),
	}
	tt := newTradeTruth(truth)
	dataEnd := tuStart.Add(240 * 24 * time.Hour)
	week := tuStart.Add(7 * 24 * time.Hour).Format(time.DateOnly)
	flow := func(tonnes float64, commodity string) read.Flow {
		return read.Flow{WeekStart: week, Origin: "santos", Destination: "qingdao", Commodity: commodity, Tonnes: tonnes}
	}
	rows := scoreFlows(tt, []read.Flow{flow(80000, "grain"), flow(5000, overwatch.CommodityContainers)}, tuStart, dataEnd)
	if !rows[0].met || !rows[0].scored || !strings.HasPrefix(rows[0].figure, "error 0.0%") {
		t.Errorf("exact flows: %+v", rows[0])
	}
	rows = scoreFlows(tt, []read.Flow{flow(64000, "grain")}, tuStart, dataEnd)
	if rows[0].met || !strings.HasPrefix(rows[0].figure, "error 20.0%") || rows[1].met || rows[1].figure != "bias -20.0%" {
		t.Errorf("flows 20%% short: %+v %+v", rows[0], rows[1])
	}
	// A flow to a destination the truth never reached is all error.
	wrong := flow(80000, "grain")
	wrong.Destination = "rizhao"
	if rows = scoreFlows(tt, []read.Flow{wrong}, tuStart, dataEnd); !strings.HasPrefix(rows[0].figure, "error 200.0%") || rows[1].figure != "bias +0.0%" {
		t.Errorf("misrouted flows: %+v %+v", rows[0], rows[1])
	}
}

func TestTradeScoreShifts(t *testing.T) {
	dataEnd := time.Date(2026, 10, 7, 12, 0, 0, 0, time.UTC) // current window from Mon 2026-09-07
	cur := shiftWindow(dataEnd)
	if cur.Format(time.DateOnly) != "2026-09-07" {
		t.Fatalf("current window from %s", cur.Format(time.DateOnly))
	}
	shift := func(origin string, start time.Time) sim.Truth {
		return sim.Truth{Type: "route_shift", Vessels: []overwatch.IMO{}, Start: &start,
			Detail: map[string]any{"origin": origin, "commodity": "grain", "from": "qingdao", "to": "rizhao"}}
	}
	tt := newTradeTruth([]sim.Truth{shift("santos", cur.Add(-7*24*time.Hour)), shift("rosario", cur.Add(-30*7*24*time.Hour))})
	row := func(origin, commodity, dest, dir, started string) read.Shift {
		return read.Shift{Origin: origin, Commodity: commodity, Destination: dest, Direction: dir, Started: started}
	}
	rows := []read.Shift{
		row("santos", "grain", "rizhao", "gaining", "2026-09-14"),  // 3 weeks after the truth's start: within
		row("santos", "all", "qingdao", "losing", "2026-08-24"),    // all commodities
		row("santos", "grain", "dalian", "gaining", "2026-08-31"),  // not the shift's destinations
		row("santos", "grain", "rizhao", "gaining", "2026-10-05"),  // 6 weeks off
		row("rosario", "grain", "rizhao", "gaining", "2026-09-07"), // the truth started 30 weeks before
	}
	got := scoreShifts(tt, rows, dataEnd)
	if got.truth != 1 || got.found != 1 || got.detected != 5 || got.right != 2 || got.met {
		t.Errorf("shifts: %+v", got)
	}
	if got = scoreShifts(tt, rows[2:], dataEnd); got.found != 0 || got.right != 0 {
		t.Errorf("without the right rows: %+v", got)
	}
	if got = scoreShifts(tt, rows[:2], dataEnd); !got.met {
		t.Errorf("the right rows only: %+v", got)
	}
	// A shift that started 10 weeks before the window, its first voyages
	// arriving in it: in scope, found by the week of arrival.
	far := shift("santos", cur.Add(-10*7*24*time.Hour))
	far.Detail.(map[string]any)["first_arrival"] = cur.Add(-7 * 24 * time.Hour).Format(time.DateOnly)
	tt = newTradeTruth([]sim.Truth{far})
	if got = scoreShifts(tt, rows[:1], dataEnd); got.truth != 1 || got.found != 1 || got.right != 1 {
		t.Errorf("by first arrival: %+v", got)
	}
	if got = scoreShifts(newTradeTruth([]sim.Truth{shift("santos", cur.Add(-10*7*24*time.Hour))}), rows[:1], dataEnd); got.truth != 0 || got.right != 0 {
		t.Errorf("without first arrival, 10 weeks before: %+v", got)
	}
}

func TestTradeScoreDeceptions(t *testing.T) {
	truth := []sim.Truth{
		tuCall(1, "santos", "load", "grain", 10, 50000),
		tuCall(1, "rizhao", "discharge", "grain", 45, 50000),
		{Type: "deceptive_destination", Vessels: []overwatch.IMO{1}, Start: tuTime(12), End: tuTime(45),
			Detail: map[string]any{"declared": "CNTAO", "declared_port": "qingdao", "actual_port": "rizhao", "kept_until_arrival": true}},
		tuCall(2, "santos", "load", "grain", 10, 50000),
		tuCall(2, "paranagua", "discharge", "grain", 15, 50000),
		{Type: "destination_change", Subtype: "honest", Vessels: []overwatch.IMO{2}, Start: tuTime(12), End: tuTime(15),
			Detail: map[string]any{"declared": "RIO GRANDE", "declared_port": "rio-grande", "actual_port": "paranagua"}},
		tuCall(3, "qingdao", "discharge", "grain", 10, 0), // a ballast leg: the service pairs no voyage
		tuCall(3, "santos", "load", "grain", 40, 50000),
		{Type: "destination_mismatch", Vessels: []overwatch.IMO{3}, Start: tuTime(12),
			Detail: map[string]any{"declared": "ROTTERDAM", "declared_port": "rotterdam", "actual_port": "santos"}},
		tuCall(4, "santos", "load", "grain", 10, 50000),
		tuCall(4, "qingdao", "discharge", "grain", 45, 50000),
		{Type: "destination_mismatch", Vessels: []overwatch.IMO{4}, Start: tuTime(12), // FOR ORDERS: no port to flag
			Detail: map[string]any{"declared": "FOR ORDERS", "declared_port": "", "actual_port": "qingdao"}},
	}
	tt := newTradeTruth(truth)
	if len(tt.deceptions) != 2 || !tt.deceptions[0].laden || tt.deceptions[1].laden || len(tt.honest) != 1 || !tt.honest[0].laden {
		t.Fatalf("legs: %+v honest %+v", tt.deceptions, tt.honest)
	}
	dataEnd := tuStart.Add(100 * 24 * time.Hour)
	dec := func(imo overwatch.IMO, port string, day float64, suspicious bool) read.Deception {
		return read.Deception{IMO: imo.String(), ActualPort: port, Arrival: tuTime(day).Format(time.RFC3339), Suspicious: suspicious}
	}
	rows := scoreDeceptions(tt, []read.Deception{dec(1, "rizhao", 45.5, true), dec(2, "paranagua", 15, false)}, tuStart, dataEnd)
	if !rows[0].met || rows[0].truth != 1 || rows[0].detected != 1 || !rows[1].met || rows[1].truth != 1 {
		t.Errorf("right answers: %+v %+v", rows[0], rows[1])
	}
	rows = scoreDeceptions(tt, []read.Deception{dec(1, "rizhao", 48, true), dec(2, "paranagua", 15, true)}, tuStart, dataEnd)
	if rows[0].found != 0 || rows[0].detected != 2 || rows[0].right != 0 || rows[1].met {
		t.Errorf("late arrival, honest change flagged: %+v %+v", rows[0], rows[1])
	}
}

func TestTradeScoreAnomalies(t *testing.T) {
	// A port loading 12 vessels of about 30,000 t a week for 70 weeks, but
	// 2 in week 60 (an injected drop to about 0.2: the anomaly rules also
	// ask the vessel count to move, significantly).
	var truth []sim.Truth
	for w := 0; w < 70; w++ {
		vessels := 12
		if w == 60 {
			vessels = 2
		}
		for v := 0; v < vessels; v++ {
			truth = append(truth, tuCall(overwatch.IMO(100+v), "santos", "load", "grain", float64(w*7)+float64(v)*0.4, 30000+float64(w%3)*1000))
		}
	}
	drop := tuStart.Add(60 * 7 * 24 * time.Hour)
	next := drop.Add(7 * 24 * time.Hour)
	truth = append(truth, sim.Truth{Type: "volume_anomaly", Subtype: "drop", Start: &drop, End: &next, Detail: map[string]any{"port": "santos", "factor": 0.2}})
	tt := newTradeTruth(truth)
	dataEnd := tuStart.Add(70 * 7 * 24 * time.Hour)
	exp := expectedAnomalies(tt.trueSeries(tuStart, dataEnd))
	k := anomalyKey{"santos", "drop", drop}
	for _, typ := range forecast.Types {
		if !exp[typ][k] {
			t.Errorf("%s is expected to fire for a drop to 0.2 of a steady port", typ)
		}
	}
	item := func(typ, dir string, w time.Time) read.AnomalyItem {
		return read.AnomalyItem{Port: "santos", Type: typ, Direction: dir, WeekStart: w.Format(time.DateOnly)}
	}
	rows := scoreAnomalies(tt, []read.AnomalyItem{item("trailing", "drop", drop), item("trailing", "surge", next),
		item("yoy", "drop", drop.Add(-7*24*time.Hour)), item("seasonal_range", "drop", drop)}, tuStart, dataEnd)
	byName := map[string]tradeRow{}
	for _, r := range rows {
		byName[r.name] = r
	}
	// trailing: found; the surge the week after is the drop's echo.
	if r := byName["anomalies trailing"]; !r.met || r.detected != 1 {
		t.Errorf("trailing: %+v", r)
	}
	if r := byName["anomalies yoy"]; r.found != 0 || r.detected != 1 || r.right != 0 || r.met {
		t.Errorf("yoy a week early: %+v", r)
	}
	if r := byName["anomalies seasonal_avg"]; r.truth != 1 || r.found != 0 {
		t.Errorf("seasonal_avg missed: %+v", r)
	}
	if !isEcho(forecast.TypeYoY, anomalyKey{"santos", "surge", drop.Add(52 * 7 * 24 * time.Hour)}, tt.anomalies) ||
		!isEcho(forecast.TypeSeasonalAvg, anomalyKey{"santos", "surge", drop.Add(53 * 7 * 24 * time.Hour)}, tt.anomalies) ||
		isEcho(forecast.TypeYoY, anomalyKey{"santos", "drop", drop.Add(52 * 7 * 24 * time.Hour)}, tt.anomalies) {
		t.Error("echoes")
	}
}

func TestTradeScoreForecasts(t *testing.T) {
	var truth []sim.Truth
	for w := 0; w < 20; w++ {
		truth = append(truth, tuCall(1, "santos", "load", "grain", float64(w*7), 50000))
	}
	tt := newTradeTruth(truth)
	dataEnd := tuStart.Add(20 * 7 * 24 * time.Hour)
	f := func(v float64) *float64 { return &v }
	acc := []read.AccuracyItem{
		{Port: "santos", Method: "statistical", Horizon: 1, Forecasts: 10, MAPE: f(10), Baseline: read.BaselineAccuracy{MAPE: f(12)}, BeatsBaseline: true},
		{Port: "santos", Method: "statistical", Horizon: 2, Forecasts: 10, MAPE: f(16), Baseline: read.BaselineAccuracy{MAPE: f(12)}},
		{Port: "santos", Method: "pipeline", Horizon: 1, Forecasts: 10, MAE: 5000, FirstOrigin: tuStart.Add(5 * 7 * 24 * time.Hour).Format(time.DateOnly)},
	}
	rows := scoreForecasts(tt, acc, tuStart, dataEnd)
	if rows[0].met || !strings.HasPrefix(rows[0].figure, "13.0% vs 12.0%") {
		t.Errorf("statistical pooled worse than the baseline: %+v", rows[0])
	}
	if !rows[2].met || !strings.HasPrefix(rows[2].figure, "10.0%") {
		t.Errorf("pipeline: %+v", rows[2])
	}
	acc[1].MAPE = f(12)
	if rows = scoreForecasts(tt, acc, tuStart, dataEnd); !rows[0].met {
		t.Errorf("statistical pooled better: %+v", rows[0])
	}
	full := tradePlan{minTruth: 1, floor: tradeGoal}
	if m := tradeMisses(rows, full); len(m) != 0 {
		t.Errorf("misses %v", m)
	}
	rows[2].met = false
	if m := tradeMisses(rows, full); len(m) != 1 {
		t.Errorf("misses %v", m)
	}
}

func TestTradeMissesSmoke(t *testing.T) {
	smoke := tradePlan{minTruth: 5, floor: 0.5}
	rows := []tradeRow{
		prRow("deceptions", 10, 6, 10, 4, nil),          // precision 0.4: asserted
		prRow("anomalies trailing", 10, 6, 100, 3, nil), // recall 0.6, precision not asserted
		prRow("anomalies yoy", 4, 0, 50, 0, nil),        // 4 truths: too few
		{name: "flows", scored: true},
	}
	rows[0].smokeP = true
	shifts := prRow("shifts", 10, 0, 10, 0, nil)
	shifts.noSmoke = true
	rows = append(rows, shifts)
	m := tradeMisses(rows, smoke)
	if len(m) != 1 || !strings.HasPrefix(m[0], "deceptions") {
		t.Errorf("smoke misses %v", m)
	}
	rows[1].found = 4
	if m = tradeMisses(rows, smoke); len(m) != 2 {
		t.Errorf("smoke misses with a recall of 0.4: %v", m)
	}
}
