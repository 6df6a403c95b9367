// Package testclock is the one clock of the tests: "now" for every fixture
// and every expectation a test derives from the time of day. It reads
// OVERWATCH_TEST_NOW (RFC 3339), the instant the test binary's clock starts
// from, and then runs at real speed, so a suite can be run as if it were a
// Saturday evening, a midnight or the last minutes of a year; unset, it is
// the real time. Only tests import it.
package testclock

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// Env is the variable the clock reads.
const Env = "OVERWATCH_TEST_NOW"

var (
	once   sync.Once
	offset time.Duration // the set instant minus the real time at start
	set    bool
	err    error
)

func load() {
	v := os.Getenv(Env)
	if v == "" {
		return
	}
	t, perr := time.Parse(time.RFC3339, v)
	if perr != nil {
		err = fmt.Errorf("testclock: %s=%q is not an RFC 3339 instant: %v", Env, v, perr)
		return
	}
	offset = t.Sub(time.Now())
	set = true
}

// Now is the tests' current time: OVERWATCH_TEST_NOW plus the time the
// test binary has run, or the real time when the variable is unset. It
// panics on a malformed value: a run asked for an instant it cannot have.
func Now() time.Time {
	once.Do(load)
	if err != nil {
		panic(err)
	}
	if !set {
		return time.Now()
	}
	return time.Now().Add(offset).UTC()
}

// Set reports whether OVERWATCH_TEST_NOW sets the clock.
func Set() bool {
	once.Do(load)
	return set && err == nil
}

// Since is the time elapsed since t on the tests' clock.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until is the time until t on the tests' clock.
func Until(t time.Time) time.Duration { return t.Sub(Now()) }

// Today is the start of the current UTC day on the tests' clock.
func Today() time.Time { return Now().UTC().Truncate(24 * time.Hour) }
