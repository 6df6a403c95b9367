package jobs

import (
	"context"
	"testing"
	"time"

	"overwatch/maritime/river"
)

type fakeLevels []river.Reading

func (f fakeLevels) RiverLevels(_ context.Context, since time.Time) ([]river.Reading, error) {
	var out []river.Reading
	for _, r := range f {
		if !r.Time.Before(since) {
			out = append(out, r)
		}
	}
	return out, nil
}

type fakeResolver struct{ keys []string }

func (f *fakeResolver) ResolveAlerts(_ context.Context, keys []string, _ time.Time) (int, error) {
	f.keys = append(f.keys, keys...)
	return len(keys), nil
}

// The river source: one event per gauge and episode, with the worst
// severity so far (so the alerts job escalates), for the gauge's port;
// an ended episode is resolved; one that ended before the window is left.
func TestRiverAlerts(t *testing.T) {
	now := time.Date(2025, 10, 10, 12, 0, 0, 0, time.UTC)
	at := func(h int) time.Time { return now.Add(time.Duration(h) * time.Hour) }
	stl := func(h int, ft float64) river.Reading {
		return river.Reading{Site: "07010000", Parameter: river.ParamGageHeight, Time: at(h), Value: ft}
	}
	levels := fakeLevels{stl(-200, -1), stl(-199, 1), // an old episode, ended before the window
		stl(-5, 0), stl(-4, -1), stl(-3, -2)} // low water under way
	res := &fakeResolver{}
	src := RiverAlerts{Store: levels, Resolver: res}
	from := at(-72)
	events, err := src.Events(context.Background(), from, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].Severity != SeverityWarning || events[0].Port != "new-orleans" || events[0].Type != AlertRiverLevel ||
		events[0].Key != "river/st-louis/2025-10-10T08:00:00Z" || len(res.keys) != 0 {
		t.Fatalf("low water: %+v, resolved %v", events, res.keys)
	}
	// Worse: the same key, critical.
	levels = append(levels, stl(-2, -5.5))
	src.Store = levels
	events, _ = src.Events(context.Background(), from, now)
	if len(events) != 1 || events[0].Severity != SeverityCritical || events[0].Key != "river/st-louis/2025-10-10T08:00:00Z" {
		t.Fatalf("critical: %+v", events)
	}
	// Back to normal: still raised (deduplicated by the sink), resolved.
	levels = append(levels, stl(-1, 0.3))
	src.Store = levels
	events, _ = src.Events(context.Background(), from, now)
	if len(events) != 1 || len(res.keys) != 1 || res.keys[0] != events[0].Key {
		t.Fatalf("recovered: %+v, resolved %v", events, res.keys)
	}
	alerts := AlertsFor([]Watcher{{AccountID: 1, Ports: map[string]bool{"new-orleans": true}}, {AccountID: 2, Ports: map[string]bool{"santos": true}}}, events)
	if len(alerts) != 1 || alerts[0].AccountID != 1 {
		t.Errorf("watchers: %+v", alerts)
	}
}
