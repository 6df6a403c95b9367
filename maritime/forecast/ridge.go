package forecast

import (
	"math"
	"time"
)

// The ml method: a ridge regression, solved in closed form, of a week's
// volume on the volumes 1, 2 and 4 weeks before (and 52 weeks before once
// the history has MinRidgeRows rows beyond a year), two harmonics of the
// week of the year, and an exogenous column when given (the pipeline: the
// vessels loading in the week). Features are standardised; the penalty is
// chosen from ridgeLambdas on the last ridgeValidation weeks (one-step
// errors of a fit on the weeks before), then the model is refitted on all
// of them. Forecasts beyond the next week feed the model its own
// forecasts as lags. Under MinRidgeWeeks of history it falls back to the
// statistical method.

// Ridge regression settings.
const (
	MinRidgeRows    = 16 // training rows at the least
	ridgeValidation = 13 // weeks held out to choose the penalty
	ridgeHarmonics  = 2
)

// ridgeLags are the lags of the model (the last only with a year of
// history and MinRidgeRows rows beyond it).
var ridgeLags = []int{1, 2, 4, Season}

// ridgeLambdas are the penalties tried.
var ridgeLambdas = []float64{0.1, 1, 10, 100}

// MinRidgeWeeks is the history the ml method needs (lags 1 to 4 and
// MinRidgeRows training rows); MinRidgeSeasonalWeeks adds the lag of 52.
const (
	MinRidgeWeeks         = 4 + MinRidgeRows
	MinRidgeSeasonalWeeks = Season + MinRidgeRows
)

// ML forecasts the next h weeks of y (the week of y[0] starts at start)
// with the ridge regression. exo, when not nil, is an exogenous column
// aligned with y and exoNext its values for the next h weeks. It returns
// the model used, the point forecasts (never negative) and the RMSE of the
// one-step in-sample errors.
func ML(y []float64, start time.Time, exo, exoNext []float64, h int) (model string, f []float64, sigma float64) {
	y = clean(y)
	if exo != nil {
		if len(exo) != len(y) || len(exoNext) < h {
			exo = nil
		} else {
			exo, exoNext = clean(exo), clean(exoNext)
		}
	}
	lags := ridgeLags[:3]
	if len(y) >= MinRidgeSeasonalWeeks {
		lags = ridgeLags
	}
	if len(y) < MinRidgeWeeks {
		return Statistical(y, h)
	}
	r := ridge{lags: lags, start: start.UTC(), exo: exo != nil}
	first := lags[len(lags)-1]
	rows := len(y) - first
	lambda := 1.0
	if rows >= MinRidgeRows+ridgeValidation {
		best := math.Inf(1)
		for _, l := range ridgeLambdas {
			if !r.fit(y, exo, first, len(y)-ridgeValidation, l) {
				continue
			}
			var sse float64
			for t := len(y) - ridgeValidation; t < len(y); t++ {
				e := y[t] - r.predict(y, exo, t)
				sse += e * e
			}
			if sse < best {
				best, lambda = sse, l
			}
		}
	}
	if !r.fit(y, exo, first, len(y), lambda) {
		return Statistical(y, h)
	}
	errs := make([]float64, 0, rows)
	for t := first; t < len(y); t++ {
		errs = append(errs, y[t]-r.predict(y, exo, t))
	}
	ext := append(append([]float64(nil), y...), make([]float64, h)...)
	var extExo []float64
	if exo != nil {
		extExo = append(append([]float64(nil), exo...), exoNext[:h]...)
	}
	f = make([]float64, h)
	for i := range f {
		t := len(y) + i
		f[i] = nonNegative(r.predict(ext, extExo, t))
		ext[t] = f[i]
	}
	sigma = rmse(errs)
	if math.IsNaN(sigma) || math.IsInf(sigma, 0) {
		return Statistical(y, h)
	}
	return ModelRidge, f, sigma
}

// ridge is a fitted ridge regression.
type ridge struct {
	lags     []int
	start    time.Time
	exo      bool
	mu, sd   []float64 // of each feature over the training rows
	ymu      float64
	beta     []float64
	features []float64 // scratch
}

// row computes the raw features of week t into r.features.
func (r *ridge) row(y, exo []float64, t int) []float64 {
	r.features = r.features[:0]
	for _, l := range r.lags {
		r.features = append(r.features, y[t-l])
	}
	day := r.start.Add(time.Duration(t) * week)
	frac := float64(day.YearDay()-1) / 365.25
	for k := 1; k <= ridgeHarmonics; k++ {
		r.features = append(r.features, math.Sin(2*math.Pi*float64(k)*frac), math.Cos(2*math.Pi*float64(k)*frac))
	}
	if r.exo {
		r.features = append(r.features, exo[t])
	}
	return r.features
}

// fit fits the rows [from, to) with penalty lambda; false when the system
// cannot be solved.
func (r *ridge) fit(y, exo []float64, from, to int, lambda float64) bool {
	p := len(r.row(y, exo, from))
	n := to - from
	if n < 2 {
		return false
	}
	x := make([][]float64, n)
	r.mu, r.sd = make([]float64, p), make([]float64, p)
	r.ymu = mean(y[from:to])
	for i := range x {
		x[i] = append([]float64(nil), r.row(y, exo, from+i)...)
		for j, v := range x[i] {
			r.mu[j] += v / float64(n)
		}
	}
	for _, row := range x {
		for j, v := range row {
			r.sd[j] += (v - r.mu[j]) * (v - r.mu[j]) / float64(n)
		}
	}
	for j := range r.sd {
		r.sd[j] = math.Sqrt(r.sd[j])
	}
	a := make([][]float64, p)
	b := make([]float64, p)
	for j := range a {
		a[j] = make([]float64, p)
		a[j][j] = lambda
	}
	z := make([]float64, p)
	for i, row := range x {
		r.standardise(row, z)
		yc := y[from+i] - r.ymu
		for j := 0; j < p; j++ {
			b[j] += z[j] * yc
			for k := 0; k < p; k++ {
				a[j][k] += z[j] * z[k]
			}
		}
	}
	beta, ok := solve(a, b)
	r.beta = beta
	return ok
}

// standardise writes the standardised features of row into z (a constant
// feature is 0).
func (r *ridge) standardise(row, z []float64) {
	for j, v := range row {
		if r.sd[j] > 1e-12 {
			z[j] = (v - r.mu[j]) / r.sd[j]
		} else {
			z[j] = 0
		}
	}
}

// predict is the fitted value of week t.
func (r *ridge) predict(y, exo []float64, t int) float64 {
	row := r.row(y, exo, t)
	z := make([]float64, len(row))
	r.standardise(row, z)
	v := r.ymu
	for j := range z {
		v += r.beta[j] * z[j]
	}
	return v
}

// solve solves a x = b by Gaussian elimination with partial pivoting; ok
// is false when a is singular or the result is not finite.
func solve(a [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	for c := 0; c < n; c++ {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		if math.Abs(a[piv][c]) < 1e-12 {
			return nil, false
		}
		a[c], a[piv] = a[piv], a[c]
		b[c], b[piv] = b[piv], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
		if math.IsNaN(x[r]) || math.IsInf(x[r], 0) {
			return nil, false
		}
	}
	return x, true
}
