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

// dataEnd is the end of the data (the newest position), or now when
// there are no positions (weekly estimates imported or written
// otherwise).
func dataEnd(ctx context.Context, span func(context.Context) (time.Time, time.Time, error)) (time.Time, error) {
	_, last, err := span(ctx)
	if err != nil {
		return time.Time{}, err
	}
	if last.IsZero() {
		last = time.Now().UTC()
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
// to the port at the end of the data), and the rolling-origin backtest
// (the pipeline's past counts reconstructed from the port calls of the
// backtest's weeks).
func Forecasts(store ForecastStore) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		end, err := dataEnd(ctx, store.DataSpan)
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
		pipes := forecast.Pipelines(end, calls, moving)
		from := mondayBefore(end).Add(-time.Duration(forecast.BacktestOrigins+1) * 7 * day)
		past, err := store.Calls(ctx, from, end)
		if err != nil {
			return Result{}, err
		}
		var mondays []time.Time
		for w := from; w.Before(end); w = w.Add(7 * day) {
			mondays = append(mondays, w)
		}
		history := forecast.PipelineHistory(past, mondays)
		var rows []forecast.Forecast
		var acc []forecast.Accuracy
		for _, s := range series {
			pipe := pipes[s.Port]
			rows = append(rows, forecast.Forecasts(s, &pipe)...)
			acc = append(acc, forecast.Backtest(s, history[s.Port])...)
		}
		if err := store.WriteForecasts(ctx, Generation(), rows, acc); err != nil {
			return Result{}, err
		}
		return Result{From: from, To: end, Rows: len(rows) + len(acc), Watermark: end}, nil
	}
}

// mondayBefore is the Monday 00:00 UTC of the ISO week holding t.
func mondayBefore(t time.Time) time.Time {
	d := t.UTC().Truncate(day)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}
