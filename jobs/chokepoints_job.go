package jobs

import (
	"context"
	"time"

	"overwatch"
	"overwatch/maritime/chokepoint"
	"overwatch/maritime/vessel"
)

// ChokepointTrailingDays is how far before its watermark each run of the
// chokepoints job recounts the transits (late positions of the last days
// change them).
const ChokepointTrailingDays = 3

// ChokepointHistoryDays is how much of the history before the end of the
// data the job's first run counts: enough for the norms of the signals
// and months of daily transits, without reading years of positions.
const ChokepointHistoryDays = 120

// ChokepointStore is what the chokepoints job needs of the analytics
// store: the position history, the registry (vessel types), the daily
// transits to write and read back, and the signals to store.
type ChokepointStore interface {
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	Tracks(ctx context.Context, from, to time.Time, f TrackFilter, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error
	VesselProfiles(ctx context.Context) (map[overwatch.IMO]vessel.Profile, error)
	// WriteChokepointTransits rewrites the days' transits whole.
	WriteChokepointTransits(ctx context.Context, days []time.Time, counts []chokepoint.Count) error
	ChokepointTransits(ctx context.Context, from, to time.Time) ([]chokepoint.Count, error)
	// InsertDisruptions stores signals once per URL.
	InsertDisruptions(ctx context.Context, rows []chokepoint.Disruption) error
}

// Chokepoints counts the daily transits of the chokepoints by vessel type
// from the AIS positions (maritime/chokepoint: gate crossings, once per
// vessel in 48 h) over the days from ChokepointTrailingDays before the
// watermark (the last ChokepointHistoryDays on the first run) to the end of the data,
// then judges each complete day of them for the transit_drop and
// diversion signals (7 days against the 28 before), stored once per
// chokepoint, kind and day.
func Chokepoints(store ChokepointStore) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		first, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		start := maxTime(first.UTC().Truncate(day), last.UTC().Truncate(day).Add(-ChokepointHistoryDays*day))
		if !prev.Watermark.IsZero() {
			start = maxTime(start, prev.Watermark.UTC().Truncate(day).Add(-ChokepointTrailingDays*day))
		}
		res, err := DeriveChokepoints(ctx, store, first, start, last)
		res.Watermark = last
		return res, err
	}
}

// DeriveChokepoints recounts the transits of the days from start (a day
// boundary) to the one holding last, and judges the complete days among
// them; first is the start of the data (its first, partial day is not
// part of any norm).
func DeriveChokepoints(ctx context.Context, store ChokepointStore, first, start, last time.Time) (Result, error) {
	var days []time.Time
	for d := start; !d.After(last); d = d.Add(day) {
		days = append(days, d)
	}
	end := days[len(days)-1].Add(day)
	profiles, err := store.VesselProfiles(ctx)
	if err != nil {
		return Result{}, err
	}
	cps := chokepoint.All()
	var transits []chokepoint.Transit
	err = store.Tracks(ctx, start.Add(-chokepoint.Dedup), end, TrackFilter{}, func(imo overwatch.IMO, track []vessel.TrackPoint) error {
		for _, t := range chokepoint.Transits(imo, profiles[imo].ShipType, track, cps) {
			if !t.At.Before(start) && t.At.Before(end) {
				transits = append(transits, t)
			}
		}
		return ctx.Err()
	})
	if err != nil {
		return Result{}, err
	}
	counts := chokepoint.Daily(transits)
	if err := store.WriteChokepointTransits(ctx, days, counts); err != nil {
		return Result{}, err
	}
	// Judge the complete days; the series covers the days after the
	// data's first (partial) one, within the history the first run counted.
	lastComplete := last.UTC().Truncate(day).Add(-day)
	covered := maxTime(first.UTC().Truncate(day).Add(day), last.UTC().Truncate(day).Add(-(ChokepointHistoryDays-1)*day))
	var judged []time.Time
	for _, d := range days {
		if !d.After(lastComplete) {
			judged = append(judged, d)
		}
	}
	var stored []chokepoint.Disruption
	if len(judged) > 0 {
		from := judged[0].AddDate(0, 0, -(chokepoint.RecentDays + chokepoint.BaselineDays))
		all, err := store.ChokepointTransits(ctx, from, lastComplete)
		if err != nil {
			return Result{}, err
		}
		series := chokepoint.NewSeries(all, covered, lastComplete)
		for _, s := range series.Signals(judged, cps) {
			stored = append(stored, chokepoint.FromSignal(s))
		}
		if err := store.InsertDisruptions(ctx, stored); err != nil {
			return Result{}, err
		}
	}
	return Result{From: start, To: end, Rows: len(counts) + len(stored),
		Detail: map[string]any{"transits": len(transits), "signals": len(stored)}}, nil
}
