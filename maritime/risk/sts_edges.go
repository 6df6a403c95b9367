package risk

import (
	"math"
	"time"

	"overwatch/maritime/geo"
)

// stsExtend returns the runs' positions laid out run after run, each run
// from the moment its vessel reached its first slow position to the moment
// it left its last (stsEdge), with the runs that last STSMinDuration or
// more so measured. A track sampled every half hour under way and every
// hour and a half stopped has only two slow positions in a three-hour
// transfer: the run is the time the vessel spent there, not the time
// between its two reports.
func stsExtend(c []SlowPoint, runs []stsRun) ([]SlowPoint, []stsRun) {
	var x []SlowPoint
	var out []stsRun
	for _, r := range runs {
		from, to := stsEdge(c, r.lo, -1), stsEdge(c, r.hi, +1)
		if to.Sub(from) < STSMinDuration {
			continue
		}
		n := r
		n.lo = len(x)
		if from.Before(c[r.lo].TS) {
			p := c[r.lo]
			p.TS = from
			x = append(x, p)
		}
		x = append(x, c[r.lo:r.hi+1]...)
		if to.After(c[r.hi].TS) {
			p := c[r.hi]
			p.TS = to
			x = append(x, p)
		}
		n.hi = len(x) - 1
		out = append(out, n)
	}
	return x, out
}

// stsEdge is when the vessel reached the slow position c[i] (dir -1) or
// left it (dir +1), from its position under way before (or after) it
// within STSMaxGap: sailing at the speed that position reports, then
// stopped; without a speed, half-way between the two when they are at most
// STSDenseGap apart. Otherwise, c[i]'s own time.
func stsEdge(c []SlowPoint, i, dir int) time.Time {
	p := &c[i]
	j := i + dir
	if j < 0 || j >= len(c) || c[j].IMO != p.IMO || c[j].Slow || !stsValid(c[j].Lat, c[j].Lon) {
		return p.TS
	}
	q := &c[j]
	dt := p.TS.Sub(q.TS)
	if dir > 0 {
		dt = -dt
	}
	if dt <= 0 || dt > STSMaxGap {
		return p.TS
	}
	if sog := q.SOG; sog >= STSMaxKnots && !math.IsInf(sog, 0) {
		travel := time.Duration(geo.DistanceKM(p.Lat, p.Lon, q.Lat, q.Lon) / kmPerNM / sog * float64(time.Hour))
		if travel < dt {
			if dir < 0 {
				return q.TS.Add(travel)
			}
			return q.TS.Add(-travel)
		}
		return p.TS
	}
	if dt <= STSDenseGap {
		return p.TS.Add(time.Duration(dir) * dt / 2)
	}
	return p.TS
}
