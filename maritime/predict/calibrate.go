package predict

import (
	"context"
	"time"

	"overwatch"
	"overwatch/maritime/portcall"
)

// CalibrationLags are how long before a prediction's instant the backtest
// that calibrates its ETA interval predicts as of: 8, 9 and 10 days, so
// that an ETA up to 7 days ahead of those instants falls a day or more
// before the prediction's instant, by which the arrival is known.
var CalibrationLags = []time.Duration{8 * 24 * time.Hour, 9 * 24 * time.Hour, 10 * 24 * time.Hour}

// CalibrationAsOf is the calibration of the ETA interval for predictions
// as of asOf, from the data before asOf only: every vessel predicted as of
// each CalibrationLags before asOf (with the fixed spread), the error of
// each right first port's ETA against the arrival of the vessel's next
// call, when that arrival was before asOf.
func CalibrationAsOf(ctx context.Context, src Source, asOf time.Time) (*Calibration, error) {
	samples, err := calibrationSamples(ctx, src, asOf)
	if err != nil {
		return nil, err
	}
	return Calibrate(samples), nil
}

func calibrationSamples(ctx context.Context, src Source, asOf time.Time) ([]ErrorSample, error) {
	// the instants are whole hours (so that a calibration holds for the
	// whole hour of asOf, see CalibrationCache), and so is the history
	// read before the oldest
	oldest := asOf.Truncate(time.Hour)
	for _, l := range CalibrationLags {
		if t := asOf.Add(-l).Truncate(time.Hour); t.Before(oldest) {
			oldest = t
		}
	}
	calls, err := src.PredictionCalls(ctx, oldest.Add(-HistoryDays*24*time.Hour), asOf)
	if err != nil {
		return nil, err
	}
	var samples []ErrorSample
	for _, l := range CalibrationLags {
		t := asOf.Add(-l).Truncate(time.Hour)
		next := nextCalls(calls, t, asOf)
		f := NewFleet(t, calls)
		_, err := f.each(ctx, src, nil, func(_ Input, p Prediction) {
			if s, ok := sampleOf(p, next); ok {
				samples = append(samples, s)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return samples, nil
}

// sampleOf is the error of the prediction's first ETA against the vessel's
// next call, when its first port was the call's.
func sampleOf(p Prediction, next map[overwatch.IMO]portcall.Call) (ErrorSample, bool) {
	n, ok := next[p.IMO]
	if !ok || len(p.Next) == 0 || p.Next[0].Port != n.Port {
		return ErrorSample{}, false
	}
	top := p.Next[0]
	return ErrorSample{ToGoH: top.ETA.Sub(p.AsOf).Hours(), Basis: top.basis, ErrH: n.Arrival.Sub(top.ETA).Hours()}, true
}

// nextCalls is each vessel's first published call that arrived after t and
// before end.
func nextCalls(calls []portcall.Call, t, end time.Time) map[overwatch.IMO]portcall.Call {
	next := map[overwatch.IMO]portcall.Call{}
	for _, c := range calls {
		if !c.Published() || !c.Arrival.After(t) || !c.Arrival.Before(end) {
			continue
		}
		if n, ok := next[c.IMO]; !ok || c.Arrival.Before(n.Arrival) {
			next[c.IMO] = c
		}
	}
	return next
}
