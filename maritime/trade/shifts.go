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
	// MaxP is the significance a shift needs: the one-sided p-value of
	// Fisher's exact test of the destination's share after its change
	// point against before it (FisherOneSided). A run judges a hundred or
	// more origin × destination shares, each at the best of up to eight
	// change points: at 0.001 an ordinary swing of a few voyages is not a
	// shift (docs/trade-routes.md).
	MaxP = 0.001
	// LeadWeeks is how far before the current window the change point may
	// lie: a shift whose first voyages arrived up to this many weeks before
	// it is still reported, as started then.
	LeadWeeks = 4
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
// origin's flows moved by ModerateChange or more, significantly (MaxP).
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
	// Started is the destination's change point: the week, from LeadWeeks
	// before the current window on, from which its share differs most
	// significantly from the weeks before (changePoint).
	Started time.Time
	// Z is the two-proportion z of the share after Started against
	// before it, in the change's direction; P the one-sided p-value of
	// Fisher's exact test of the same split.
	Z, P float64
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
// against the baseline; a change counts when the share after the
// destination's change point differs from the share before it with a
// one-sided exact p-value of MaxP or less. Container liners' voyages are left
// out (Voyage.Liner). Rows come out by severity (critical first), then
// the size of the change.
func Shifts(voyages []Voyage, end time.Time) []Shift {
	asOf, start := Window(end)
	currentStart := asOf.AddDate(0, 0, -7*(CurrentWeeks-1))
	stop := asOf.AddDate(0, 0, 7)
	type key struct{ origin, commodity string }
	groups := map[key][]*Voyage{}
	for i := range voyages {
		v := &voyages[i]
		if v.Liner || v.Arrival.Before(start) || !v.Arrival.Before(stop) {
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
		s.Started, s.Z, s.P = changePoint(weekly, d, s.Change, start, currentStart, asOf)
		if s.Z <= 0 || s.P > MaxP {
			continue // within the swing of a few voyages a week
		}
		out = append(out, s)
	}
	return out
}

// changePoint finds the week the destination's share changed: of the
// splits of the weeks [start, asOf] at a week from LeadWeeks before the
// current window to asOf, the one whose two-proportion z (the share of
// the weeks from the split on against the weeks before it, in the
// change's direction) is the largest, with at least MinBaselineVoyages
// before and MinCurrentVoyages from it. It returns that week, the z (0
// when no split qualifies) and the split's one-sided exact p-value
// (FisherOneSided; 1 when none qualifies).
func changePoint(weekly map[time.Time]map[string]int, d string, change float64, start, currentStart, asOf time.Time) (time.Time, float64, float64) {
	var weeks []time.Time
	var n, k []int
	for w := start; !w.After(asOf); w = w.AddDate(0, 0, 7) {
		nw := 0
		for _, c := range weekly[w] {
			nw += c
		}
		weeks, n, k = append(weeks, w), append(n, nw), append(k, weekly[w][d])
	}
	var totN, totK int
	for i := range n {
		totN, totK = totN+n[i], totK+k[i]
	}
	best, bestZ := currentStart, 0.0
	var bestN, bestK int // the voyages, and those to d, before the best split
	var beforeN, beforeK int
	first := currentStart.AddDate(0, 0, -7*LeadWeeks)
	for i, w := range weeks {
		if !w.Before(first) {
			z := TwoProportionZ(beforeK, beforeN, totK-beforeK, totN-beforeN) * math.Copysign(1, change)
			if beforeN >= MinBaselineVoyages && totN-beforeN >= MinCurrentVoyages && z > bestZ {
				best, bestZ, bestN, bestK = w, z, beforeN, beforeK
			}
		}
		beforeN, beforeK = beforeN+n[i], beforeK+k[i]
	}
	if bestZ == 0 {
		return best, 0, 1
	}
	return best, bestZ, FisherOneSided(bestK, bestN, totK-bestK, totN-bestN, change > 0)
}

// TwoProportionZ is the pooled two-proportion z statistic of k2 of n2
// against k1 of n1 (positive when the second share is the larger); 0 when
// either count is empty or the pooled share is 0 or 1.
func TwoProportionZ(k1, n1, k2, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 0
	}
	p := float64(k1+k2) / float64(n1+n2)
	se := math.Sqrt(p * (1 - p) * (1/float64(n1) + 1/float64(n2)))
	if se == 0 {
		return 0
	}
	return (float64(k2)/float64(n2) - float64(k1)/float64(n1)) / se
}

func sortMovers(m []Mover) {
	sort.Slice(m, func(i, j int) bool {
		if a, b := math.Abs(m[i].Change), math.Abs(m[j].Change); a != b {
			return a > b
		}
		return m[i].Port < m[j].Port
	})
}

// FisherOneSided is the one-sided p-value of Fisher's exact test that the
// share of the second group (k2 of n2) exceeds (greater) or falls short of
// the first's (k1 of n1): the hypergeometric tail of k2 given the margins.
// 1 when either group is empty.
func FisherOneSided(k1, n1, k2, n2 int, greater bool) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	n, k := n1+n2, k1+k2
	lo, hi := max(0, k-n1), min(k, n2)
	lc := func(a, b int) float64 { // log C(a, b)
		x, _ := math.Lgamma(float64(a + 1))
		y, _ := math.Lgamma(float64(b + 1))
		z, _ := math.Lgamma(float64(a - b + 1))
		return x - y - z
	}
	total := lc(n, n2)
	p := 0.0
	for x := lo; x <= hi; x++ {
		if greater && x < k2 || !greater && x > k2 {
			continue
		}
		p += math.Exp(lc(k, x) + lc(n-k, n2-x) - total)
	}
	return math.Min(1, p)
}
