package predict

import (
	"context"
	"sync"
	"time"

	"overwatch"
)

// CalibrationCache keeps the ETA interval's calibration between the
// refreshes of a process: computing it backtests the whole fleet as of
// three earlier instants (CalibrationLags), three times the work of the
// refresh itself, and it changes only when those instants move to another
// hour (they are whole hours before the prediction's instant, truncated)
// or when the history it rests on (the port calls, told by the caller's
// version) changes. The zero value is an empty cache; it is safe for
// concurrent use.
type CalibrationCache struct {
	mu      sync.Mutex
	hour    time.Time // the prediction instant's hour the calibration is for
	version uint64    // the history's version it was computed from
	cal     *Calibration
}

// Get is CalibrationAsOf(asOf) for the history of the given version: the
// kept calibration when it was computed for the same hour of asOf from the
// same version, else computed now and kept. hit tells which.
func (c *CalibrationCache) Get(ctx context.Context, src Source, asOf time.Time, version uint64) (cal *Calibration, hit bool, err error) {
	hour := asOf.UTC().Truncate(time.Hour)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cal != nil && c.hour.Equal(hour) && c.version == version {
		return c.cal, true, nil
	}
	cal, err = CalibrationAsOf(ctx, src, asOf)
	if err != nil {
		return nil, false, err
	}
	c.hour, c.version, c.cal = hour, version, cal
	return cal, false, nil
}

// AsOfCalibrated is AsOf with the given calibration of the ETA interval
// (one of CalibrationAsOf(asOf), e.g. from a CalibrationCache) instead of
// computing it.
func AsOfCalibrated(ctx context.Context, src Source, asOf time.Time, only []overwatch.IMO, cal *Calibration) ([]Prediction, error) {
	calls, err := src.PredictionCalls(ctx, asOf.Add(-HistoryDays*24*time.Hour), asOf)
	if err != nil {
		return nil, err
	}
	f := NewFleet(asOf, calls)
	f.cal = cal
	return f.each(ctx, src, only, func(Input, Prediction) {})
}
