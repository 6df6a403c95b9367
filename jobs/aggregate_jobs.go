package jobs

import (
	"context"
	"time"

	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
)

// Trailing windows of the aggregations: each run recomputes these whole
// days or weeks before the watermark (and everything on its first run),
// which covers the port-call derivation's own trailing window.
const (
	CongestionTrailingDays = 14
	WeeklyTrailingWeeks    = 3
)

// window is the span an aggregation recomputes: from the start of the
// data on the first run, else from trailing before the watermark or from
// the earliest day of port calls rewritten since the previous run (late
// history), whichever is earlier; the end of the data is the new
// watermark.
func window(ctx context.Context, store Store, prev State, trailing time.Duration) (from, last time.Time, ok bool, err error) {
	first, last, err := store.DataSpan(ctx)
	if err != nil || last.IsZero() {
		return time.Time{}, time.Time{}, false, err
	}
	from = first
	if !prev.Watermark.IsZero() {
		from = maxTime(first, prev.Watermark.Add(-trailing))
	}
	from, err = lateStart(ctx, derivedChanged(store, "port_calls"), prev, from)
	return from, last, err == nil, err
}

// Congestion derives congestion_daily.
func Congestion(store Store) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		from, last, ok, err := window(ctx, store, prev, CongestionTrailingDays*day)
		if !ok {
			return Result{}, err
		}
		return DeriveCongestion(ctx, store, from, last)
	}
}

// DeriveCongestion recomputes the congestion of the days from the one
// holding from to the one holding last.
func DeriveCongestion(ctx context.Context, store Store, from, last time.Time) (Result, error) {
	days := portstats.Days(from, last)
	end := days[len(days)-1].Add(day)
	calls, err := store.Calls(ctx, days[0], end)
	if err != nil {
		return Result{}, err
	}
	rows := portstats.Congestion(calls, days)
	if err := store.WriteCongestion(ctx, Generation(), days, rows); err != nil {
		return Result{}, err
	}
	return Result{From: days[0], To: end, Rows: len(rows), Watermark: last}, nil
}

// weekly is a derivation over whole ISO weeks.
func weekly(store Store, derive func(ctx context.Context, weeks []time.Time, calls []portcall.Call, last time.Time) (int, error)) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		from, last, ok, err := window(ctx, store, prev, WeeklyTrailingWeeks*7*day)
		if !ok {
			return Result{}, err
		}
		weeks := portstats.Weeks(from, last)
		end := weeks[len(weeks)-1].Add(7 * day)
		calls, err := store.Calls(ctx, weeks[0], end)
		if err != nil {
			return Result{}, err
		}
		n, err := derive(ctx, weeks, calls, last)
		if err != nil {
			return Result{}, err
		}
		return Result{From: weeks[0], To: end, Rows: n, Watermark: last}, nil
	}
}

// BerthUtilization derives berth_weekly.
func BerthUtilization(store Store) Run {
	return weekly(store, func(ctx context.Context, weeks []time.Time, calls []portcall.Call, last time.Time) (int, error) {
		rows := portstats.BerthWeeks(calls, weeks, last)
		return len(rows), store.WriteBerthWeeks(ctx, Generation(), weeks, rows)
	})
}

// FleetAge derives fleet_age_weekly.
func FleetAge(store Store) Run {
	return weekly(store, func(ctx context.Context, weeks []time.Time, calls []portcall.Call, _ time.Time) (int, error) {
		rows := portstats.FleetAgeWeeks(calls, weeks)
		return len(rows), store.WriteFleetAgeWeeks(ctx, Generation(), weeks, rows)
	})
}

// ExportEstimates derives estimates_weekly.
func ExportEstimates(store Store) Run {
	return weekly(store, func(ctx context.Context, weeks []time.Time, calls []portcall.Call, _ time.Time) (int, error) {
		rows := portstats.EstimateWeeks(calls, weeks)
		return len(rows), store.WriteEstimateWeeks(ctx, Generation(), weeks, rows)
	})
}

// DestinationReliability derives destination_reliability over the whole history.
func DestinationReliability(store Store) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		first, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		calls, err := store.Calls(ctx, first.Add(-365*day), last.Add(day))
		if err != nil {
			return Result{}, err
		}
		rows := portstats.DestinationReliability(calls)
		if err := store.WriteReliability(ctx, Generation(), rows); err != nil {
			return Result{}, err
		}
		return Result{From: first, To: last, Rows: len(rows), Watermark: last}, nil
	}
}

// CleanupDerived deletes superseded generations of the derived tables.
func CleanupDerived(store Store) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		n, err := store.CleanDerived(ctx)
		return Result{Rows: n, Watermark: time.Now().UTC()}, err
	}
}

// Purge runs a purge of expired state (the rate-limit windows) every
// five minutes.
func Purge(purge func(ctx context.Context) (int64, error)) Run {
	return func(ctx context.Context, _ State) (Result, error) {
		n, err := purge(ctx)
		return Result{Rows: int(n), Watermark: time.Now().UTC()}, err
	}
}
