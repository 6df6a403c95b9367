package app

import (
	"io"
	"log/slog"
	"overwatch/testclock"
	"time"
)

// clockEnv is the environment of a command a test runs in process (run):
// get's variables, and the tests' clock as OVERWATCH_CLOCK_START when
// OVERWATCH_TEST_NOW sets it and get does not, so that the command's
// "now" (a simulation's default start, the receive time of replayed
// messages, the jobs' windows) is the test's.
func clockEnv(get func(string) string) func(string) string {
	if !testclock.Set() {
		return get
	}
	start := testclock.Now().Format(time.RFC3339Nano)
	return func(k string) string {
		if v := get(k); v != "" || k != "OVERWATCH_CLOCK_START" {
			return v
		}
		return start
	}
}

// discardLog is a logger that writes nowhere.
func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
