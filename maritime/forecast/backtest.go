package forecast

import (
	"math"
	"time"
)

// The backtest: a rolling origin over the stored history. For each origin
// (each of the last BacktestOrigins weeks from which the method's full
// model applies), the method is fitted on the weeks before it only and
// forecasts BacktestHorizons weeks (the pipeline: one), scored against
// what the weeks turned out to be; the seasonal-naive baseline is scored
// on the same origins and weeks.

// Backtest settings.
const (
	BacktestOrigins  = 52
	BacktestHorizons = 4
	// MinActualTonnes: MAPE is over the weeks that exported at least this
	// much (a week without exports has no percentage error).
	MinActualTonnes = 1000
)

// Accuracy is how a method forecast a port's exports at a horizon in the
// backtest, beside the seasonal-naive baseline on the same weeks.
type Accuracy struct {
	Port    string
	Method  string
	Horizon int
	// Forecasts is how many forecasts were scored, Origin the first
	// origin's Monday.
	Forecasts int
	Origin    time.Time
	// MAE in tonnes; MAPE in percent (NaN when no week scored had
	// MinActualTonnes); Directional, the share of forecasts that moved
	// the same way from the last known week as the actual (0 to 1).
	MAE, MAPE, Directional                         float64
	BaselineMAE, BaselineMAPE, BaselineDirectional float64
	// BeatsBaseline: the method's MAPE is below the baseline's (MAE when
	// either MAPE is undefined).
	BeatsBaseline bool
}

// Backtest scores every method on a port's series. pipelineAt is the
// pipeline's reconstructed expectation at the start of each week (see
// PipelineHistory), calibrated on the weeks before each origin; weeks
// without one are not scored for the pipeline.
func Backtest(s Series, pipelineAt map[time.Time]Expected) []Accuracy {
	if s.Empty() {
		return nil
	}
	y, v := s.Tonnes(), s.Vessels()
	start := s.Weeks[0].Start
	var out []Accuracy
	out = append(out, score(s, MethodStatistical, MinHoltWintersWeeks, BacktestHorizons, func(o int) []float64 {
		_, f, _ := Statistical(y[:o], BacktestHorizons)
		return f
	})...)
	out = append(out, score(s, MethodML, MinRidgeWeeks, BacktestHorizons, func(o int) []float64 {
		_, next, _ := Statistical(v[:o], BacktestHorizons)
		if e, ok := pipelineAt[s.Weeks[o].Start]; ok && e.Vessels > 0 {
			next[0] = e.Vessels
		}
		_, f, _ := ML(y[:o], start, v[:o], next, BacktestHorizons)
		return f
	})...)
	out = append(out, score(s, MethodPipeline, MinPipelineWeeks, 1, func(o int) []float64 {
		e, ok := pipelineAt[s.Weeks[o].Start]
		if !ok {
			return nil
		}
		t, _, _, _ := Pipeline(e, Calibrate(s, pipelineAt, o))
		return []float64{t}
	})...)
	return out
}

// errorSums accumulates the errors of forecasts at a horizon.
type errorSums struct {
	n, nPct, same int
	abs, pct      float64
}

func (e *errorSums) add(f, actual, last float64) {
	e.n++
	e.abs += math.Abs(f - actual)
	if actual >= MinActualTonnes {
		e.nPct++
		e.pct += math.Abs(f-actual) / actual * 100
	}
	if sign(f-last) == sign(actual-last) {
		e.same++
	}
}

func (e *errorSums) metrics() (mae, mape, dir float64) {
	mape = math.NaN()
	if e.nPct > 0 {
		mape = e.pct / float64(e.nPct)
	}
	return e.abs / float64(e.n), mape, float64(e.same) / float64(e.n)
}

// score runs the rolling origin of one method: forecast(o) forecasts from
// the weeks before o (nil: no forecast from that origin).
func score(s Series, method string, minTrain, horizons int, forecast func(o int) []float64) []Accuracy {
	y := s.Tonnes()
	n := len(y)
	first := max(minTrain, n-BacktestOrigins, 1)
	sums, base := make([]errorSums, horizons), make([]errorSums, horizons)
	for o := first; o < n; o++ {
		f := forecast(o)
		if f == nil {
			continue
		}
		_, b, _ := SeasonalNaive(y[:o], horizons)
		for k := 0; k < horizons && k < len(f) && o+k < n; k++ {
			sums[k].add(f[k], y[o+k], y[o-1])
			base[k].add(b[k], y[o+k], y[o-1])
		}
	}
	var out []Accuracy
	for k := range sums {
		if sums[k].n == 0 {
			continue
		}
		a := Accuracy{Port: s.Port, Method: method, Horizon: k + 1, Forecasts: sums[k].n, Origin: s.Weeks[first].Start}
		a.MAE, a.MAPE, a.Directional = sums[k].metrics()
		a.BaselineMAE, a.BaselineMAPE, a.BaselineDirectional = base[k].metrics()
		if math.IsNaN(a.MAPE) || math.IsNaN(a.BaselineMAPE) {
			a.BeatsBaseline = a.MAE < a.BaselineMAE
		} else {
			a.BeatsBaseline = a.MAPE < a.BaselineMAPE
		}
		out = append(out, a)
	}
	return out
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
