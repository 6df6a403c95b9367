package forecast

import "math"

// The statistical method: additive Holt-Winters with a seasonal period of
// Season weeks, from a season and a quarter of history (one season to
// initialise the seasonal indices, the next weeks to measure the trend and
// fit the parameters; with two seasons both initialise); Holt's linear trend
// (simple exponential smoothing with a trend) from 3 weeks; the last week
// below that. Each fits its smoothing parameters by a grid search that
// minimises the sum of squared one-step in-sample errors.

// The parameter grids of the search.
var (
	alphaGrid = []float64{0.05, 0.1, 0.2, 0.3, 0.5, 0.7}
	betaGrid  = []float64{0, 0.02, 0.05, 0.1, 0.2}
	gammaGrid = []float64{0.05, 0.1, 0.2, 0.3, 0.5}
)

// MinHoltWintersWeeks and MinHoltLinearWeeks are the history each model
// needs.
const (
	MinHoltWintersWeeks = Season + 13
	MinHoltLinearWeeks  = 3
)

// Statistical forecasts the next h weeks of y with the statistical method
// and returns the model used, the point forecasts (never negative) and the
// RMSE of its one-step in-sample errors.
func Statistical(y []float64, h int) (model string, f []float64, sigma float64) {
	y = clean(y)
	switch {
	case len(y) >= MinHoltWintersWeeks:
		f, sigma = holtWinters(y, h)
		return ModelHoltWinters, f, sigma
	case len(y) >= MinHoltLinearWeeks:
		f, sigma = holtLinear(y, h)
		return ModelHoltLinear, f, sigma
	}
	_, f, sigma = SeasonalNaive(y, h)
	return ModelNaive, f, sigma
}

// hwState is the state of Holt-Winters after the history.
type hwState struct {
	level, trend float64
	season       []float64
	n            int
}

// hwRun runs additive Holt-Winters over y (at least
// MinHoltWintersWeeks) with the given parameters: the sum of squared
// one-step errors from the second season on, their count, and the final
// state. Initial state: the trend is the mean of (y[Season+i] - y[i]) /
// Season over the weeks of the second season held; the level is the
// first season's mean carried to its end by that trend; each seasonal
// index is the mean, over the full seasons held among the first two, of
// the week's deviation from that trend line, centred on zero.
func hwRun(y []float64, alpha, beta, gamma float64, errs *[]float64) (sse float64, st hwState) {
	m := Season
	m1 := mean(y[:m])
	overlap := min(m, len(y)-m)
	for i := 0; i < overlap; i++ {
		st.trend += (y[m+i] - y[i]) / float64(m) / float64(overlap)
	}
	st.level = m1 + st.trend*float64(m-1)/2
	st.season = make([]float64, m)
	seasons := 1
	if len(y) >= 2*m {
		seasons = 2
	}
	var centre float64
	for i := 0; i < m; i++ {
		for k := 0; k < seasons; k++ {
			j := i + k*m
			st.season[i] += (y[j] - (m1 + st.trend*(float64(j)-float64(m-1)/2))) / float64(seasons)
		}
		centre += st.season[i] / float64(m)
	}
	for i := range st.season {
		st.season[i] -= centre
	}
	for t := m; t < len(y); t++ {
		s := st.season[t%m]
		e := y[t] - (st.level + st.trend + s)
		sse += e * e
		if errs != nil {
			*errs = append(*errs, e)
		}
		level := alpha*(y[t]-s) + (1-alpha)*(st.level+st.trend)
		st.trend = beta*(level-st.level) + (1-beta)*st.trend
		st.level = level
		st.season[t%m] = gamma*(y[t]-level) + (1-gamma)*s
	}
	st.n = len(y)
	return sse, st
}

// holtWinters fits Holt-Winters by grid search and forecasts h weeks.
func holtWinters(y []float64, h int) ([]float64, float64) {
	best, ba, bb, bg := math.Inf(1), alphaGrid[0], betaGrid[0], gammaGrid[0]
	for _, a := range alphaGrid {
		for _, b := range betaGrid {
			for _, g := range gammaGrid {
				if sse, _ := hwRun(y, a, b, g, nil); sse < best {
					best, ba, bb, bg = sse, a, b, g
				}
			}
		}
	}
	var errs []float64
	_, st := hwRun(y, ba, bb, bg, &errs)
	sigma := rmse(errs)
	w := seasonalShrink(st.season, sigma, len(y)/Season)
	f := make([]float64, h)
	for i := range f {
		f[i] = nonNegative(st.level + float64(i+1)*st.trend + w*st.season[(st.n+i)%Season])
	}
	return f, sigma
}

// seasonalShrink is the weight of the seasonal indices in the forecasts:
// their variance over that plus the noise of an index estimated from
// `seasons` years, σ² / seasons (σ the one-step RMSE). Near 1 when the
// season stands clear of the noise, near 0 when the indices are mostly
// the noise of a few vessels a week (which the forecasts would otherwise
// replay a year later).
func seasonalShrink(season []float64, sigma float64, seasons int) float64 {
	vs := 0.0
	for _, v := range season {
		vs += v * v / float64(len(season))
	}
	noise := sigma * sigma / float64(max(1, seasons))
	if !(vs > 0) || math.IsInf(vs, 0) || math.IsNaN(noise) || math.IsInf(noise, 0) {
		return 0
	}
	return vs / (vs + noise)
}

// holtRun runs Holt's linear trend method over y (at least 3 weeks),
// starting from the first week and the first difference: the sum of
// squared one-step errors and the final level and trend.
func holtRun(y []float64, alpha, beta float64, errs *[]float64) (sse, level, trend float64) {
	level, trend = y[0], y[1]-y[0]
	for t := 1; t < len(y); t++ {
		e := y[t] - (level + trend)
		if t >= 2 {
			sse += e * e
			if errs != nil {
				*errs = append(*errs, e)
			}
		}
		l := alpha*y[t] + (1-alpha)*(level+trend)
		trend = beta*(l-level) + (1-beta)*trend
		level = l
	}
	return sse, level, trend
}

// holtLinear fits Holt's linear method by grid search and forecasts h
// weeks.
func holtLinear(y []float64, h int) ([]float64, float64) {
	best, ba, bb := math.Inf(1), alphaGrid[0], betaGrid[0]
	for _, a := range alphaGrid {
		for _, b := range betaGrid {
			if sse, _, _ := holtRun(y, a, b, nil); sse < best {
				best, ba, bb = sse, a, b
			}
		}
	}
	var errs []float64
	_, level, trend := holtRun(y, ba, bb, &errs)
	f := make([]float64, h)
	for i := range f {
		f[i] = nonNegative(level + float64(i+1)*trend)
	}
	return f, rmse(errs)
}

// nonNegative is v, at least 0 (and 0 for NaN).
func nonNegative(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		if math.IsInf(v, 1) {
			return 1e12
		}
		return 0
	}
	return v
}
