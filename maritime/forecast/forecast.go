package forecast

import (
	"math"
	"time"
)

// Horizons is how many weeks ahead the statistical and ml methods
// forecast; the pipeline forecasts the next week only.
const Horizons = 12

// Forecast is a port's forecast exports in a week.
type Forecast struct {
	Port    string
	Method  string
	Model   string    // the model used (a method falls back on a short history)
	Origin  time.Time // the Monday of the last week of history
	Week    time.Time // the Monday of the week forecast
	Horizon int       // weeks after Origin
	Tonnes  float64
	// Lower and Upper bound the 95% prediction interval of the tonnes:
	// ±1.96·σ·√Horizon around the forecast (σ the RMSE of the model's
	// one-step in-sample errors), the lower bound at least 0; the pipeline's
	// is from its calibration's errors (see Pipeline).
	Lower, Upper float64
	Vessels      float64
	HistoryWeeks int
}

// Forecasts forecasts a port's next weeks by every method: statistical
// and ml for Horizons weeks, the pipeline for the next week when pipe is
// not nil (calibrated on hist, the pipeline's reconstructed expectation
// of past weeks by Monday). The ml method's pipeline column is the
// vessels loading in each week of the history, and for the weeks ahead
// the pipeline's expected vessels for the next week (when given and not
// zero: an empty pipeline may only mean that no live positions are
// stored) then the statistical forecast of vessels. A series without any
// exports has no forecasts.
func Forecasts(s Series, pipe *Expected, hist map[time.Time]Expected) []Forecast {
	if len(s.Weeks) == 0 || s.Empty() {
		return nil
	}
	n := len(s.Weeks)
	origin := s.Weeks[n-1].Start
	base := Forecast{Port: s.Port, Origin: origin, HistoryWeeks: n}
	tonnes, vessels := s.Tonnes(), s.Vessels()
	var out []Forecast
	add := func(method, model string, f, fv []float64, sigma float64) {
		for i := range f {
			r := base
			r.Method, r.Model, r.Horizon, r.Week = method, model, i+1, origin.Add(time.Duration(i+1)*week)
			r.Tonnes, r.Vessels = f[i], nonNegative(fv[i])
			r.Lower, r.Upper = interval(f[i], sigma, i+1)
			out = append(out, r)
		}
	}
	if pipe != nil {
		r := base
		r.Method, r.Model, r.Horizon, r.Week = MethodPipeline, ModelPipeline, 1, origin.Add(week)
		r.Tonnes, r.Lower, r.Upper, r.Vessels = Pipeline(*pipe, Calibrate(s, hist, n))
		out = append(out, r)
	}
	model, f, sigma := Statistical(tonnes, Horizons)
	_, fv, _ := Statistical(vessels, Horizons)
	add(MethodStatistical, model, f, fv, sigma)

	next := append([]float64(nil), fv...)
	if pipe != nil && pipe.Vessels+pipe.DepartedVessels > 0 {
		next[0] = pipe.Vessels + pipe.DepartedVessels
	}
	model, f, sigma = ML(tonnes, s.Weeks[0].Start, vessels, next, Horizons)
	_, mv, _ := ML(vessels, s.Weeks[0].Start, nil, nil, Horizons)
	add(MethodML, model, f, mv, sigma)
	return out
}

// interval is the 95% prediction interval around f at horizon h.
func interval(f, sigma float64, h int) (lower, upper float64) {
	half := 1.96 * nonNegative(sigma) * math.Sqrt(float64(h))
	return math.Max(0, f-half), nonNegative(f + half)
}
