// Package calibration fits, per port and commodity, the factor between
// official export figures (imported actuals) and the service's weekly
// export estimates, and decides which factor is in force: an operator's
// manual override wins over the self-calibrated factor (docs/calibration.md).
package calibration

import (
	"math"
	"sort"
	"time"
)

// All is the commodity of a factor over every commodity of a port: the
// estimates are per port and week, not per commodity.
const All = "all"

// MinWeeks is the fewest overlapping weeks (an estimate and an actual for
// the same port and ISO week) a self-calibrated factor is fitted from.
const MinWeeks = 4

// Sources of the factor applied to an estimate.
const (
	SourceSelf   = "self"
	SourceManual = "manual"
	SourceNone   = "none"
)

// Week is a port's ISO week (its Monday) with both the service's estimate
// (tonnes loaded) and the official actuals by commodity.
type Week struct {
	Port     string
	Week     time.Time
	Estimate float64
	Actuals  map[string]float64 // tonnes by commodity
}

// Factor is a self-calibrated factor: actual ≈ Factor × estimate over
// Weeks overlapping weeks (From..To, Mondays), with the mean absolute
// percentage error of the estimate against the actual before and after
// the factor (percent, over the weeks whose actual is above zero; the
// fit is in-sample).
type Factor struct {
	Port, Commodity              string
	Factor                       float64
	Weeks                        int
	From, To                     time.Time
	EstimateTonnes, ActualTonnes float64 // the sums the factor is the ratio of
	MAPEBefore, MAPEAfter        float64
}

// Fit fits a factor per port and commodity, and per port over all
// commodities (All), as the ratio of the sums of the actuals and of the
// estimates over the overlapping weeks; a key with fewer than minWeeks
// weeks, or whose sums are not both above zero, gets none. Since every
// commodity of a port shares the port's estimates, the commodity factors of
// a port add up to its All factor when they cover the same weeks.
func Fit(weeks []Week, minWeeks int) []Factor {
	type key struct{ port, commodity string }
	type pair struct {
		week     time.Time
		est, act float64
	}
	series := map[key][]pair{}
	for _, w := range weeks {
		var all float64
		for c, t := range w.Actuals {
			if c == All {
				continue
			}
			series[key{w.Port, c}] = append(series[key{w.Port, c}], pair{w.Week, w.Estimate, t})
			all += t
		}
		if len(w.Actuals) > 0 {
			series[key{w.Port, All}] = append(series[key{w.Port, All}], pair{w.Week, w.Estimate, all})
		}
	}
	var out []Factor
	for k, ps := range series {
		if len(ps) < minWeeks {
			continue
		}
		f := Factor{Port: k.port, Commodity: k.commodity, Weeks: len(ps), From: ps[0].week, To: ps[0].week}
		for _, p := range ps {
			f.EstimateTonnes += p.est
			f.ActualTonnes += p.act
			if p.week.Before(f.From) {
				f.From = p.week
			}
			if p.week.After(f.To) {
				f.To = p.week
			}
		}
		if f.EstimateTonnes <= 0 || f.ActualTonnes <= 0 {
			continue
		}
		f.Factor = f.ActualTonnes / f.EstimateTonnes
		var before, after float64
		n := 0
		for _, p := range ps {
			if p.act <= 0 {
				continue
			}
			n++
			before += math.Abs(p.est-p.act) / p.act
			after += math.Abs(f.Factor*p.est-p.act) / p.act
		}
		f.MAPEBefore, f.MAPEAfter = 100*before/float64(n), 100*after/float64(n)
		out = append(out, f)
	}
	sortKeys(out, func(f Factor) (string, string) { return f.Port, f.Commodity })
	return out
}

// Manual is an operator's override of a port and commodity (All for the
// port's estimates as a whole), with who set it, when and why.
type Manual struct {
	Port, Commodity string
	Factor          float64
	Reason, By      string
	At              time.Time
}

// InForce is the factor in force for a port and commodity and where it
// comes from (SourceManual or SourceSelf).
type InForce struct {
	Port, Commodity string
	Factor          float64
	Source          string
}

// Resolve returns the factors in force: for each port and commodity with a
// self-calibrated factor or a manual override, the override when there is
// one, else the self-calibrated factor. A port's All factor (the one its
// estimates are multiplied by) is, in this order: its manual All
// override; when any commodity of the port has a manual override, the sum
// over the port's commodities of their factors in force (source manual);
// its self-calibrated All factor. A port with none is not listed: its
// estimates are not calibrated (factor 1, source none).
func Resolve(self []Factor, manual []Manual) []InForce {
	type key struct{ port, commodity string }
	force := map[key]InForce{}
	for _, f := range self {
		force[key{f.Port, f.Commodity}] = InForce{f.Port, f.Commodity, f.Factor, SourceSelf}
	}
	manualCommodity := map[string]bool{}
	for _, m := range manual {
		force[key{m.Port, m.Commodity}] = InForce{m.Port, m.Commodity, m.Factor, SourceManual}
		if m.Commodity != All {
			manualCommodity[m.Port] = true
		}
	}
	for port := range manualCommodity {
		if f, ok := force[key{port, All}]; ok && f.Source == SourceManual {
			continue
		}
		var sum float64
		for k, f := range force {
			if k.port == port && k.commodity != All {
				sum += f.Factor
			}
		}
		force[key{port, All}] = InForce{port, All, sum, SourceManual}
	}
	out := make([]InForce, 0, len(force))
	for _, f := range force {
		out = append(out, f)
	}
	sortKeys(out, func(f InForce) (string, string) { return f.Port, f.Commodity })
	return out
}

// ForPort is the factor applied to a port's estimates and its source: the
// port's All factor in force, or 1 and SourceNone.
func ForPort(inForce []InForce, port string) (float64, string) {
	for _, f := range inForce {
		if f.Port == port && f.Commodity == All {
			return f.Factor, f.Source
		}
	}
	return 1, SourceNone
}

// sortKeys sorts by port, then commodity.
func sortKeys[T any](s []T, k func(T) (string, string)) {
	sort.Slice(s, func(i, j int) bool {
		pi, ci := k(s[i])
		pj, cj := k(s[j])
		if pi != pj {
			return pi < pj
		}
		return ci < cj
	})
}
