package jobs

import (
	"context"
	"time"

	"overwatch/maritime/predict"
)

// PredictionStore is what the predictions job needs of the analytics
// store: the inputs of the predictor (port calls, tracks, declarations),
// the span of the stored positions, the version of the port calls (which
// the kept interval calibration rests on), and the predictions table to
// write and purge.
type PredictionStore interface {
	predict.Source
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	// TableVersions are the versions of the derived tables by name (the
	// port calls' under "port_calls"): a version changes when its table
	// does.
	TableVersions(ctx context.Context) (map[string]uint64, error)
	// WritePredictions stores the predictions of one refresh, stamped
	// computedAt.
	WritePredictions(ctx context.Context, computedAt time.Time, preds []predict.Prediction) error
	// OldestPrediction is the computed_at of the oldest stored refresh
	// (zero when none is).
	OldestPrediction(ctx context.Context) (time.Time, error)
	// PurgePredictions deletes the refreshes computed before the instant,
	// keeping the newest refresh whatever its age.
	PurgePredictions(ctx context.Context, before time.Time) error
}

// PredictionRetention is how long a refresh is kept. Only the newest
// refresh is read (and the one before it, by the ETA alert); predictions
// as_of a past instant and the accuracy backtest are computed from the
// positions and port calls, never from stored refreshes. A day of
// refreshes (144 at one every 10 minutes) is kept to look back at.
const PredictionRetention = 24 * time.Hour

// PredictionPurgeEvery is how much older than PredictionRetention the
// oldest refresh gets before the old ones are deleted: a deletion is a
// ClickHouse mutation, which rewrites the table's parts, so it is made
// every few hours rather than at every refresh (the table holds between
// 24 and 30 hours of refreshes).
const PredictionPurgeEvery = 6 * time.Hour

// Predictions derives predictions: every vessel under way, predicted as of
// the newest stored position (or the service's clock, when earlier) from
// the data before that instant, written as one refresh stamped with the
// run's time on the service's clock; refreshes older than
// PredictionRetention are then purged. The ETA interval's calibration is
// kept between runs (predict.CalibrationCache): it is computed again when
// the instant moves to another hour or the port calls change.
func Predictions(store PredictionStore, now func() time.Time) Run {
	var cache predict.CalibrationCache
	return func(ctx context.Context, prev State) (Result, error) {
		if store == nil {
			return Result{}, nil
		}
		_, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		versions, err := store.TableVersions(ctx)
		if err != nil {
			return Result{}, err
		}
		t := now().UTC()
		asOf := last.Add(time.Second)
		if t.Before(asOf) {
			asOf = t
		}
		cal, cached, err := cache.Get(ctx, store, asOf, versions["port_calls"])
		if err != nil {
			return Result{}, err
		}
		preds, err := predict.AsOfCalibrated(ctx, store, asOf, nil, cal)
		if err != nil {
			return Result{}, err
		}
		computed := t.Truncate(time.Second)
		if err := store.WritePredictions(ctx, computed, preds); err != nil {
			return Result{}, err
		}
		purged, err := purgePredictions(ctx, store, computed)
		if err != nil {
			return Result{}, err
		}
		return Result{From: asOf, To: asOf, Rows: len(preds), Watermark: last,
			Detail: map[string]any{"as_of": asOf, "computed_at": computed, "calibration_cached": cached, "purged": purged}}, nil
	}
}

// purgePredictions deletes the refreshes older than PredictionRetention
// before computed once the oldest is PredictionPurgeEvery older still; it
// reports whether it did.
func purgePredictions(ctx context.Context, store PredictionStore, computed time.Time) (bool, error) {
	oldest, err := store.OldestPrediction(ctx)
	if err != nil || oldest.IsZero() {
		return false, err
	}
	cutoff := computed.Add(-PredictionRetention)
	if !oldest.Before(cutoff.Add(-PredictionPurgeEvery)) {
		return false, nil
	}
	return true, store.PurgePredictions(ctx, cutoff)
}
