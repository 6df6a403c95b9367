package accuracy

import (
	"fmt"
	"math"
	"sort"
	"time"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/read"
	"overwatch/write/sim"
)

// The trade analytics' scoring against the simulator's injected truths:
// pure functions of the truth file and the API's answers, so
// that they are unit-tested on hand-made truths (accuracy_trade_unit_test.go)
// and run on whole simulations (accuracy_trade_test.go).

// tradeGoal is the precision and recall every detection row must reach.
const tradeGoal = 0.9

// Matching tolerances.
const (
	shiftSlack   = 21 * 24 * time.Hour // a shift's start, ±3 weeks
	arrivalSlack = 36 * time.Hour      // a deception's arrival (the call's detected entry against the truth's)
	flowMaxDays  = 70                  // trade.MaxTransitDays: a load and its discharge
	flowSettle   = 77 * 24 * time.Hour // a departure week's voyages have all arrived this long after its Monday
)

// tradeRow is a line of the trade table: a figure, its goal and whether it
// is met; scored is false when nothing was in scope (the goal is then not
// asserted).
type tradeRow struct {
	name, figure, goal string
	met, scored        bool
	misses             []string
	// A precision/recall row also keeps its counts (a recall-only row
	// truth and found).
	truth, found, detected, right int
	smokeP                        bool // the smoke run asserts its precision too
	noSmoke                       bool // the smoke run asserts nothing of it
	info                          bool // no goal: shown for information
}

// prRow is a precision/recall row: truth events in scope and how many
// were found; detections in scope and how many were right.
func prRow(name string, truth, found, detected, right int, misses []string) tradeRow {
	p, r := ratio(right, detected), ratio(found, truth)
	return tradeRow{name: name, figure: fmt.Sprintf("P %.3f (%d/%d)  R %.3f (%d/%d)", p, right, detected, r, found, truth),
		goal: fmt.Sprintf("P, R ≥ %.2f", tradeGoal), met: p >= tradeGoal && r >= tradeGoal, scored: truth > 0 || detected > 0, misses: misses,
		truth: truth, found: found, detected: detected, right: right}
}

// shiftTruth is an injected route shift: from start, the origin's voyages
// of the commodity to from go to to instead.
type shiftTruth struct {
	origin, commodity, from, to string
	start                       time.Time
	// arrival is when its first shifted voyages arrive (the detail's
	// first_arrival; start when absent): the endpoint counts shares by
	// week of arrival.
	arrival time.Time
}

// legTruth is a laden leg of the truth whose declared destination was not
// the port reached: deceptive (kept until arrival, or the port reached in
// another country) or an honest late change of orders.
type legTruth struct {
	imo                     overwatch.IMO
	departure, arrival      time.Time
	declaredPort, actual    string
	kind                    string // deceptive_destination, destination_mismatch or honest
	laden                   bool   // a loading call's leg to a discharging call at the port reached
	keptUntilArrival, other bool
}

// anomalyTruth is an injected port-volume anomaly: the port's exports of
// the ISO week (its Monday) multiplied by factor.
type anomalyTruth struct {
	port, direction string // drop or surge
	week            time.Time
	factor          float64
}

// tradeTruth is what the trade scoring needs of the truth file.
type tradeTruth struct {
	calls      map[overwatch.IMO][]sim.PortCall // by arrival
	shifts     []shiftTruth
	anomalies  []anomalyTruth
	deceptions []legTruth // deceptive_destination and destination_mismatch
	honest     []legTruth
}

func detailString(d any, key string) string {
	m, _ := d.(map[string]any)
	s, _ := m[key].(string)
	return s
}

func detailBool(d any, key string) bool {
	m, _ := d.(map[string]any)
	b, _ := m[key].(bool)
	return b
}

// newTradeTruth reads the truth lines the trade scoring uses.
func newTradeTruth(truth []sim.Truth) *tradeTruth {
	tt := &tradeTruth{calls: map[overwatch.IMO][]sim.PortCall{}}
	for _, tr := range truth {
		if tr.Type == "port_call" && tr.Call != nil && len(tr.Vessels) == 1 {
			tt.calls[tr.Vessels[0]] = append(tt.calls[tr.Vessels[0]], *tr.Call)
		}
	}
	for _, calls := range tt.calls {
		sort.Slice(calls, func(i, j int) bool { return calls[i].Arrival.Before(calls[j].Arrival) })
	}
	for _, tr := range truth {
		switch {
		case tr.Type == "route_shift" && tr.Start != nil:
			sh := shiftTruth{origin: detailString(tr.Detail, "origin"), commodity: detailString(tr.Detail, "commodity"),
				from: detailString(tr.Detail, "from"), to: detailString(tr.Detail, "to"), start: *tr.Start, arrival: *tr.Start}
			if a, err := time.Parse(time.DateOnly, detailString(tr.Detail, "first_arrival")); err == nil {
				sh.arrival = a
			}
			tt.shifts = append(tt.shifts, sh)
		case tr.Type == "volume_anomaly" && tr.Start != nil:
			tt.anomalies = append(tt.anomalies, anomalyTruth{port: detailString(tr.Detail, "port"), direction: tr.Subtype,
				week: portstats.Monday(*tr.Start), factor: detailFloat(tr.Detail, "factor")})
		case (tr.Type == "deceptive_destination" || tr.Type == "destination_mismatch" ||
			tr.Type == "destination_change" && tr.Subtype == "honest") && tr.Start != nil && len(tr.Vessels) == 1:
			leg := legTruth{imo: tr.Vessels[0], departure: *tr.Start, declaredPort: detailString(tr.Detail, "declared_port"),
				actual: detailString(tr.Detail, "actual_port"), kind: tr.Type, keptUntilArrival: detailBool(tr.Detail, "kept_until_arrival"),
				other: detailBool(tr.Detail, "other_country")}
			if tr.Type == "destination_change" {
				leg.kind = "honest"
			}
			if tr.End != nil {
				leg.arrival = *tr.End
			}
			tt.resolveLeg(&leg)
			if leg.kind == "honest" {
				tt.honest = append(tt.honest, leg)
			} else if leg.declaredPort != "" && leg.declaredPort != leg.actual { // FOR ORDERS names no port: nothing to flag
				tt.deceptions = append(tt.deceptions, leg)
			}
		}
	}
	return tt
}

// resolveLeg finds the leg's calls: the last call departed by its
// departure (+1 h) and the first call after it. The leg is laden when the
// first loaded and the second, at the port reached, discharged; the
// arrival, when the truth line has none, is that call's.
func (tt *tradeTruth) resolveLeg(leg *legTruth) {
	calls := tt.calls[leg.imo]
	from, to := -1, -1
	for i := range calls {
		if !calls[i].Departure.After(leg.departure.Add(time.Hour)) {
			from = i
		} else if calls[i].Arrival.After(leg.departure) {
			to = i
			break
		}
	}
	if to < 0 {
		return
	}
	if leg.arrival.IsZero() {
		leg.arrival = calls[to].Arrival
	}
	leg.laden = from >= 0 && calls[from].Operation == "load" && calls[to].Operation == "discharge" && calls[to].Port == leg.actual
}

// routeKey is a weekly origin→destination cell.
type routeKey struct {
	week                time.Time
	origin, destination string
}

// truthFlows are the weekly origin→destination tonnes of the truth's
// completed laden voyages (trade.BuildVoyages' rule on the true calls:
// a loading call and the vessel's next discharging call at another port
// within 70 days; a second loading call first starts a voyage of its own),
// by week of departure, without container liners (whose calls load and
// discharge at every port: the truth has no origin→destination tonnes).
func (tt *tradeTruth) truthFlows(dataEnd time.Time) map[routeKey]float64 {
	out := map[routeKey]float64{}
	for _, calls := range tt.calls {
		for i, c := range calls {
			if c.Operation != "load" || c.Commodity == overwatch.CommodityContainers {
				continue
			}
			for _, d := range calls[i+1:] {
				if d.Operation == "load" || d.Arrival.Sub(c.Departure) > flowMaxDays*24*time.Hour {
					break
				}
				if d.Operation == "discharge" && d.Port != c.Port {
					if d.Departure.Before(dataEnd) {
						out[routeKey{portstats.Monday(c.Departure), c.Port, d.Port}] += c.CargoTonnes
					}
					break
				}
			}
		}
	}
	return out
}

// scoreFlows compares the API's weekly flows (without containers) to the
// truth's over the departure weeks from the second week of the data to
// the last whose voyages have all arrived: the weighted absolute error
// Σ|api − truth| / Σ truth over the week × origin × destination cells,
// and the bias of the total.
func scoreFlows(tt *tradeTruth, flows []read.Flow, start, dataEnd time.Time) []tradeRow {
	from, to := portstats.Monday(start).Add(7*24*time.Hour), dataEnd.Add(-flowSettle)
	in := func(w time.Time) bool { return !w.Before(from) && !w.After(to) }
	truth := map[routeKey]float64{}
	for k, v := range tt.truthFlows(dataEnd) {
		if in(k.week) {
			truth[k] += v
		}
	}
	api := map[routeKey]float64{}
	for _, f := range flows {
		w, err := time.Parse(time.DateOnly, f.WeekStart)
		if err != nil || !in(w) || f.Commodity == overwatch.CommodityContainers {
			continue
		}
		api[routeKey{w, f.Origin, f.Destination}] += f.Tonnes
	}
	var absErr, sumT, sumA float64
	keys := map[routeKey]bool{}
	for k := range truth {
		keys[k] = true
	}
	for k := range api {
		keys[k] = true
	}
	type cell struct {
		k    routeKey
		diff float64
	}
	var worst []cell
	for k := range keys {
		absErr += math.Abs(api[k] - truth[k])
		sumT += truth[k]
		sumA += api[k]
		worst = append(worst, cell{k, api[k] - truth[k]})
	}
	sort.Slice(worst, func(i, j int) bool { return math.Abs(worst[i].diff) > math.Abs(worst[j].diff) })
	var misses []string
	for _, c := range worst[:min(10, len(worst))] {
		misses = append(misses, fmt.Sprintf("%s %s→%s: api %.0f t, truth %.0f t", c.k.week.Format(time.DateOnly), c.k.origin, c.k.destination, api[c.k], truth[c.k]))
	}
	wape, bias := math.NaN(), math.NaN()
	if sumT > 0 {
		wape, bias = absErr/sumT*100, (sumA/sumT-1)*100
	}
	return []tradeRow{
		{name: "flows: weekly origin→destination tonnes", figure: fmt.Sprintf("error %.1f%% over %d cells (%.0f t true)", wape, len(keys), sumT),
			goal: "≤ 10%", met: wape <= 10, scored: sumT > 0, misses: misses},
		{name: "flows: total tonnes", figure: fmt.Sprintf("bias %+.1f%%", bias), goal: "≤ ±10%", met: math.Abs(bias) <= 10, scored: sumT > 0},
	}
}

// shiftWindow is the window the shifts endpoint compares when it lists
// nothing: its current weeks start 4 weeks before the week holding the
// end of the data (else the rows' as_of is the last of them).
func shiftWindow(dataEnd time.Time) (current time.Time) {
	return portstats.Monday(dataEnd).Add(-4 * 7 * 24 * time.Hour)
}

// scoreShifts scores the API's shift rows (all as of the last 4 complete
// weeks against the 12 before) against the injected route shifts. A true
// shift is in scope when its first shifted voyages arrived (first_arrival;
// its start when the truth does not say) between 4 weeks before the
// current window and its third week (earlier, the baseline holds it too;
// later, too little of the current window does). It is found when a row
// of its origin (its commodity, or all commodities) has its to destination
// gaining or its from destination losing, started within ±3 weeks of its
// start or of its first arrival (the endpoint dates by week of arrival). A
// row is right when such a truth (in scope or not) explains it.
func scoreShifts(tt *tradeTruth, shifts []read.Shift, dataEnd time.Time) tradeRow {
	cur := shiftWindow(dataEnd)
	for _, s := range shifts { // the window the service used: as_of is its last week
		if asOf, err := time.Parse(time.DateOnly, s.AsOf); err == nil {
			cur = asOf.Add(-3 * 7 * 24 * time.Hour)
			break
		}
	}
	lo, hi := cur.Add(-4*7*24*time.Hour), cur.Add(2*7*24*time.Hour)
	explains := func(tr shiftTruth, s read.Shift) bool {
		started, err := time.Parse(time.DateOnly, s.Started)
		if err != nil || s.Origin != tr.origin || (s.Commodity != tr.commodity && s.Commodity != "all") {
			return false
		}
		near := func(t time.Time) bool { d := started.Sub(t); return d >= -shiftSlack && d <= shiftSlack }
		if !near(tr.start) && !near(tr.arrival) {
			return false
		}
		return s.Destination == tr.to && s.Direction == "gaining" || s.Destination == tr.from && s.Direction == "losing"
	}
	var truth, found, right int
	var misses []string
	for _, tr := range tt.shifts {
		if tr.arrival.Before(lo) || tr.arrival.After(hi) {
			continue
		}
		truth++
		hit := false
		for _, s := range shifts {
			hit = hit || explains(tr, s)
		}
		if hit {
			found++
		} else {
			misses = append(misses, fmt.Sprintf("missed: %s %s %s→%s from %s", tr.origin, tr.commodity, tr.from, tr.to, tr.start.Format(time.DateOnly)))
		}
	}
	for _, s := range shifts {
		ok := false
		for _, tr := range tt.shifts {
			ok = ok || explains(tr, s)
		}
		if ok {
			right++
		} else {
			misses = append(misses, fmt.Sprintf("unexplained: %s %s %s %s %+.3f started %s", s.Origin, s.Commodity, s.Destination, s.Direction, s.Change, s.Started))
		}
	}
	row := prRow("shifts (origin, destination, start ±3 weeks)", truth, found, len(shifts), right, misses)
	row.noSmoke = true // a small fleet's origins have too few voyages a window for the detector
	return row
}

// legMatches reports whether an API deception row is the truth's leg: the
// same vessel and port reached, the arrival within arrivalSlack.
func legMatches(leg legTruth, d read.Deception) bool {
	arr, err := time.Parse(time.RFC3339, d.Arrival)
	if err != nil || d.IMO != leg.imo.String() || d.ActualPort != leg.actual {
		return false
	}
	diff := arr.Sub(leg.arrival)
	return diff >= -arrivalSlack && diff <= arrivalSlack
}

// scoreDeceptions scores the API's deception rows against the deceptive
// legs of the truth (deceptive_destination, and the older
// destination_mismatch lines, whose false destination is also kept until
// arrival) and the honest late changes of orders. In scope: laden legs
// (a loading call to a discharging call at the port reached: the voyages
// the service pairs) that departed after start and arrived within
// [start+1 d, dataEnd−1 d]. Recall:
// the deceptive legs listed as suspicious; precision: the suspicious rows
// arriving in that window that are deceptive legs. A second row: the
// honest changes not listed as suspicious (every honest change in scope
// counts; listed with suspicious=false is right, absent too).
func scoreDeceptions(tt *tradeTruth, rows []read.Deception, start, dataEnd time.Time) []tradeRow {
	from, to := start.Add(24*time.Hour), dataEnd.Add(-24*time.Hour)
	in := func(t time.Time) bool { return !t.Before(from) && !t.After(to) }
	var truth, found, detected, right int
	var misses []string
	for _, leg := range tt.deceptions {
		if !leg.laden || leg.departure.Before(start) || !in(leg.arrival) {
			continue
		}
		truth++
		hit := false
		for _, d := range rows {
			hit = hit || d.Suspicious && legMatches(leg, d)
		}
		if hit {
			found++
		} else {
			misses = append(misses, fmt.Sprintf("missed: %s %s departed %s, arrived %s at %s (declared %s)", leg.kind, leg.imo,
				leg.departure.Format(time.RFC3339), leg.arrival.Format(time.RFC3339), leg.actual, leg.declaredPort))
		}
	}
	for _, d := range rows {
		arr, err := time.Parse(time.RFC3339, d.Arrival)
		if !d.Suspicious || err != nil || !in(arr) {
			continue
		}
		detected++
		ok := false
		for _, leg := range tt.deceptions {
			ok = ok || legMatches(leg, d)
		}
		if ok {
			right++
		} else {
			misses = append(misses, fmt.Sprintf("false: %s %s declared %s (%s) reached %s: %s", d.IMO, d.Arrival, d.Declared, d.DeclaredPort, d.ActualPort, d.Reason))
		}
	}
	rowsOut := []tradeRow{prRow("deceptions (suspicious)", truth, found, detected, right, misses)}
	rowsOut[0].smokeP = true
	var honest, spared int
	var hm []string
	for _, leg := range tt.honest {
		if !leg.laden || leg.departure.Before(start) || !in(leg.arrival) {
			continue
		}
		honest++
		flagged := false
		for _, d := range rows {
			flagged = flagged || d.Suspicious && legMatches(leg, d)
		}
		if !flagged {
			spared++
		} else {
			hm = append(hm, fmt.Sprintf("flagged: honest change %s reaching %s at %s", leg.imo, leg.actual, leg.arrival.Format(time.RFC3339)))
		}
	}
	r := ratio(spared, honest)
	rowsOut = append(rowsOut, tradeRow{name: "honest late changes not flagged", figure: fmt.Sprintf("%.3f (%d/%d)", r, spared, honest),
		goal: fmt.Sprintf("≥ %.2f", tradeGoal), met: r >= tradeGoal, scored: honest > 0, misses: hm, truth: honest, found: spared})
	return rowsOut
}
