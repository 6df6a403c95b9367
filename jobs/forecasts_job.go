package jobs

import (
	"context"
	"sort"
	"time"

	"overwatch/maritime/forecast"
	"overwatch/maritime/portcall"
)

// ForecastStore is what the forecasts job needs of the analytics store:
// the data span, every port's weekly exports, the port calls (to
// reconstruct the pipeline of past weeks for the backtest), the pipeline
// now, and the forecast tables to write.
type ForecastStore interface {
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	// ExportWeeks is every port's weekly exports (estimates_weekly).
	ExportWeeks(ctx context.Context) (map[string][]forecast.Week, error)
	Calls(ctx context.Context, from, to time.Time) ([]portcall.Call, error)
	// PipelineNow is the calls still going on and the vessels' latest
	// positions with a declared destination, at now.
	PipelineNow(ctx context.Context, now time.Time) ([]forecast.InPort, []forecast.Underway, error)
	// WriteForecasts rewrites forecasts and forecast_accuracy whole as
	// generation gen.
	WriteForecasts(ctx context.Context, gen uint64, rows []forecast.Forecast, acc []forecast.Accuracy) error
}

// dataEnd is the end of the data (the newest position), or now (the
// service's clock) when there are no positions (weekly estimates imported
// or written otherwise).
func dataEnd(ctx context.Context, span func(context.Context) (time.Time, time.Time, error), now func() time.Time) (time.Time, error) {
	_, last, err := span(ctx)
	if err != nil {
		return time.Time{}, err
	}
	if last.IsZero() {
		last = now().UTC()
	}
	return last, nil
}

// portSeries are the ports' series of complete weeks before end, by port
// slug; ports without any complete week are left out, and so are those
// without any exports unless all is set.
func portSeries(weeks map[string][]forecast.Week, end time.Time, all bool) []forecast.Series {
	var out []forecast.Series
	for port, rows := range weeks {
		if s := forecast.NewSeries(port, rows).Before(end); len(s.Weeks) > 0 && (all || !s.Empty()) {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Port < out[j].Port })
	return out
}

// Forecasts derives forecasts and forecast_accuracy from the whole weekly
// history of every port, each run: the complete weeks before the end of
// the data (the week in progress is not history yet), forecast by each
// method (the pipeline from the calls in progress and the vessels heading
// to the port at the end of the data, with the loading calls of the week
// that already left), and the rolling-origin backtest (the pipeline's
// past expectations reconstructed from the port calls, which also
// calibrate it). now is the service's clock, the end when there are no
// positions.
func Forecasts(store ForecastStore, now func() time.Time) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		end, err := dataEnd(ctx, store.DataSpan, now)
		if err != nil {
			return Result{}, err
		}
		weeks, err := store.ExportWeeks(ctx)
		if err != nil {
			return Result{}, err
		}
		series := portSeries(weeks, end, false)
		calls, moving, err := store.PipelineNow(ctx, end)
		if err != nil {
			return Result{}, err
		}
		// The backtest's origins, the calibration's weeks before them, and
		// the loading calls whose durations time the first of those.
		first := mondayBefore(end).Add(-time.Duration(forecast.BacktestOrigins+1+forecast.PipelineCalibrationWeeks) * 7 * day)
		from := first.Add(-time.Duration(forecast.PipelineDwellWeeks) * 7 * day)
		past, err := store.Calls(ctx, from, end)
		if err != nil {
			return Result{}, err
		}
		fromLatestCalls(moving, past)
		var mondays []time.Time
		for w := first; w.Before(end); w = w.Add(7 * day) {
			mondays = append(mondays, w)
		}
		history := forecast.PipelineHistory(past, mondays)
		pipes := forecast.Pipelines(end, calls, moving)
		var rows []forecast.Forecast
		var acc []forecast.Accuracy
		for _, s := range series {
			pipe := pipelineNow(s, pipes[s.Port], past, end)
			rows = append(rows, forecast.Forecasts(s, &pipe, history[s.Port])...)
			acc = append(acc, forecast.Backtest(s, history[s.Port])...)
		}
		if err := store.WriteForecasts(ctx, Generation(), rows, acc); err != nil {
			return Result{}, err
		}
		return Result{From: from, To: end, Rows: len(rows) + len(acc), Watermark: end}, nil
	}
}

// pipelineNow is the port's pipeline expectation for the week after the
// series' last complete week: from the end of the data (or the week's
// start) to the week's end, plus the loading calls of the week that left
// before the end of the data.
func pipelineNow(s forecast.Series, bound []forecast.Bound, past []portcall.Call, end time.Time) forecast.Expected {
	start := s.Weeks[len(s.Weeks)-1].Start.Add(7 * day)
	weekEnd := start.Add(7 * day)
	now := end
	if now.Before(start) {
		now = start
	}
	e := forecast.Expect(bound, forecast.DwellOf(past, s.Port, end), now, weekEnd, forecast.CargoPerVessel(s))
	left := map[uint32]bool{}
	for i := range past {
		c := &past[i]
		if c.Port == s.Port && c.Published() && c.Operation == portcall.OpLoad && c.Departure != nil &&
			!c.Departure.Before(start) && c.Departure.Before(now) {
			e.DepartedTonnes += c.CargoTonnes
			left[uint32(c.IMO)] = true
		}
	}
	e.DepartedVessels = float64(len(left))
	return e
}

// fromLatestCalls fills the deadweight and the ship type of the vessels under way
// from their latest published call with one.
func fromLatestCalls(moving []forecast.Underway, calls []portcall.Call) {
	dwt, types := map[uint32]float64{}, map[uint32]uint8{}
	atDWT, atType := map[uint32]time.Time{}, map[uint32]time.Time{}
	for i := range calls {
		c := &calls[i]
		imo := uint32(c.IMO)
		if !c.Published() {
			continue
		}
		if c.DWTEstimate > 0 && !c.Arrival.Before(atDWT[imo]) {
			dwt[imo], atDWT[imo] = c.DWTEstimate, c.Arrival
		}
		if c.ShipType > 0 && !c.Arrival.Before(atType[imo]) {
			types[imo], atType[imo] = c.ShipType, c.Arrival
		}
	}
	for i := range moving {
		if moving[i].DWT <= 0 {
			moving[i].DWT = dwt[moving[i].IMO]
		}
		if moving[i].ShipType == 0 {
			moving[i].ShipType = types[moving[i].IMO]
		}
	}
}

// mondayBefore is the Monday 00:00 UTC of the ISO week holding t.
func mondayBefore(t time.Time) time.Time {
	d := t.UTC().Truncate(day)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}
