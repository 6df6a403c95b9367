package predict

import (
	"context"
	"sort"
	"time"

	"overwatch"
	"overwatch/maritime/portcall"
	"overwatch/maritime/vessel"
)

// Source is where the inputs of predictions come from (the analytics
// store, through the consumer's interface): the fleet's port calls, the
// vessels' tracks and their broadcast declarations.
type Source interface {
	// PredictionCalls are the current port calls that overlap [from, to).
	PredictionCalls(ctx context.Context, from, to time.Time) ([]portcall.Call, error)
	// PredictionTracks calls fn with each vessel's positions in [from, to)
	// in time order, vessel after vessel; only those of only when it is not
	// nil.
	PredictionTracks(ctx context.Context, from, to time.Time, only []overwatch.IMO, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error
	// Declarations are each vessel's destination and ETA as last broadcast
	// in [from, to); only those of only when it is not nil.
	Declarations(ctx context.Context, from, to time.Time, only []overwatch.IMO) (map[overwatch.IMO]Declaration, error)
}

// TrackHours is how much of a vessel's track before the instant a
// prediction reads.
const TrackHours = 48

// declarationDays is how far back a broadcast declaration still counts.
const declarationDays = 14

// AsOf predicts, from the data before asOf only, every vessel under way
// (or those of only, when it is not nil), in IMO order, with ETA intervals
// calibrated by the backtest over the history before asOf
// (CalibrationAsOf).
func AsOf(ctx context.Context, src Source, asOf time.Time, only []overwatch.IMO) ([]Prediction, error) {
	cal, err := CalibrationAsOf(ctx, src, asOf)
	if err != nil {
		return nil, err
	}
	return AsOfCalibrated(ctx, src, asOf, only, cal)
}

// each predicts every vessel of the fleet's instant, calling fn with each
// prediction and its input.
func (f *Fleet) each(ctx context.Context, src Source, only []overwatch.IMO, fn func(Input, Prediction)) ([]Prediction, error) {
	decl, err := src.Declarations(ctx, f.AsOf.Add(-declarationDays*24*time.Hour), f.AsOf, only)
	if err != nil {
		return nil, err
	}
	var out []Prediction
	err = src.PredictionTracks(ctx, f.AsOf.Add(-TrackHours*time.Hour), f.AsOf, only, func(imo overwatch.IMO, track []vessel.TrackPoint) error {
		in := f.Input(imo, track, decl[imo])
		p, ok := Predict(in)
		if !ok {
			return nil
		}
		p.IMO, p.Category = imo, f.kind[imo]
		fn(in, p)
		out = append(out, p)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].IMO < out[j].IMO })
	return out, err
}

// Instants are the instants the service's own backtest predicts as of: 3,
// 5 and 7 days before the end of the data, those at least 14 days after
// its start (so that vessels have a history of calls).
func Instants(first, last time.Time) []time.Time {
	var out []time.Time
	for _, d := range []int{3, 5, 7} {
		t := last.Add(-time.Duration(d) * 24 * time.Hour).Truncate(time.Hour)
		if t.Sub(first) >= 14*24*time.Hour {
			out = append(out, t)
		}
	}
	return out
}

// Evaluate backtests the predictor and both baselines as of each instant
// against the calls that followed it (a vessel whose next call had not
// arrived when the data ends is left out).
func Evaluate(ctx context.Context, src Source, instants []time.Time, end time.Time) (Accuracy, []Case, error) {
	var cases []Case
	for _, t := range instants {
		calls, err := src.PredictionCalls(ctx, t.Add(-HistoryDays*24*time.Hour), end)
		if err != nil {
			return Accuracy{}, nil, err
		}
		f := NewFleet(t, calls)
		if f.cal, err = CalibrationAsOf(ctx, src, t); err != nil {
			return Accuracy{}, nil, err
		}
		next := nextCalls(calls, t, end)
		_, err = f.each(ctx, src, nil, func(in Input, p Prediction) {
			n, ok := next[p.IMO]
			if !ok {
				return
			}
			c := Case{Prediction: p, Port: n.Port, Arrival: n.Arrival}
			c.Declared, _ = DeclaredBaseline(in)
			c.Frequent, _ = FrequentBaseline(in)
			cases = append(cases, c)
		})
		if err != nil {
			return Accuracy{}, nil, err
		}
	}
	return Backtest(cases), cases, nil
}
