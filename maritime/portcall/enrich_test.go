package portcall

import (
	"testing"
	"time"

	"overwatch/maritime/tracktest"
)

func TestDay(t *testing.T) {
	t.Parallel()
	D := time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC)
	dataEnd := time.Date(2025, 3, 12, 7, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		dep  *time.Time
		want time.Time
	}{
		{tracktest.HoursPtr(D, 13.5), D},
		{tracktest.HoursPtr(D, 24), D.Add(24 * time.Hour)},
		{tracktest.HoursPtr(D, 23.99), D},
		{nil, time.Date(2025, 3, 12, 0, 0, 0, 0, time.UTC)},                                // going on: the day of the end of the data
		{tracktest.Ptr(time.Date(2025, 3, 11, 1, 0, 0, 0, time.FixedZone("", 3*3600))), D}, // 22:00 UTC the day before
	} {
		c := Call{Arrival: tracktest.Hours(D, -10), Departure: tc.dep}
		if got := Day(&c, dataEnd); !got.Equal(tc.want) || got.Location() != time.UTC {
			t.Errorf("Day(departure %v) = %s, want %s", tc.dep, got, tc.want)
		}
	}
}
