package sim

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"overwatch"
)

const week = 7 * 24 * time.Hour

// routeShift is an injected route shift: from start, the voyages of the
// origin's commodity that would have gone to from go to to.
type routeShift struct {
	origin, commodity, from, to string
	start                       time.Time
}

// volumeAnomaly is an injected port-volume anomaly: the loading calls of
// the port that depart in the ISO week starting week scaled by factor.
type volumeAnomaly struct {
	port    string // "" until settled
	week    time.Time
	factor  float64
	settled bool
}

// Injected anomaly factors: a drop to a fifth, a surge to two and a half
// times, beyond the 75 % (critical) deviation of docs/forecasts.md.
const (
	dropFactor  = 0.2
	surgeFactor = 2.5
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
// none earlier than 16 weeks after the start. Each moves the grain of a
// distinct origin (the busiest in the window, with Seasons, and with the
// most concentrated lanes) from its top lane to another importer as deep.
// The detail's first_arrival is when the first shifted voyages arrive
// (start + the transit to the new destination).
func (p *Planner) planShifts(r *rand.Rand) {
	w := p.world
	n := w.cfg.Shifts
	if n <= 0 {
		return
	}
	c := overwatch.CommodityGrain
	used := map[string]bool{}
	last := monday(w.end.Add(-time.Second))
	for i := 0; i < n; i++ {
		lead := time.Duration(4+i%3) * week
		around := last.Add(-lead - 5*week) // a typical transit earlier, to weigh the seasons
		origin, best := "", -1.0
		for _, o := range p.trade.exporters[c] {
			if used[o] {
				continue
			}
			score := 0.0
			for k := -12; k < 4; k++ {
				score += w.loadFactor(o, c, around.Add(time.Duration(k)*week))
			}
			_, share := p.topLane(o, c)
			score *= share * (1 + 0.2*r.Float64())
			if score > best {
				origin, best = o, score
			}
		}
		if origin == "" {
			return
		}
		used[origin] = true
		dests := p.candidates(origin, p.trade.importers[c], 13)
		from, _ := p.topLane(origin, c)
		// The new destination takes every vessel the old one took.
		var others []string
		depth := math.Min(p.trade.ports[from].MaxDraftM, 14)
		for _, d := range dests {
			if d != from && p.trade.ports[d].MaxDraftM >= depth {
				others = append(others, d)
			}
		}
		if len(others) == 0 {
			continue
		}
		to := others[r.IntN(len(others))]
		transitTo := transit(p.routes.distanceNM(origin, to))
		longest := max(transit(p.routes.distanceNM(origin, from)), transitTo)
		start := monday(last.Add(-lead - longest))
		if start.Before(w.start.Add(16 * week)) {
			continue
		}
		s := routeShift{origin: origin, commodity: c, from: from, to: to, start: start}
		w.shifts = append(w.shifts, s)
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

// planAnomalies places the port-volume anomalies in complete weeks of the
// run: after a year and a month of history when the run is long enough
// (so the year-on-year and seasonal references exist), else after ten
// weeks. Their ports are chosen later (settleAnomalies), when the planner
// reaches seven weeks before the week, among the busiest loading ports of
// the eight weeks before that.
func (p *Planner) planAnomalies(r *rand.Rand) {
	w := p.world
	n := w.cfg.Anomalies
	if n <= 0 {
		return
	}
	w.r = r
	w.loads = map[string]map[time.Time]int{}
	first := monday(w.start).Add(10 * week)
	if w.end.Sub(w.start) >= 62*week {
		first = monday(w.start).Add(56 * week)
	}
	last := monday(w.end).Add(-2 * week)
	if last.Before(first) {
		return
	}
	span := int(last.Sub(first)/week) + 1
	for i := 0; i < n; i++ {
		a := volumeAnomaly{week: first.Add(time.Duration(r.IntN(span)) * week), factor: dropFactor}
		if i%2 == 1 {
			a.factor = surgeFactor
		}
		w.anomalies = append(w.anomalies, a)
	}
	sort.SliceStable(w.anomalies, func(i, j int) bool { return w.anomalies[i].week.Before(w.anomalies[j].week) })
}

// anomalyLead is how long before its week an anomaly's port is chosen:
// longer than the longest ballast leg, so that every vessel loading there
// in the week chooses the port knowing it.
const anomalyLead = 7 * week

// settleAnomalies chooses the ports of the anomalies whose week is within
// anomalyLead of now: weighted by the square of the port's loading choices
// in the eight weeks before now, among the ports without another anomaly
// within ten weeks; the truth is written then. An anomaly without a
// candidate is dropped.
func (p *Planner) settleAnomalies(now time.Time) {
	w := p.world
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
		var names []string
		var weights []float64
		for _, port := range ports {
			n := 0
			for k := 1; k <= 8; k++ {
				n += w.loads[port][ref.Add(-time.Duration(k)*week)]
			}
			if n > 0 && !w.anomalyNear(port, a.week, 10*week) {
				names, weights = append(names, port), append(weights, float64(n*n))
			}
		}
		if len(names) == 0 {
			continue
		}
		a.port = names[weighted(w.r, weights)]
		subtype := "drop"
		if a.factor > 1 {
			subtype = "surge"
		}
		area := p.trade.ports[a.port].Area
		p.truth.write(Truth{Type: "volume_anomaly", Subtype: subtype, Vessels: []overwatch.IMO{}, Start: tp(a.week), End: tp(a.week.Add(week)),
			Position: &Position{Lat: area.Lat, Lon: area.Lon}, Detail: map[string]any{"port": a.port, "factor": a.factor}})
	}
}

// countLoad records a loading choice for the week of its expected
// departure.
func (w *tradeWorld) countLoad(port string, eta time.Time) {
	if w.loads == nil {
		return
	}
	wk := monday(eta.Add(48 * time.Hour))
	if w.loads[port] == nil {
		w.loads[port] = map[time.Time]int{}
	}
	w.loads[port][wk]++
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

// anomalyAt is the factor of an anomaly at the port for a call arriving at
// eta: the call departs about two days later (pilotage, berthing and
// loading), and the anomaly counts calls by the week of their departure. A
// drop also holds back the arrivals of the two days before its week, whose
// waits at anchor would carry them into it.
func (w *tradeWorld) anomalyAt(port string, eta time.Time) (float64, bool) {
	departs := eta.Add(48 * time.Hour)
	for _, a := range w.anomalies {
		from := a.week
		if a.factor < 1 {
			from = from.Add(-48 * time.Hour)
		}
		if a.port != "" && a.port == port && !departs.Before(from) && departs.Before(a.week.Add(week)) {
			return a.factor, true
		}
	}
	return 0, false
}
