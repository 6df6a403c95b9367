package trade

import (
	"math"
	"sort"
	"time"

	"overwatch/maritime/portstats"
)

// Shift windows and thresholds. A destination's share of an origin's
// flows (of a commodity, or of all of them) is the share of the origin's
// completed voyages that arrived there, counted by ISO week of arrival (a
// week's arrivals are all known once it is over, where the departures of
// the last weeks still have voyages at sea). The current window is the
// CurrentWeeks complete weeks before the week holding the end of the data,
// the baseline the BaselineWeeks before those.
const (
	CurrentWeeks  = 4
	BaselineWeeks = 12
	// Severity by the absolute change of share (current less baseline).
	ModerateChange = 0.15
	HighChange     = 0.25
	CriticalChange = 0.40
	// The minimum volume: an origin (commodity) needs this many voyages in
	// each window for its shares to be compared.
	MinBaselineVoyages = 8
	MinCurrentVoyages  = 4
	// MoverChange is the change of share from which a destination is
	// listed among those gaining or losing.
	MoverChange = 0.05
	// AllCommodities is the commodity of the shifts of an origin's flows
	// of every commodity together.
	AllCommodities = "all"
)

// Severities of a shift, from the mildest.
const (
	SeverityModerate = "moderate"
	SeverityHigh     = "high"
	SeverityCritical = "critical"
)

// SeverityOf is the severity of a change of share; "" below ModerateChange.
func SeverityOf(change float64) string {
	switch a := math.Abs(change); {
	case a >= CriticalChange-1e-9:
		return SeverityCritical
	case a >= HighChange-1e-9:
		return SeverityHigh
	case a >= ModerateChange-1e-9:
		return SeverityModerate
	}
	return ""
}

// Mover is a destination whose share moved: by Change (current less
// baseline share).
type Mover struct {
	Port   string
	Change float64
}

// Shift is a row of route_shifts: a destination whose share of an
// origin's flows moved by ModerateChange or more.
type Shift struct {
	AsOf                        time.Time // the Monday of the current window's last week
	Origin, Commodity           string
	Destination                 string
	BaselineShare, CurrentShare float64
	Change                      float64
	Severity                    string
	// The origin's voyages and tonnes in each window (of the commodity).
	BaselineVoyages, CurrentVoyages int
	BaselineTonnes, CurrentTonnes   float64
	// Started is the first week of the run of weeks, ending in the current
	// window, in which the destination's weekly share stood beyond half the
	// change from the baseline share, in its direction (weeks without
	// voyages from the origin do not break the run).
	Started time.Time
	// Gaining and Losing are the origin's destinations whose share rose or
	// fell by MoverChange or more, by change (the largest first).
	Gaining, Losing []Mover
}

// Window returns the current window's last week and the baseline's first
// week for data that ends at end.
func Window(end time.Time) (asOf, baselineStart time.Time) {
	asOf = portstats.Monday(end).AddDate(0, 0, -7)
	return asOf, asOf.AddDate(0, 0, -7*(CurrentWeeks+BaselineWeeks-1))
}

// Shifts finds the shifts of the voyages' flows as of the data's end:
// for every origin, per commodity and for all commodities together, each
// destination's share of the origin's voyages in the current window
// against the baseline. Rows come out by severity (critical first), then
// the size of the change.
func Shifts(voyages []Voyage, end time.Time) []Shift {
	asOf, start := Window(end)
	currentStart := asOf.AddDate(0, 0, -7*(CurrentWeeks-1))
	stop := asOf.AddDate(0, 0, 7)
	type key struct{ origin, commodity string }
	groups := map[key][]*Voyage{}
	for i := range voyages {
		v := &voyages[i]
		if v.Arrival.Before(start) || !v.Arrival.Before(stop) {
			continue
		}
		groups[key{v.Origin, v.Commodity}] = append(groups[key{v.Origin, v.Commodity}], v)
		groups[key{v.Origin, AllCommodities}] = append(groups[key{v.Origin, AllCommodities}], v)
	}
	var out []Shift
	for k, vs := range groups {
		out = append(out, originShifts(k.origin, k.commodity, vs, start, currentStart, asOf)...)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := severityRank[a.Severity], severityRank[b.Severity]; ra != rb {
			return ra > rb
		}
		if ca, cb := math.Abs(a.Change), math.Abs(b.Change); ca != cb {
			return ca > cb
		}
		if a.Origin != b.Origin {
			return a.Origin < b.Origin
		}
		if a.Commodity != b.Commodity {
			return a.Commodity < b.Commodity
		}
		return a.Destination < b.Destination
	})
	return out
}

var severityRank = map[string]int{SeverityModerate: 1, SeverityHigh: 2, SeverityCritical: 3}

// originShifts compares the shares of one origin's (commodity's) voyages.
func originShifts(origin, commodity string, vs []*Voyage, start, currentStart, asOf time.Time) []Shift {
	var base, cur int
	var baseT, curT float64
	baseN, curN := map[string]int{}, map[string]int{}
	weekly := map[time.Time]map[string]int{}
	for _, v := range vs {
		w := portstats.Monday(v.Arrival)
		if weekly[w] == nil {
			weekly[w] = map[string]int{}
		}
		weekly[w][v.Destination]++
		if v.Arrival.Before(currentStart) {
			base, baseT = base+1, baseT+v.Tonnes
			baseN[v.Destination]++
		} else {
			cur, curT = cur+1, curT+v.Tonnes
			curN[v.Destination]++
		}
	}
	if base < MinBaselineVoyages || cur < MinCurrentVoyages {
		return nil
	}
	dests := map[string]bool{}
	for d := range baseN {
		dests[d] = true
	}
	for d := range curN {
		dests[d] = true
	}
	changes := map[string]float64{}
	var gaining, losing []Mover
	for d := range dests {
		c := float64(curN[d])/float64(cur) - float64(baseN[d])/float64(base)
		changes[d] = c
		switch {
		case c >= MoverChange-1e-9:
			gaining = append(gaining, Mover{d, c})
		case c <= -MoverChange+1e-9:
			losing = append(losing, Mover{d, c})
		}
	}
	sortMovers(gaining)
	sortMovers(losing)
	var out []Shift
	for d := range dests {
		sev := SeverityOf(changes[d])
		if sev == "" {
			continue
		}
		s := Shift{AsOf: asOf, Origin: origin, Commodity: commodity, Destination: d,
			BaselineShare: float64(baseN[d]) / float64(base), CurrentShare: float64(curN[d]) / float64(cur), Change: changes[d],
			Severity: sev, BaselineVoyages: base, CurrentVoyages: cur, BaselineTonnes: baseT, CurrentTonnes: curT,
			Gaining: gaining, Losing: losing}
		s.Started = started(weekly, d, s.BaselineShare, s.Change, start, currentStart, asOf)
		out = append(out, s)
	}
	return out
}

// started walks back from asOf over the weeks whose share of d stood
// beyond half the change from the baseline share; the current window's
// first week when its last week with voyages did not.
func started(weekly map[time.Time]map[string]int, d string, baseline, change float64, start, currentStart, asOf time.Time) time.Time {
	first := currentStart // when the last week with voyages is not beyond
	for w := asOf; !w.Before(start); w = w.AddDate(0, 0, -7) {
		n := 0
		for _, k := range weekly[w] {
			n += k
		}
		if n == 0 {
			continue
		}
		share := float64(weekly[w][d]) / float64(n)
		if (share-baseline)*math.Copysign(1, change) < math.Abs(change)/2-1e-9 {
			break
		}
		first = w
	}
	return first
}

func sortMovers(m []Mover) {
	sort.Slice(m, func(i, j int) bool {
		if a, b := math.Abs(m[i].Change), math.Abs(m[j].Change); a != b {
			return a > b
		}
		return m[i].Port < m[j].Port
	})
}
