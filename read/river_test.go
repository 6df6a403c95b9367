package read

import (
	"testing"
	"time"

	"overwatch/maritime/river"
)

func TestRiverSourceStatus(t *testing.T) {
	now := time.Date(2025, 10, 10, 12, 0, 0, 0, time.UTC)
	ok := river.Fetch{At: now.Add(-10 * time.Minute), OK: true, Readings: 40}
	bad := river.Fetch{At: now.Add(-5 * time.Minute), Error: "GET https://waterservices.usgs.gov/nwis/iv/: 503 Service Unavailable"}
	for _, c := range []struct {
		log    river.FetchLog
		newest time.Time
		gauges int
		want   string
	}{
		{river.FetchLog{}, time.Time{}, 0, "no_data"},
		{river.FetchLog{Last: bad, FailuresSince: 3}, time.Time{}, 0, "unavailable"},
		{river.FetchLog{Last: bad, LastOK: ok, FailuresSince: 1}, now.Add(-time.Hour), 3, "stale"},
		{river.FetchLog{Last: ok, LastOK: ok}, now.Add(-5 * time.Hour), 3, "stale"},
		{river.FetchLog{Last: ok, LastOK: ok}, now.Add(-time.Hour), 3, "live"},
	} {
		s := riverSource(c.log, c.newest, c.gauges, now)
		if s.Status != c.want || s.Message == "" || (c.log.Last.At.IsZero() != (s.LastFetchAt == nil)) || (!c.log.Last.OK && !c.log.Last.At.IsZero() && s.LastError == nil) {
			t.Errorf("%+v: %+v, want %s", c.log, s, c.want)
		}
	}
}
