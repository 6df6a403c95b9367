package predict

import (
	"math"
	"sync"

	"overwatch/maritime/geo"
	"overwatch/maritime/sealane"
	"overwatch/maritime/seaport"
)

const kmPerNM = 1.852

// lane is a sea-lane route with the cumulative distance of each point and
// the distance at which it enters the destination's port area.
type lane struct {
	pts   [][2]float64
	cum   []float64 // nautical miles from the start to each point
	entry float64   // nautical miles from the start to the port area
	// cells are the 1° cells within one cell of a point of the lane: a
	// position outside them is farther than about 50 nm from the lane, and
	// is not projected on it (a vessel is tested against every lane)
	cells map[int32]struct{}
}

// cellOf is the 1° cell of a point.
func cellOf(lat, lon float64) (r, c int32) {
	r = int32(math.Floor(lat)) + 90
	c = (int32(math.Floor(lon))%360 + 540) % 360
	return r, c
}

// near reports whether the point lies in the lane's cells.
func (l *lane) near(lat, lon float64) bool {
	r, c := cellOf(lat, lon)
	_, ok := l.cells[r*360+c]
	return ok
}

var (
	laneMu   sync.Mutex
	laneMemo = map[[2]string]*lane{}
)

// laneOf is the route from one reference port to another, or nil when
// either is unknown or they are the same.
func laneOf(from, to string) *lane {
	if from == "" || to == "" || from == to {
		return nil
	}
	key := [2]string{from, to}
	laneMu.Lock()
	defer laneMu.Unlock()
	if l, ok := laneMemo[key]; ok {
		return l
	}
	var l *lane
	if r, err := sealane.Between(from, to); err == nil && len(r.Points) > 0 {
		l = &lane{pts: r.Points, cum: make([]float64, len(r.Points))}
		for i := 1; i < len(r.Points); i++ {
			a, b := r.Points[i-1], r.Points[i]
			l.cum[i] = l.cum[i-1] + geo.DistanceKM(a[0], a[1], b[0], b[1])/kmPerNM
		}
		l.entry = l.cum[len(l.cum)-1]
		l.cells = map[int32]struct{}{}
		for _, pt := range r.Points {
			r0, c0 := cellOf(pt[0], pt[1])
			for dr := int32(-1); dr <= 1; dr++ {
				for dc := int32(-1); dc <= 1; dc++ {
					l.cells[(r0+dr)*360+(c0+dc+360)%360] = struct{}{}
				}
			}
		}
		if p, ok := seaport.BySlug(to); ok {
			for i, pt := range r.Points {
				if p.Area.Contains(pt[0], pt[1]) {
					l.entry = l.cum[i]
					break
				}
			}
		}
	}
	laneMemo[key] = l
	return l
}

// project is where a point lies along the lane: the distance along it of
// the nearest point of the polyline and the cross-track distance to it, in
// nautical miles. A local flat projection per segment is enough at the
// 25 km spacing of the lane points.
func (l *lane) project(lat, lon float64) (along, cross float64) {
	cross = math.Inf(1)
	k := math.Cos(lat * math.Pi / 180)
	for i := 1; i < len(l.pts); i++ {
		a, b := l.pts[i-1], l.pts[i]
		// segments (at most 25 km long) more than 1.5° of latitude away
		// cannot be the nearest of a lane within the cells
		if math.Min(math.Abs(a[0]-lat), math.Abs(b[0]-lat)) > 1.5 {
			continue
		}
		ax, ay := dlon(a[1], lon)*k, a[0]-lat
		bx, by := dlon(b[1], lon)*k, b[0]-lat
		dx, dy := bx-ax, by-ay
		t := 0.0
		if n := dx*dx + dy*dy; n > 0 {
			t = math.Max(0, math.Min(1, -(ax*dx+ay*dy)/n))
		}
		px, py := ax+t*dx, ay+t*dy
		d := math.Hypot(px, py) * 60 // degrees to nautical miles
		if d < cross {
			cross = d
			along = l.cum[i-1] + t*(l.cum[i]-l.cum[i-1])
		}
	}
	if len(l.pts) == 1 {
		p := l.pts[0]
		cross = geo.DistanceKM(lat, lon, p[0], p[1]) / kmPerNM
	}
	return along, cross
}

// dlon is lon2-lon1 in degrees, wrapped into [-180, 180).
func dlon(lon2, lon1 float64) float64 {
	d := math.Mod(lon2-lon1+540, 360) - 180
	return d
}

func geoKM(lat1, lon1, lat2, lon2 float64) float64 { return geo.DistanceKM(lat1, lon1, lat2, lon2) }

// RemainingRoute is the way a vessel at (lat, lon) that left the reference
// port from has still to go to the port to along the sea lanes: its
// position, then the lane's points from the one after the point of the
// lane nearest the vessel to the lane's end, as [lat, lon]. Nil when the
// lane is unknown (no last port, the same port, no route between them) or
// the vessel is more than 100 nm off it.
func RemainingRoute(from, to string, lat, lon float64) [][2]float64 {
	l := laneOf(from, to)
	if l == nil {
		return nil
	}
	along, cross := l.project(lat, lon)
	if cross > 100 {
		return nil
	}
	out := [][2]float64{{lat, lon}}
	for i, p := range l.pts {
		if l.cum[i] > along {
			out = append(out, p)
		}
	}
	if len(out) == 1 {
		out = append(out, l.pts[len(l.pts)-1])
	}
	return out
}
