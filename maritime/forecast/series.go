// Package forecast forecasts and watches a port's weekly export volume
// (the tonnes and vessels of estimates_weekly): the seasonal-naive
// baseline, additive Holt-Winters (statistical), a ridge regression on
// lagged volumes, the season and the pipeline (ml), and the pipeline of
// vessels at or heading to the port; a rolling-origin backtest of each
// against the baseline; anomalies of a week against the trailing mean, the
// same week last year, the seasonal average and the seasonal range; and
// the maturity of a port's history for each of them. Pure computation: no
// storage, no HTTP. See docs/forecasts.md.
package forecast

import (
	"math"
	"sort"
	"time"
)

// Season is the seasonal period of the weekly models, in weeks (an ISO
// year of 53 weeks shifts the season by one week, every five or six
// years).
const Season = 52

// Methods of the forecasts, and the baseline they are measured against.
const (
	MethodPipeline    = "pipeline"
	MethodStatistical = "statistical"
	MethodML          = "ml"
	MethodBaseline    = "seasonal_naive"
)

// Methods are the forecast methods, in the order they are listed.
var Methods = []string{MethodPipeline, MethodStatistical, MethodML}

// Models: what produced a forecast (a method falls back to a simpler model
// on a short history).
const (
	ModelHoltWinters   = "holt_winters"
	ModelHoltLinear    = "holt_linear"
	ModelNaive         = "naive"
	ModelRidge         = "ridge"
	ModelPipeline      = "pipeline"
	ModelSeasonalNaive = "seasonal_naive"
	ModelLastWeek      = "last_week"
)

// Week is a port's exports in an ISO week.
type Week struct {
	Start   time.Time // its Monday, 00:00 UTC
	Tonnes  float64
	Vessels float64
}

// Series is a port's weekly exports: consecutive ISO weeks, oldest first.
type Series struct {
	Port  string
	Weeks []Week
}

const week = 7 * 24 * time.Hour

// NewSeries orders a port's weeks and fills the weeks missing between the
// first and the last with zeros (no call departed: no exports). Weeks
// with a NaN or infinite figure count as zero.
func NewSeries(port string, rows []Week) Series {
	s := Series{Port: port}
	if len(rows) == 0 {
		return s
	}
	rows = append([]Week(nil), rows...)
	sort.Slice(rows, func(i, j int) bool { return rows[i].Start.Before(rows[j].Start) })
	first := rows[0].Start.UTC()
	n := int(rows[len(rows)-1].Start.Sub(first)/week) + 1
	s.Weeks = make([]Week, n)
	for i := range s.Weeks {
		s.Weeks[i].Start = first.Add(time.Duration(i) * week)
	}
	for _, r := range rows {
		i := int(r.Start.Sub(first) / week)
		s.Weeks[i].Tonnes += finite(r.Tonnes)
		s.Weeks[i].Vessels += finite(r.Vessels)
	}
	return s
}

// Tonnes is the series of tonnes.
func (s Series) Tonnes() []float64 {
	out := make([]float64, len(s.Weeks))
	for i, w := range s.Weeks {
		out[i] = w.Tonnes
	}
	return out
}

// Vessels is the series of vessels.
func (s Series) Vessels() []float64 {
	out := make([]float64, len(s.Weeks))
	for i, w := range s.Weeks {
		out[i] = w.Vessels
	}
	return out
}

// Empty reports whether the series has no exports at all.
func (s Series) Empty() bool {
	for _, w := range s.Weeks {
		if w.Tonnes > 0 {
			return false
		}
	}
	return true
}

// Before is the series of the weeks that start before t (the complete
// weeks, when t is the end of the data).
func (s Series) Before(t time.Time) Series {
	out := Series{Port: s.Port}
	for _, w := range s.Weeks {
		if !w.Start.Add(week).After(t) {
			out.Weeks = append(out.Weeks, w)
		}
	}
	return out
}

// finite is v, or 0 when it is NaN or infinite.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// sd is the sample standard deviation (0 under two values).
func sd(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	m := mean(v)
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}

// rmse is the root mean square of the errors (0 when there are none).
func rmse(errs []float64) float64 {
	if len(errs) == 0 {
		return 0
	}
	var s float64
	for _, e := range errs {
		s += e * e
	}
	return math.Sqrt(s / float64(len(errs)))
}

// clean is a copy of y with NaN and infinite values as 0 and negative
// ones as 0 (volumes are never negative), bounded to keep every sum
// finite.
func clean(y []float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = math.Min(math.Max(finite(v), 0), 1e12)
	}
	return out
}

// SeasonalNaive is the baseline: each of the next h weeks is the same week
// a year earlier (Season weeks back); under a year of history, the last
// week. sigma is the RMSE of its one-step errors over the history.
func SeasonalNaive(y []float64, h int) (model string, f []float64, sigma float64) {
	y = clean(y)
	n := len(y)
	f = make([]float64, h)
	if n == 0 {
		return ModelLastWeek, f, 0
	}
	var errs []float64
	if n >= Season {
		for i := range f {
			f[i] = y[n-Season+i%Season]
		}
		for t := Season; t < n; t++ {
			errs = append(errs, y[t]-y[t-Season])
		}
		return ModelSeasonalNaive, f, rmse(errs)
	}
	for i := range f {
		f[i] = y[n-1]
	}
	for t := 1; t < n; t++ {
		errs = append(errs, y[t]-y[t-1])
	}
	return ModelLastWeek, f, rmse(errs)
}
