package jobs

import (
	"context"
	"time"
)

// ChangeLog says which days of data were written since a time: the days of
// positions that an ingest or an import stored, and the days of a derived
// table that a derivation rewrote. The derivations read it to derive
// history that arrives late (an imported archive, a feed catching up), not
// only their trailing window before the newest data.
type ChangeLog interface {
	// PositionDaysSince is the earliest day of the positions stored at
	// or after since; ok is false when none were.
	PositionDaysSince(ctx context.Context, since time.Time) (first time.Time, ok bool, err error)
	// DerivedDaysSince is the earliest day of the derived table rewritten
	// at or after since; ok is false when none was.
	DerivedDaysSince(ctx context.Context, table string, since time.Time) (first time.Time, ok bool, err error)
}

// changedSince is one of the ChangeLog's questions, asked of positions or
// of a derived table.
type changedSince func(ctx context.Context, since time.Time) (time.Time, bool, error)

func positionsChanged(log ChangeLog) changedSince { return log.PositionDaysSince }

func derivedChanged(log ChangeLog, table string) changedSince {
	return func(ctx context.Context, since time.Time) (time.Time, bool, error) {
		return log.DerivedDaysSince(ctx, table, since)
	}
}

// unchanged is the freshness (Fresh) of a job whose only input is the one
// changed asks about (the positions): fresh when nothing of it was stored
// since the last successful run began (the change log counts whole
// minutes: a write in that minute counts as after).
func unchanged(changed changedSince) Fresh {
	return func(ctx context.Context, prev State, _ func(context.Context, string) (State, error)) (bool, error) {
		if prev.LastSuccess.IsZero() {
			return false, nil
		}
		_, any, err := changed(ctx, prev.LastSuccess)
		return !any, err
	}
}

// after is the freshness (Fresh) of a job whose only input is the output of
// job: fresh when job's last run succeeded and ended before the last
// successful run of this one began.
func after(job string) Fresh {
	return func(ctx context.Context, prev State, state func(context.Context, string) (State, error)) (bool, error) {
		in, err := state(ctx, job)
		if err != nil || prev.LastSuccess.IsZero() || in.LastSuccess.IsZero() || in.LastError != "" {
			return false, err
		}
		return in.LastSuccess.Add(in.LastDuration).Before(prev.LastSuccess), nil
	}
}

// lateStart returns where a run starts: at from (the start of its trailing
// window), or earlier when its input gained data on an earlier day since
// the previous successful run began. A first run (no previous success)
// starts at from, which is then the start of the data.
func lateStart(ctx context.Context, changed changedSince, prev State, from time.Time) (time.Time, error) {
	if prev.LastSuccess.IsZero() || prev.Watermark.IsZero() {
		return from, nil
	}
	first, ok, err := changed(ctx, prev.LastSuccess)
	if err != nil || !ok {
		return from, err
	}
	return minTime(from, first.UTC().Truncate(day)), nil
}
