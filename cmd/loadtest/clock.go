package main

import (
	"os"
	"time"
)

// startedAt is when the load test started, on the real clock.
var startedAt = time.Now()

// now is the clock the load tests lay out their data from: the service's
// (OVERWATCH_CLOCK_START, RFC 3339, then running at real speed; it is
// passed on to the overwatch processes they start), or the real time.
func now() time.Time {
	if v := os.Getenv("OVERWATCH_CLOCK_START"); v != "" {
		if start, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return start.Add(time.Since(startedAt)).UTC()
		}
	}
	return time.Now()
}
