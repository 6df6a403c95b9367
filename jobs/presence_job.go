package jobs

import (
	"context"
	"time"
)

// PresenceStore is what the area presence summary needs of the analytics
// store: the span of the stored positions, the days of positions written
// since a time, and the summary to write.
type PresenceStore interface {
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	PositionDaysSince(ctx context.Context, since time.Time) (first time.Time, ok bool, err error)
	// WritePresence summarises the positions of each day (whole UTC
	// days) stored before through, per hour, grid cell and vessel, as
	// generation gen.
	WritePresence(ctx context.Context, gen uint64, days []time.Time, through time.Time) error
}

// PresenceTrailingDays is how far before the day of its watermark each
// run of the presence summary starts again: the day before, for fixes
// relayed late.
const PresenceTrailingDays = 1

// PresenceChunkDays and PresenceRunBudget bound a run: it writes its days
// a chunk at a time, each chunk a generation of its own, and stops after
// the chunk that ends past the budget; the next run goes on from the
// first day not written. A first run over years of
// history so ends within the job's deadline, and the days not yet
// summarised are read from positions meanwhile. Variables for the tests.
var (
	PresenceChunkDays = 7
	PresenceRunBudget = 5 * time.Minute
)

// Presence derives presence_hourly, the summary GET /v1/area/vessels reads
// for the whole hours and the grid cells wholly inside an area. A run
// rewrites whole days, from PresenceTrailingDays before the day of its
// watermark (the newest position it summarised), or from the earliest day
// of positions stored since its previous run (late history), to the day
// of the newest position, up to that position (the reads take the fixes
// after it from positions). The first run covers the whole history, over
// as many runs as its budget takes.
func Presence(store PresenceStore) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		if store == nil {
			return Result{}, nil
		}
		first, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		start := first.Truncate(day)
		if !prev.Watermark.IsZero() {
			start = maxTime(start, prev.Watermark.Truncate(day).Add(-PresenceTrailingDays*day))
		}
		if start, err = lateStart(ctx, store.PositionDaysSince, prev, start); err != nil {
			return Result{}, err
		}
		var days []time.Time
		for d := start; !d.After(last); d = d.Add(day) {
			days = append(days, d)
		}
		through := last.Add(time.Second) // ts is stored to the second
		began := time.Now()              // the run's own elapsed time, for its budget
		for i := 0; i < len(days); i += PresenceChunkDays {
			chunk := days[i:min(i+PresenceChunkDays, len(days))]
			if err := store.WritePresence(ctx, Generation(), chunk, through); err != nil {
				return Result{}, err
			}
			if done := chunk[len(chunk)-1].Add(day); done.Before(through) && time.Since(began) >= PresenceRunBudget {
				// The watermark a trailing window past the last day written:
				// the next run starts at the first day not written.
				return Result{From: start, To: done, Rows: i + len(chunk), Watermark: done.Add(PresenceTrailingDays * day),
					Detail: map[string]any{"stopped_at_budget": true}}, nil
			}
		}
		return Result{From: start, To: through, Rows: len(days), Watermark: last}, nil
	}
}
