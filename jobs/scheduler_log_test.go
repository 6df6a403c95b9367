package jobs

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// freeLocker claims every job at once.
type freeLocker struct{}

func (freeLocker) Claim(context.Context, string, time.Duration) (func(context.Context) error, bool, error) {
	return func(context.Context) error { return nil }, true, nil
}

// noStates keeps no state.
type noStates struct{}

func (noStates) JobState(_ context.Context, name string) (State, error) {
	return State{Name: name}, nil
}
func (noStates) RecordRun(context.Context, string, time.Time, time.Duration, Result, error) error {
	return nil
}
func (noStates) JobStates(context.Context) ([]State, error) { return nil, nil }

// A run that wrote rows is logged at info; one that did nothing (the
// webhook worker with nothing due, every 5 seconds) only at debug.
func TestJobDoneLogLevel(t *testing.T) {
	t.Parallel()
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf bytes.Buffer
		rows := func(n int) Run {
			return func(context.Context, State) (Result, error) { return Result{Rows: n}, nil }
		}
		sc, err := NewScheduler([]Job{{Name: "idle", Every: 5 * time.Second, Run: rows(0)}, {Name: "busy", Every: time.Hour, Run: rows(7)}},
			freeLocker{}, noStates{}, slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level})))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"idle", "busy", "idle"} {
			if _, err := sc.RunNow(context.Background(), name); err != nil {
				t.Fatal(err)
			}
		}
		log := buf.String()
		idle := strings.Count(log, `msg="job done" job=idle`)
		if !strings.Contains(log, `level=INFO msg="job done" job=busy`) || level == slog.LevelInfo && idle != 0 ||
			level == slog.LevelDebug && (idle != 2 || !strings.Contains(log, `level=DEBUG msg="job done" job=idle`)) {
			t.Errorf("at %s:\n%s", level, log)
		}
	}
}
