package sim

import (
	"math"
	"sync"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
)

// Coarse is a cheaper report cadence for the older history of a long
// backfill. Before Until, a vessel reports its position every Port when in
// or near a port area, and at sea, the further it is from every port area,
// the less often, up to every Sea (at anchor and alongside, every
// CoarseStationary, and once just after the vessel gets under way): the interval is the time the vessel
// would need at its service speed to reach the nearest port area's edge,
// clamped to [Port, Sea]. So every entry into a port area is seen within
// Port of the truth, and the port calls (arrival, anchorage, berth,
// departure) are derived by the same code as from the full cadence. Static
// reports (draught, destination) come every Port in and near port areas
// (through every call, so the draughts before and after it are seen), at
// twice the positions' interval further out. From Until on, the normal cadence of Downsample applies. The zero
// value is off.
type Coarse struct {
	Until time.Time     // the coarse cadence applies to reports before this time
	Sea   time.Duration // the longest interval between positions at sea (default 3 h)
	Port  time.Duration // the interval in and near port areas (default 30 min)
}

// Coarse cadence defaults, and the interval at anchor or alongside
// (shorter than portcall.InPortGap).
const (
	DefaultCoarseSea  = 3 * time.Hour
	DefaultCoarsePort = 30 * time.Minute
	CoarseStationary  = 2 * time.Hour
)

func (c Coarse) intervals() (sea, port time.Duration) {
	sea, port = c.Sea, c.Port
	if sea <= 0 {
		sea = DefaultCoarseSea
	}
	if port <= 0 {
		port = DefaultCoarsePort
	}
	return max(sea, port), port
}

// portEdgeKM caches the distance from a 0.1° cell to the nearest port
// area's edge (the same for every simulation).
var portEdgeKM sync.Map

// portEdge is the distance in km from the point to the nearest port area's
// edge, less the cell's half-diagonal (8 km): 0 inside an area.
func portEdge(lat, lon float64) float64 {
	k := [2]int32{int32(math.Floor(lat * 10)), int32(math.Floor(lon * 10))}
	if d, ok := portEdgeKM.Load(k); ok {
		return d.(float64)
	}
	cLat, cLon := float64(k[0])/10+0.05, float64(k[1])/10+0.05
	best := math.Inf(1)
	for _, p := range seaport.All() {
		d := geo.DistanceKM(cLat, cLon, p.Area.Lat, p.Area.Lon) - p.Area.RadiusKM - 8
		best = math.Min(best, d)
	}
	best = math.Max(0, best)
	portEdgeKM.Store(k, best)
	return best
}

// coarsen sets the next report times of an emitter whose report at at
// falls before the coarse cadence's end.
func (e *emitter) coarsen(s *Segment, at time.Time, isStatic bool) {
	c := e.p.cfg.Coarse
	sea, port := c.intervals()
	lat, lon, _, _ := s.position(at)
	kmh := math.Max(e.t.v.SpeedKn*kmPerNM*1.1, 1)
	d := time.Duration(portEdge(lat, lon) / kmh * float64(time.Hour))
	d = min(max(d, port), sea)
	next := at.Add(e.jitter(d))
	if s.Kind == Anchor || s.Kind == Berth {
		// At anchor or alongside, nothing changes until the segment ends:
		// a report every CoarseStationary, and one 1-4 minutes after the
		// end (with the draught updated after the cargo operations).
		next = at.Add(e.jitter(CoarseStationary))
		if end := s.End.Add(time.Duration(1+e.r.IntN(4)) * time.Minute); end.Before(next) {
			next = end
		}
	}
	if isStatic {
		if next.Sub(at) > port && !(s.Kind == Anchor || s.Kind == Berth) {
			next = at.Add(next.Sub(at) * 2) // static data less often at sea
		}
		e.nextStatic = next
	} else {
		e.nextPos = next
	}
	// The full cadence starts on time.
	if e.nextPos.After(c.Until) {
		e.nextPos = c.Until.Add(e.jitter(e.underway))
	}
	if e.nextStatic.After(c.Until) {
		e.nextStatic = c.Until.Add(e.jitter(e.static))
	}
}
