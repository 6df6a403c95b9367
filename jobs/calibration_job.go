package jobs

import (
	"context"

	"overwatch/maritime/calibration"
)

// CalibrationStore is what the calibration job reads and writes: the
// ports' weeks with both an estimate and imported actuals, and the
// self-calibrated factors (calibration_factors).
type CalibrationStore interface {
	CalibrationWeeks(ctx context.Context) ([]calibration.Week, error)
	WriteCalibration(ctx context.Context, gen uint64, factors []calibration.Factor) error
}

// Calibration fits the self-calibrated factors over the whole history
// (calibration.Fit, at least calibration.MinWeeks overlapping weeks) and
// writes them as a new generation.
func Calibration(store CalibrationStore) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		weeks, err := store.CalibrationWeeks(ctx)
		if err != nil {
			return Result{}, err
		}
		factors := calibration.Fit(weeks, calibration.MinWeeks)
		if err := store.WriteCalibration(ctx, Generation(), factors); err != nil {
			return Result{}, err
		}
		var res Result
		for _, w := range weeks {
			if res.From.IsZero() || w.Week.Before(res.From) {
				res.From = w.Week
			}
			if w.Week.After(res.To) {
				res.To = w.Week
			}
		}
		res.Rows, res.Watermark = len(factors), res.To
		res.Detail = map[string]any{"weeks": len(weeks)}
		return res, nil
	}
}
