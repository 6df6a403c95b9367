package jobs

import (
	"context"
	"time"

	"overwatch/maritime/forecast"
)

// AnomalyStore is what the anomalies job needs of the analytics store:
// the data span, every port's weekly exports, and the anomaly tables to
// write.
type AnomalyStore interface {
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	ExportWeeks(ctx context.Context) (map[string][]forecast.Week, error)
	// WriteAnomalies rewrites anomalies and forecast_maturity whole as
	// generation gen.
	WriteAnomalies(ctx context.Context, gen uint64, rows []forecast.Anomaly, maturity []forecast.Maturity) error
}

// Anomalies derives anomalies and forecast_maturity from the whole weekly
// history of every port, each run: every complete week before the end of
// the data judged against each reference it has the history for (the
// ports together, forecast.DetectAll), and the
// history each port holds (every port with a complete week of estimates,
// with exports or not). now is the service's clock, the end when there
// are no positions.
func Anomalies(store AnomalyStore, now func() time.Time) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		end, err := dataEnd(ctx, store.DataSpan, now)
		if err != nil {
			return Result{}, err
		}
		weeks, err := store.ExportWeeks(ctx)
		if err != nil {
			return Result{}, err
		}
		var maturity []forecast.Maturity
		var from time.Time
		series := portSeries(weeks, end, true)
		for _, s := range series {
			maturity = append(maturity, forecast.MaturityOf(s))
			if from.IsZero() || s.Weeks[0].Start.Before(from) {
				from = s.Weeks[0].Start
			}
		}
		rows := forecast.DetectAll(series) // every port's weeks together: one false-discovery rate
		if err := store.WriteAnomalies(ctx, Generation(), rows, maturity); err != nil {
			return Result{}, err
		}
		return Result{From: from, To: end, Rows: len(rows) + len(maturity), Watermark: end}, nil
	}
}
