package forecast

import (
	"math"
	"sort"
	"time"
)

// Anomalies: a port's exports in a week against four references, each
// flagged with a severity by the thresholds below (docs/forecasts.md).

// Anomaly types.
const (
	TypeTrailing      = "trailing"       // the mean of the TrailingWeeks weeks before
	TypeYoY           = "yoy"            // the same week a year (Season weeks) before
	TypeSeasonalAvg   = "seasonal_avg"   // the mean of the same weeks (±SeasonalWindow) of every prior year
	TypeSeasonalRange = "seasonal_range" // outside the min–max of those weeks
)

// Types are the anomaly types.
var Types = []string{TypeTrailing, TypeYoY, TypeSeasonalAvg, TypeSeasonalRange}

// Severities, mildest first.
const (
	SeverityModerate = "moderate"
	SeverityHigh     = "high"
	SeverityCritical = "critical"
)

// Severities are the severities, mildest first.
var Severities = []string{SeverityModerate, SeverityHigh, SeverityCritical}

// Anomaly settings and thresholds.
const (
	TrailingWeeks  = 8
	SeasonalWindow = 1 // weeks either side of the same week in prior years
	// SeasonalMinValues is how many prior-year weeks the seasonal types
	// need.
	SeasonalMinValues = 3
	// MinExpectedTonnes: a week whose expected value (the crossed bound,
	// for the range) is below this is not judged (no meaningful
	// percentage).
	MinExpectedTonnes = 1000
	// ZGate: where a standard deviation of the reference weeks exists
	// (trailing, seasonal_avg), a deviation is an anomaly only when its
	// z-score is at least this large as well.
	ZGate = 2
)

// pctThresholds are the |deviation| percentages of moderate, high and
// critical: against an expected value (trailing, yoy, seasonal_avg), and
// beyond the crossed bound of the seasonal range.
var (
	pctThresholds   = [3]float64{30, 50, 75}
	rangeThresholds = [3]float64{15, 35, 60}
)

// Anomaly is a week whose exports deviate from a reference.
type Anomaly struct {
	Port     string
	Type     string
	Week     time.Time
	Expected float64 // the reference (the crossed bound for the range)
	Observed float64
	// DeviationPct is (Observed - Expected) / Expected × 100.
	DeviationPct float64
	// Z is (Observed - mean) / sd of the reference weeks (NaN for yoy and
	// seasonal_range, or when they do not vary).
	Z float64
	// Lower and Upper are the seasonal range (NaN for the other types).
	Lower, Upper float64
	Direction    string // "drop" or "surge"
	Severity     string
	References   int // how many weeks the reference is made of
	// PValue is the count test's two-sided p-value: the week's loading
	// vessels against the reference's rate (significance.go).
	PValue float64
}

// Detect finds the anomalies of every week of the series that has the
// history each type needs: DetectAll of the one port.
func Detect(s Series) []Anomaly {
	return DetectAll([]Series{s})
}

// DetectAll finds the anomalies of every week of every port's series that
// has the history each type needs. Each type judges many weeks of many
// ports, so its anomalies are the discoveries of the Benjamini–Hochberg
// procedure at FalseDiscoveryRate over all of them: the weeks whose
// deviation crosses the thresholds (and the z gate) and whose count
// test's p-value is at most FalseDiscoveryRate × k / m, where m is the
// number of weeks the type tested and k the largest rank whose p-value
// meets its own bound (docs/forecasts.md). Rows come out by port, week
// and type.
func DetectAll(series []Series) []Anomaly {
	tested := map[string]int{}
	var candidates []Anomaly
	for _, s := range series {
		y, v := s.Tonnes(), s.Vessels()
		phi := Dispersion(v)
		for t := range y {
			for _, typ := range Types {
				a, ok, judged := judge(s.Port, typ, y, v, phi, t)
				if judged {
					tested[typ]++
				}
				if ok {
					a.Week = s.Weeks[t].Start
					candidates = append(candidates, a)
				}
			}
		}
	}
	bound := map[string]float64{}
	for _, typ := range Types {
		var ps []float64
		for _, a := range candidates {
			if a.Type == typ {
				ps = append(ps, a.PValue)
			}
		}
		bound[typ] = benjaminiHochberg(ps, tested[typ], FalseDiscoveryRate)
	}
	var out []Anomaly
	for _, a := range candidates {
		if a.PValue <= bound[a.Type] {
			out = append(out, a)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Port != out[j].Port {
			return out[i].Port < out[j].Port
		}
		return out[i].Week.Before(out[j].Week)
	})
	return out
}

// seasonalWeeks are the indices of the weeks t-Season·k+d of every prior
// year k ≥ 1, |d| ≤ SeasonalWindow.
func seasonalWeeks(t int) []int {
	var w []int
	for k := 1; t-k*Season+SeasonalWindow >= 0; k++ {
		for d := -SeasonalWindow; d <= SeasonalWindow; d++ {
			if i := t - k*Season + d; i >= 0 && i < t {
				w = append(w, i)
			}
		}
	}
	return w
}

// pick is the values of y at the indices idx.
func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for j, i := range idx {
		out[j] = y[i]
	}
	return out
}

// judge judges week t of the tonnes y (and loading vessels v, of
// dispersion phi) by one type: judged when the week has a reference the
// type can test (its expected tonnes and vessels above the floors), ok
// when the deviation crosses the type's thresholds, in the direction of
// the vessel counts too, with the count test's p-value (not yet held
// against the false-discovery bound of DetectAll).
func judge(port, typ string, y, v []float64, phi float64, t int) (a Anomaly, ok, judged bool) {
	obs := finite(y[t])
	a = Anomaly{Port: port, Type: typ, Observed: obs, Z: math.NaN(), Lower: math.NaN(), Upper: math.NaN()}
	var ref, refVessels []float64
	thresholds := pctThresholds
	switch typ {
	case TypeTrailing:
		if t < TrailingWeeks {
			return a, false, false
		}
		ref, refVessels = y[t-TrailingWeeks:t], v[t-TrailingWeeks:t]
		a.Expected = mean(ref)
	case TypeYoY:
		if t < Season {
			return a, false, false
		}
		ref = y[t-Season : t-Season+1]
		// One week's count is as noisy as the week judged: the count test
		// takes the rate of the same weeks (±SeasonalWindow) a year before.
		refVessels = pick(v, lastYearWeeks(t))
		a.Expected = ref[0]
	case TypeSeasonalAvg, TypeSeasonalRange:
		idx := seasonalWeeks(t)
		ref, refVessels = pick(y, idx), pick(v, idx)
		if len(ref) < SeasonalMinValues {
			return a, false, false
		}
		a.Expected = mean(ref)
		if typ == TypeSeasonalRange {
			a.Lower, a.Upper = ref[0], ref[0]
			for _, v := range ref {
				a.Lower, a.Upper = math.Min(a.Lower, v), math.Max(a.Upper, v)
			}
			switch {
			case obs < a.Lower:
				a.Expected = a.Lower
			case obs > a.Upper:
				a.Expected = a.Upper
			}
			thresholds = rangeThresholds
		}
	default:
		return a, false, false
	}
	a.References = len(ref)
	if !(a.Expected >= MinExpectedTonnes) || math.IsInf(a.Expected, 0) || !(mean(refVessels) >= MinExpectedVessels) {
		return a, false, false
	}
	judged = true
	if typ == TypeSeasonalRange && obs >= a.Lower && obs <= a.Upper {
		return a, false, judged
	}
	a.DeviationPct = (obs - a.Expected) / a.Expected * 100
	if typ == TypeTrailing || typ == TypeSeasonalAvg {
		if sigma := sd(ref); sigma > 0 {
			a.Z = (obs - a.Expected) / sigma
			if math.Abs(a.Z) < ZGate {
				return a, false, judged
			}
		}
	}
	a.Severity = severity(math.Abs(a.DeviationPct), thresholds)
	if a.Severity == "" {
		return a, false, judged
	}
	a.Direction = "surge"
	if obs < a.Expected {
		a.Direction = "drop"
	}
	p, ok := countTest(v[t], refVessels, a.Direction == "surge", phi)
	if !ok {
		return a, false, judged
	}
	a.PValue = p
	return a, true, judged
}

// lastYearWeeks are the indices of the weeks t-Season+d, |d| ≤
// SeasonalWindow, before t.
func lastYearWeeks(t int) []int {
	var w []int
	for d := -SeasonalWindow; d <= SeasonalWindow; d++ {
		if i := t - Season + d; i >= 0 && i < t {
			w = append(w, i)
		}
	}
	return w
}

// severity is the severity of a deviation of pct percent ("" below
// moderate).
func severity(pct float64, th [3]float64) string {
	switch {
	case pct >= th[2]:
		return SeverityCritical
	case pct >= th[1]:
		return SeverityHigh
	case pct >= th[0]:
		return SeverityModerate
	}
	return ""
}

// Requirement is whether a port's history is enough for an anomaly type
// or a forecast method.
type Requirement struct {
	Name    string
	Needed  int // weeks of history
	Ready   bool
	Missing int // weeks still needed (0 when ready)
	// Model is what a forecast method runs on the history held now (its
	// fallback until it is ready; "" for the anomaly types).
	Model string
}

// Maturity is how much history a port holds and what it is enough for.
type Maturity struct {
	Port        string
	Weeks       int
	First, Last time.Time
	Anomalies   []Requirement
	Forecasts   []Requirement
}

// WeeksNeeded are the weeks of history each anomaly type, forecast method
// and the baseline needs (for a forecast method: its full model).
var WeeksNeeded = map[string]int{
	TypeTrailing:      TrailingWeeks + 1,
	TypeYoY:           Season + 1,
	TypeSeasonalAvg:   Season + SeasonalWindow + 1,
	TypeSeasonalRange: Season + SeasonalWindow + 1,
	MethodPipeline:    MinPipelineWeeks,
	MethodStatistical: MinHoltWintersWeeks,
	MethodML:          MinRidgeSeasonalWeeks,
	MethodBaseline:    Season,
}

// MaturityOf is the maturity of a port's series.
func MaturityOf(s Series) Maturity {
	n := len(s.Weeks)
	m := Maturity{Port: s.Port, Weeks: n}
	if n > 0 {
		m.First, m.Last = s.Weeks[0].Start, s.Weeks[n-1].Start
	}
	req := func(name, model string) Requirement {
		need := WeeksNeeded[name]
		return Requirement{Name: name, Needed: need, Ready: n >= need, Missing: max(0, need-n), Model: model}
	}
	for _, t := range Types {
		m.Anomalies = append(m.Anomalies, req(t, ""))
	}
	statModel, mlModel := ModelHoltWinters, ModelRidge
	switch {
	case n < MinHoltLinearWeeks:
		statModel = ModelNaive
	case n < MinHoltWintersWeeks:
		statModel = ModelHoltLinear
	}
	if n < MinRidgeWeeks {
		mlModel = statModel
	}
	baseline := ModelSeasonalNaive
	if n < Season {
		baseline = ModelLastWeek
	}
	m.Forecasts = append(m.Forecasts, req(MethodPipeline, ModelPipeline), req(MethodStatistical, statModel), req(MethodML, mlModel),
		req(MethodBaseline, baseline))
	return m
}
