package jobs

import (
	"context"
	"time"

	"overwatch"

	"overwatch/maritime/emissions"
	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/vessel"
	"overwatch/maritime/voyage"
)

// EmissionsTrailingDays is how far before its watermark each run of the
// emissions job recomputes the voyages: more than the port-call
// derivation's TrailingDays, so that every call it re-detected is seen.
const EmissionsTrailingDays = TrailingDays + 1

// EmissionsStore is what the emissions job needs of the analytics store:
// the data span, the current port calls, the tracks between them, the
// registry, and the voyage_emissions table to write.
type EmissionsStore interface {
	ChangeLog
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	Calls(ctx context.Context, from, to time.Time) ([]portcall.Call, error)
	Tracks(ctx context.Context, from, to time.Time, f TrackFilter, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error
	VesselProfiles(ctx context.Context) (map[overwatch.IMO]vessel.Profile, error)
	// WriteVoyageEmissions writes the voyages that ended on the days as
	// generation gen, each under the day of its arrival.
	WriteVoyageEmissions(ctx context.Context, gen uint64, days []time.Time, rows []voyage.Record) error
}

// EmissionsJob derives voyage_emissions every hour: the voyages that ended
// (arrived) on the days from EmissionsTrailingDays before the watermark, or
// from the earliest day of port calls rewritten since its previous run, to
// the end of the data; the whole history on the first run.
func Emissions(store EmissionsStore) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		first, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		start := first.Truncate(day)
		if !prev.Watermark.IsZero() {
			start = maxTime(start, prev.Watermark.Truncate(day).Add(-EmissionsTrailingDays*day))
		}
		if start, err = lateStart(ctx, derivedChanged(store, "port_calls"), prev, start); err != nil {
			return Result{}, err
		}
		res, err := DeriveEmissions(ctx, store, start, last)
		res.Watermark = last
		return res, err
	}
}

// DeriveEmissions recomputes the voyages that arrived on the days from
// start (a day boundary) to the one holding last, with their emissions
// (emissions.ComputeVoyage), and writes them as a new generation.
func DeriveEmissions(ctx context.Context, store EmissionsStore, start, last time.Time) (Result, error) {
	days := portstats.Days(start, last)
	end := days[len(days)-1].Add(day)
	calls, err := store.Calls(ctx, start.Add(-voyage.MaxVoyage), end)
	if err != nil {
		return Result{}, err
	}
	profiles, err := store.VesselProfiles(ctx)
	if err != nil {
		return Result{}, err
	}
	byIMO := map[overwatch.IMO][]portcall.Call{}
	var imos []overwatch.IMO
	for _, c := range calls {
		if _, ok := byIMO[c.IMO]; !ok {
			imos = append(imos, c.IMO)
		}
		byIMO[c.IMO] = append(byIMO[c.IMO], c)
	}
	// Each vessel's track is read from the departure of its earliest leg
	// that arrives in the window; vessels are read together by that day,
	// so that one long voyage does not make every track be read from its
	// start.
	fromDay := map[time.Time][]overwatch.IMO{}
	for _, imo := range imos {
		from := start
		for _, v := range voyage.Build(imo, byIMO[imo], nil, vessel.Profile{}) {
			if !v.Input.Arrival.Before(start) {
				from = minTime(from, v.Input.Departure)
			}
		}
		d := from.UTC().Truncate(day)
		fromDay[d] = append(fromDay[d], imo)
	}
	var rows []voyage.Record
	build := func(imo overwatch.IMO, track []vessel.TrackPoint) {
		for _, v := range voyage.Build(imo, byIMO[imo], track, profiles[imo]) {
			if v.Input.Arrival.Before(start) || !v.Input.Arrival.Before(end) {
				continue
			}
			rows = append(rows, voyage.Record{ID: v.ID, Input: v.Input, Result: emissions.ComputeVoyage(v.Input)})
		}
		delete(byIMO, imo)
	}
	for d, group := range fromDay {
		err = store.Tracks(ctx, d, end, TrackFilter{Only: group}, func(imo overwatch.IMO, track []vessel.TrackPoint) error {
			build(imo, track)
			return ctx.Err()
		})
		if err != nil {
			return Result{}, err
		}
	}
	for _, imo := range imos {
		if _, left := byIMO[imo]; left {
			build(imo, nil) // no positions in the window: sea-lane distances only
		}
	}
	if err := store.WriteVoyageEmissions(ctx, Generation(), days, rows); err != nil {
		return Result{}, err
	}
	return Result{From: days[0], To: end, Rows: len(rows)}, nil
}
