package jobs

import (
	"context"
	"time"

	"overwatch/maritime/predict"
)

// PredictionStore is what the predictions job needs of the analytics
// store: the inputs of the predictor (port calls, tracks, declarations),
// the span of the stored positions, and the predictions table to write.
type PredictionStore interface {
	predict.Source
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	// WritePredictions stores the predictions of one refresh, stamped
	// computedAt.
	WritePredictions(ctx context.Context, computedAt time.Time, preds []predict.Prediction) error
}

// Predictions derives predictions: every vessel under way, predicted as of
// the newest stored position (or the service's clock, when earlier) from
// the data before that instant, written as one refresh stamped with the
// run's time on the service's clock.
func Predictions(store PredictionStore, now func() time.Time) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		if store == nil {
			return Result{}, nil
		}
		_, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		t := now().UTC()
		asOf := last.Add(time.Second)
		if t.Before(asOf) {
			asOf = t
		}
		preds, err := predict.AsOf(ctx, store, asOf, nil)
		if err != nil {
			return Result{}, err
		}
		computed := t.Truncate(time.Second)
		if err := store.WritePredictions(ctx, computed, preds); err != nil {
			return Result{}, err
		}
		return Result{From: asOf, To: asOf, Rows: len(preds), Watermark: last,
			Detail: map[string]any{"as_of": asOf, "computed_at": computed}}, nil
	}
}
