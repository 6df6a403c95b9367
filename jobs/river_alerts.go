package jobs

import (
	"context"
	"time"

	"overwatch/maritime/river"
)

// RiverLevelReader reads the gauge-height readings since a time, oldest
// first (the river_readings table).
type RiverLevelReader interface {
	RiverLevels(ctx context.Context, since time.Time) ([]river.Reading, error)
}

// AlertResolver resolves the open alerts of the event keys (an event that
// has ended), returning how many it resolved.
type AlertResolver interface {
	ResolveAlerts(ctx context.Context, eventKeys []string, at time.Time) (int, error)
}

// RiverHistory is how far back the river alert source reads: an episode
// out of normal that started earlier would get a new key (and alert).
const RiverHistory = 120 * 24 * time.Hour

// RiverAlerts is the alert source of the river gauges: one river_level
// event per gauge and episode out of normal (low, critical or flood water;
// river.Episodes), for the watchers of the gauge's port. Its severity is
// the episode's worst status so far (river.Severity: critical low water
// is critical, low water and flood warnings), so an episode that worsens
// is raised again with a higher severity and escalated; an episode that
// has ended (a normal reading) resolves its alerts through Resolver.
// Episodes that ended before the run's window are left alone.
type RiverAlerts struct {
	Store    RiverLevelReader
	Resolver AlertResolver // nil: episodes that end resolve nothing
}

// Name implements AlertSource.
func (RiverAlerts) Name() string { return "river" }

// Events implements AlertSource: the episodes under way or ended in
// [from, to), each at its start. The ended ones are resolved as well, so
// an alert raised by this run of an episode that has already ended is
// resolved by the next run.
func (r RiverAlerts) Events(ctx context.Context, from, to time.Time) ([]AlertEvent, error) {
	levels, err := r.Store.RiverLevels(ctx, to.Add(-RiverHistory))
	if err != nil {
		return nil, err
	}
	var out []AlertEvent
	var ended []string
	for _, e := range river.Episodes(levels) {
		if !e.Ongoing() && e.End.Before(from) {
			continue
		}
		out = append(out, AlertEvent{Key: e.Key(), Type: AlertRiverLevel, Severity: river.Severity(e.Worst), Port: e.Gauge.Port,
			At: e.Start, Title: river.Title(e), Message: river.Message(e)})
		if !e.Ongoing() {
			ended = append(ended, e.Key())
		}
	}
	if len(ended) > 0 && r.Resolver != nil {
		if _, err := r.Resolver.ResolveAlerts(ctx, ended, to); err != nil {
			return nil, err
		}
	}
	return out, nil
}
