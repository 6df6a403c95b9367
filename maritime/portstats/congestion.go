package portstats

import (
	"math"
	"slices"
	"time"

	"overwatch/maritime/portcall"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// CongestionDay is a row of congestion_daily: one port, day and vessel
// category ("all" for every vessel).
type CongestionDay struct {
	Day              time.Time
	Port, VesselType string
	Waiting, AtBerth int // at the end of the day
	InPort           int
	Arrivals         int
	Departures       int
	Waits            int // anchor periods that ended in the day
	MedianWaitHours  float64
	P90WaitHours     float64
	MedianPortHours  float64
}

// AllTypes is the vessel_type of the rows over every vessel.
const AllTypes = "all"

// Congestion computes the congestion rows of the days for every port and
// category (every port and day has its rows, zeros included) from the
// calls that overlap them.
func Congestion(calls []portcall.Call, days []time.Time) []CongestionDay {
	types := append([]string{AllTypes}, vessel.CategoryNames()...)
	var out []CongestionDay
	for _, p := range seaport.All() {
		var mine []*portcall.Call
		for i := range calls {
			if c := &calls[i]; c.Port == p.Slug && c.Published() {
				mine = append(mine, c)
			}
		}
		for _, d := range days {
			for _, vt := range types {
				out = append(out, congestionDay(mine, p.Slug, vt, d))
			}
		}
	}
	return out
}

func congestionDay(calls []*portcall.Call, port, vt string, d time.Time) CongestionDay {
	end := d.Add(day)
	row := CongestionDay{Day: d, Port: port, VesselType: vt}
	var waits, stays []float64
	for _, c := range calls {
		if vt != AllTypes && c.Category != vt {
			continue
		}
		if c.Arrival.Before(end) && (c.Departure == nil || !c.Departure.Before(end)) {
			row.InPort++
			if c.AnchorStart != nil && c.AnchorStart.Before(end) && !c.AnchorUntil().Before(end) {
				row.Waiting++
			}
			if c.BerthStart != nil && c.BerthStart.Before(end) && !c.BerthUntil().Before(end) {
				row.AtBerth++
			}
		}
		if within(c.Arrival, d, end) {
			row.Arrivals++
		}
		if c.Departure != nil && within(*c.Departure, d, end) {
			row.Departures++
			stays = append(stays, c.Departure.Sub(c.Arrival).Hours())
		}
		if c.AnchorEnd != nil && c.AnchorUntil() != portcall.FarFuture && within(*c.AnchorEnd, d, end) {
			waits = append(waits, c.WaitHours())
		}
	}
	row.Waits = len(waits)
	row.MedianWaitHours, row.P90WaitHours = Quantile(waits, 0.5), Quantile(waits, 0.9)
	row.MedianPortHours = Quantile(stays, 0.5)
	return row
}

func within(t, from, to time.Time) bool { return !t.Before(from) && t.Before(to) }

// Quantile is the q-quantile of the values by linear interpolation
// between closest ranks (ClickHouse's quantileExact interpolates the
// same way as numpy's default); 0 for no values.
func Quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (pos-float64(lo))*(s[hi]-s[lo])
}
