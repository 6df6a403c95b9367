package app

import (
	"fmt"
	"strings"
	"time"
)

// clockFrom is the service's clock: the real time when start is zero,
// otherwise start at the moment the clock is made, then running at real
// speed (OVERWATCH_CLOCK_START). Every decision that depends on "now"
// (the windows of the reads, the history floors of the plans, the
// rate-limit days, the pipeline of the forecasts at the end of data, the
// alerts' window, the receive time of ingested reports, the demo's
// history) takes this clock; elapsed-time measurements (timeouts, metrics,
// backoff, leases) and what an outside party checks against the real time
// (the payment provider's signatures) keep the real clock.
func clockFrom(start time.Time) func() time.Time {
	if start.IsZero() {
		return time.Now
	}
	offset := time.Until(start)
	return func() time.Time { return time.Now().Add(offset).UTC() }
}

// parseClockStart reads OVERWATCH_CLOCK_START: empty is the real time.
func parseClockStart(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("OVERWATCH_CLOCK_START must be an RFC 3339 instant like 2026-12-05T23:50:00Z")
	}
	return t, nil
}

// clock is the configuration's clock (the real time when unset, as in a
// config made by hand).
func (c Config) clock() func() time.Time {
	if c.Now == nil {
		return time.Now
	}
	return c.Now
}
