package overwatch

import "time"

// RatePeriod is the kind of a fixed rate-limit window.
type RatePeriod string

// The rate-limit windows (README, "Limits and errors"). A minute window starts at the first
// request after the previous one ended and lasts 60 s; a day window is the
// UTC calendar day.
const (
	PerMinute RatePeriod = "minute"
	PerUTCDay RatePeriod = "day"
)

// RateBucket is one counter a request draws from.
type RateBucket struct {
	Key    string
	Limit  int
	Period RatePeriod
}

// RateCount is a bucket's state after a request: requests used in the
// window, including this one when it was admitted, and when it resets.
type RateCount struct {
	Used  int
	Reset time.Time
}

// WindowFor returns the window a request at now opens for the period.
func (p RatePeriod) WindowFor(now time.Time) (start, end time.Time) {
	if p == PerUTCDay {
		start = now.UTC().Truncate(24 * time.Hour)
		return start, start.Add(24 * time.Hour)
	}
	return now, now.Add(time.Minute)
}
