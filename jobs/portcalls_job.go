package jobs

import (
	"context"
	"sync/atomic"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// TrailingDays is how far before its watermark each run of the port-call
// derivation starts again, for late data (positions relayed late by
// satellite providers, a feed catching up after an outage).
const TrailingDays = 3

const day = 24 * time.Hour

// PortCalls derives the port_calls table. Each call is stored under the
// day of its departure (of the end of the data while it goes on). A run
// recomputes whole days, from TrailingDays before the watermark (the
// newest position it has seen), or from the earliest day of positions
// stored since its previous run (late history), to the end of the data:
// the calls that departed in them or go on. The first run covers the whole
// history.
func PortCalls(store Store, ports *seaport.Index) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		first, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		start := first.Truncate(day)
		if !prev.Watermark.IsZero() {
			start = maxTime(start, prev.Watermark.Truncate(day).Add(-TrailingDays*day))
		}
		if start, err = lateStart(ctx, positionsChanged(store), prev, start); err != nil {
			return Result{}, err
		}
		res, err := DerivePortCalls(ctx, store, ports, start, last)
		res.Watermark = last
		return res, err
	}
}

// DerivePortCalls recomputes the port calls that departed on the days
// from start (a day boundary) to the end of the data at last, or go on,
// and writes them as a new generation. A vessel in port at start (a call
// that arrived before it) is read from that call's arrival, so the call is
// detected whole; the others from start.
func DerivePortCalls(ctx context.Context, store Store, ports *seaport.Index, start, last time.Time) (Result, error) {
	across, err := store.CallsAcross(ctx, start)
	if err != nil {
		return Result{}, err
	}
	profiles, err := store.VesselProfiles(ctx)
	if err != nil {
		return Result{}, err
	}
	var calls []portcall.Call
	keep := func(imo overwatch.IMO, track []vessel.TrackPoint) error {
		for _, c := range portcall.Detect(imo, track, ports, last) {
			if c.Departure != nil && c.Departure.Before(start) {
				continue // a call of an earlier day, kept as it is
			}
			portcall.Enrich(&c, profiles[imo])
			calls = append(calls, c)
		}
		return ctx.Err()
	}
	earliest, imos := start, make([]overwatch.IMO, 0, len(across))
	for imo, arrival := range across {
		imos = append(imos, imo)
		earliest = minTime(earliest, arrival)
	}
	if len(imos) > 0 {
		// Read together from the earliest arrival: a vessel's positions
		// before its own call only end calls that departed before start.
		if err := store.Tracks(ctx, earliest.Add(-portcall.EdgeGap), last, TrackFilter{Only: imos}, keep); err != nil {
			return Result{}, err
		}
	}
	if err := store.Tracks(ctx, start.Add(-portcall.EdgeGap), last, TrackFilter{Except: imos}, keep); err != nil {
		return Result{}, err
	}
	days := portstats.Days(start, last)
	if err := store.WritePortCalls(ctx, Generation(), days, calls, last); err != nil {
		return Result{}, err
	}
	return Result{From: start, To: days[len(days)-1].Add(day), Rows: len(calls)}, nil
}

var lastGen atomic.Uint64

// Generation returns a new generation number: the time in nanoseconds,
// strictly increasing within the process.
func Generation() uint64 {
	for {
		prev, n := lastGen.Load(), uint64(time.Now().UnixNano())
		if n <= prev {
			n = prev + 1
		}
		if lastGen.CompareAndSwap(prev, n) {
			return n
		}
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
