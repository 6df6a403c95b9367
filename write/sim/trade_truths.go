package sim

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"overwatch"
)

const week = 7 * 24 * time.Hour

// routeShift is an injected route shift: from start, the voyages of the
// origin's commodity that would have gone to from go to to. Its lanes are
// chosen when the planner reaches shiftsSettle before the end of the run
// (settleShifts); lead is how long before the week holding the end its
// shifted voyages start arriving.
type routeShift struct {
	origin, commodity, from, to string
	start                       time.Time
	lead                        time.Duration
	settled                     bool
}

// shiftsSettle is how long before the week holding the end of the run
// the shifts' lanes are chosen: beyond the longest lead (6 weeks) plus the
// longest laden transit (under 8 weeks) and a week.
const shiftsSettle = 15 * week

// volumeAnomaly is an injected port closure: every berth of the port
// stops working for the ISO week starting week (a cyclone, a strike), so
// that nothing departs in it, and works catchUpPace times faster the week
// after, clearing the queue (two volume_anomaly truths: a drop in the
// week, a surge the week after).
type volumeAnomaly struct {
	port    string // "" until settled
	week    time.Time
	settled bool
}

// Closures: the berths stop closeAhead before the week (a vessel that
// would leave the port area in the week stays), and work catchUpPace
// times faster the week after.
const (
	closeAhead  = 12 * time.Hour
	catchUpPace = 2.5
	// closureMinWeekly is the loading vessels a week of the ports a
	// closure prefers.
	closureMinWeekly = 8
)

// topLane is the origin's most likely destination for the commodity and
// its share of the discharge choice's weight.
func (p *Planner) topLane(origin, commodity string) (string, float64) {
	top, best, total := "", 0.0, 0.0
	for _, d := range p.candidates(origin, p.trade.importers[commodity], 13) {
		v := math.Pow(math.Max(p.routes.distanceNM(origin, d), 1), -0.35) * p.world.lane(origin, commodity, d)
		total += v
		if v > best {
			top, best = d, v
		}
	}
	if total == 0 {
		return "", 0
	}
	return top, best / total
}

// monday is the start of the ISO week holding t (UTC).
func monday(t time.Time) time.Time {
	d := t.UTC().Truncate(24 * time.Hour)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

// planShifts places the route shifts where the shifts' windows of
// docs/trade-routes.md see them whole. Those count voyages by week of
// arrival, so a shift starting (by departure) at start shows in the
// arrivals a transit later: each starts, on a Monday, 4 to 6 weeks (in
// turn) plus its lanes' transit before the week holding the end of the
// run, so the current window (the arrivals of the 4 complete weeks before
// that week) is shifted whole and the baseline (the 12 before) mostly not;
// none earlier than 16 weeks after the start. The lanes are chosen later
// (settleShifts).
func (p *Planner) planShifts(r *rand.Rand) {
	w := p.world
	if w.cfg.Shifts <= 0 {
		return
	}
	w.r = r
	w.loadsBy = map[string]map[time.Time]int{}
	for i := 0; i < w.cfg.Shifts; i++ {
		w.shifts = append(w.shifts, routeShift{lead: time.Duration(4+i%3) * week})
	}
}

// settleShifts chooses the shifts' lanes once the planner reaches
// shiftsSettle before the week holding the end of the run: each moves a
// commodity (containers aside) of a distinct origin, the busiest in its
// loading choices of the 8 weeks before now times the share of its top
// lane, from that top lane to another importer as deep, drawn; the truth
// is written then. The detail's first_arrival is when the first shifted
// voyages arrive (start + the transit to the new destination). A shift
// without a candidate, or whose start would fall within 16 weeks of the
// start of the run, is dropped.
func (p *Planner) settleShifts(now time.Time) {
	w := p.world
	if w == nil || len(w.shifts) == 0 || w.shifts[0].settled {
		return
	}
	last := monday(w.end.Add(-time.Second))
	if now.Before(last.Add(-shiftsSettle)) {
		return
	}
	var keys []string
	for k := range w.loadsBy {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ref := monday(now)
	used := map[string]bool{}
	for i := range w.shifts {
		s := &w.shifts[i]
		s.settled = true
		best, bestScore := "", 0.0
		for _, k := range keys {
			origin, c, _ := strings.Cut(k, "|")
			if used[origin] || c == overwatch.CommodityContainers {
				continue
			}
			n := 0
			for j := 1; j <= 8; j++ {
				n += w.loadsBy[k][ref.Add(-time.Duration(j)*week)]
			}
			_, share := p.topLane(origin, c)
			if score := float64(n) * share * (1 + 0.2*w.r.Float64()); score > bestScore {
				best, bestScore = k, score
			}
		}
		if best == "" {
			continue
		}
		origin, c, _ := strings.Cut(best, "|")
		used[origin] = true
		from, _ := p.topLane(origin, c)
		// The new destination takes every vessel the old one took.
		var others []string
		depth := math.Min(p.trade.ports[from].MaxDraftM, 14)
		for _, d := range p.candidates(origin, p.trade.importers[c], 13) {
			if d != from && p.trade.ports[d].MaxDraftM >= depth {
				others = append(others, d)
			}
		}
		if len(others) == 0 {
			continue
		}
		to := others[w.r.IntN(len(others))]
		transitTo := transit(p.routes.distanceNM(origin, to))
		longest := max(transit(p.routes.distanceNM(origin, from)), transitTo)
		start := monday(last.Add(-s.lead - longest))
		if start.Before(w.start.Add(16*week)) || start.Before(now) {
			continue
		}
		s.origin, s.commodity, s.from, s.to, s.start = origin, c, from, to, start
		area := p.trade.ports[origin].Area
		p.truth.write(Truth{Type: "route_shift", Vessels: []overwatch.IMO{}, Start: tp(start), Position: &Position{Lat: area.Lat, Lon: area.Lon},
			Detail: map[string]any{"origin": origin, "commodity": c, "from": from, "to": to,
				"first_arrival": start.Add(transitTo).Format(time.DateOnly)}})
	}
}

// transit is how long a laden bulk carrier takes over the distance: 12.5
// knots, and two days in port before the departure is counted.
func transit(nm float64) time.Duration {
	return time.Duration((nm/12.5 + 48) * float64(time.Hour))
}

// planAnomalies places the port closures (each two anomalies: the
// closed week's drop and the next week's surge, so (n+1)/2 of them) in
// complete weeks of the run: after a year and a month of history when the
// run is long enough (so the year-on-year and seasonal references exist),
// else after ten weeks. Their ports are chosen later (settleAnomalies),
// when the planner reaches seven weeks before the week, among the busiest
// loading ports of the eight weeks before that.
func (p *Planner) planAnomalies(r *rand.Rand) {
	w := p.world
	n := (w.cfg.Anomalies + 1) / 2
	if n <= 0 {
		return
	}
	w.r = r
	w.loads = map[string]map[time.Time]int{}
	first := monday(w.start).Add(10 * week)
	if w.end.Sub(w.start) >= 62*week {
		first = monday(w.start).Add(56 * week)
	}
	last := monday(w.end).Add(-3 * week) // the catch-up week complete too
	if last.Before(first) {
		return
	}
	span := int(last.Sub(first)/week) + 1
	for i := 0; i < n; i++ {
		w.anomalies = append(w.anomalies, volumeAnomaly{week: first.Add(time.Duration(r.IntN(span)) * week)})
	}
	sort.SliceStable(w.anomalies, func(i, j int) bool { return w.anomalies[i].week.Before(w.anomalies[j].week) })
}

// anomalyLead is how long before its week a closure's port is chosen:
// longer than any call that could reach into the week.
const anomalyLead = 7 * week

// settleAnomalies chooses the ports of the closures whose week is within
// anomalyLead of now, weighted by the port's loading choices in the eight
// weeks before now: among the ports that loaded closureMinWeekly vessels a
// week or more without another closure within a year (a week without
// departures is then unmistakable), else within 20 weeks, else among any
// ports without another within ten weeks (a small fleet); the truths are written then (the drop of the closed
// week, factor 0, and the surge of the week after, factor catchUpPace,
// catch_up). A closure without a candidate is dropped.
func (p *Planner) settleAnomalies(now time.Time) {
	w := p.world
	if w == nil {
		return
	}
	for i := range w.anomalies {
		a := &w.anomalies[i]
		if a.settled || now.Before(a.week.Add(-anomalyLead)) {
			continue
		}
		a.settled = true
		ref := monday(now)
		var ports []string
		for port := range w.loads {
			ports = append(ports, port)
		}
		sort.Strings(ports)
		// Tiers of candidates: busy without a closure within a year, busy
		// without one within 20 weeks, any without one within 10 weeks.
		var names [3][]string
		var weights [3][]float64
		for _, port := range ports {
			n := 0
			for k := 1; k <= 8; k++ {
				n += w.loads[port][ref.Add(-time.Duration(k)*week)]
			}
			for tier, apart := range []time.Duration{52 * week, 20 * week, 10 * week} {
				if (n >= 8*closureMinWeekly || tier == 2 && n > 0) && !w.anomalyNear(port, a.week, apart) {
					names[tier], weights[tier] = append(names[tier], port), append(weights[tier], float64(n))
					break
				}
			}
		}
		tier := 0
		for tier < 2 && len(names[tier]) == 0 {
			tier++
		}
		if len(names[tier]) == 0 {
			continue
		}
		a.port = names[tier][weighted(w.r, weights[tier])]
		area := p.trade.ports[a.port].Area
		at := &Position{Lat: area.Lat, Lon: area.Lon}
		p.truth.write(Truth{Type: "volume_anomaly", Subtype: "drop", Vessels: []overwatch.IMO{}, Start: tp(a.week), End: tp(a.week.Add(week)),
			Position: at, Detail: map[string]any{"port": a.port, "factor": 0.0, "closure": true}})
		p.truth.write(Truth{Type: "volume_anomaly", Subtype: "surge", Vessels: []overwatch.IMO{}, Start: tp(a.week.Add(week)), End: tp(a.week.Add(2 * week)),
			Position: at, Detail: map[string]any{"port": a.port, "factor": catchUpPace, "catch_up": true}})
	}
}

// countLoad records a loading choice for the week of its expected
// departure, by port (the closures) and by port and commodity (the
// shifts).
func (w *tradeWorld) countLoad(port, commodity string, eta time.Time) {
	wk := monday(eta.Add(48 * time.Hour))
	if w.loads != nil {
		if w.loads[port] == nil {
			w.loads[port] = map[time.Time]int{}
		}
		w.loads[port][wk]++
	}
	if w.loadsBy != nil {
		k := port + "|" + commodity
		if w.loadsBy[k] == nil {
			w.loadsBy[k] = map[time.Time]int{}
		}
		w.loadsBy[k][wk]++
	}
}

// anomalyNear reports whether the port has an anomaly within d of the week.
func (w *tradeWorld) anomalyNear(port string, wk time.Time, d time.Duration) bool {
	for _, a := range w.anomalies {
		if a.port != "" && a.port == port && a.week.Sub(wk).Abs() < d {
			return true
		}
	}
	return false
}

// closure is the settled closure of the port whose closed span
// [week − closeAhead, week + 7 days) or catch-up week holds t, if any.
func (w *tradeWorld) closure(port string, t time.Time) (volumeAnomaly, bool) {
	if w == nil {
		return volumeAnomaly{}, false
	}
	for _, a := range w.anomalies {
		if a.port != "" && a.port == port && !t.Before(a.week.Add(-closeAhead)) && t.Before(a.week.Add(2*week)) {
			return a, true
		}
	}
	return volumeAnomaly{}, false
}

// berthStay applies a closure of the port to a stay planned from start
// for ops: a stay due to start while the berths are closed starts when
// they reopen; one under way when they close is suspended alongside until
// then; one starting in the week after works catchUpPace times faster.
func (w *tradeWorld) berthStay(port string, start time.Time, ops time.Duration) (time.Time, time.Time) {
	end := start.Add(ops)
	a, ok := w.closure(port, start)
	if !ok {
		a, ok = w.closure(port, end)
	}
	if !ok {
		return start, end
	}
	closes, reopens := a.week.Add(-closeAhead), a.week.Add(week)
	switch {
	case !start.Before(reopens): // the catch-up week
		return start, start.Add(time.Duration(float64(ops) / catchUpPace))
	case !start.Before(closes): // waits for the reopening
		return reopens, reopens.Add(time.Duration(float64(ops) / catchUpPace))
	case end.After(closes): // suspended alongside
		return start, end.Add(reopens.Sub(closes))
	}
	return start, end
}
