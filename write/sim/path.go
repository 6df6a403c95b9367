package sim

import (
	"math"
	"sort"
	"time"

	"overwatch/maritime/geo"
)

// path is a polyline of (lat, lon) points with the cumulative great-circle
// distance to each point, in kilometres. Consecutive points are close
// (sea-lane routes are densified to 25 km), so positions between them are
// interpolated linearly, across the antimeridian too.
type path struct {
	pts [][2]float64
	cum []float64
}

func newPath(pts [][2]float64) *path {
	p := &path{pts: pts, cum: make([]float64, len(pts))}
	for i := 1; i < len(pts); i++ {
		p.cum[i] = p.cum[i-1] + geo.DistanceKM(pts[i-1][0], pts[i-1][1], pts[i][0], pts[i][1])
	}
	return p
}

// lengthKM is the path's length.
func (p *path) lengthKM() float64 { return p.cum[len(p.cum)-1] }

// at returns the point and course (degrees true) at distance d km along
// the path, clamped to its ends.
func (p *path) at(d float64) (lat, lon, course float64) {
	n := len(p.pts)
	if n == 1 {
		return p.pts[0][0], p.pts[0][1], 0
	}
	i := sort.SearchFloat64s(p.cum, d)
	if i <= 0 {
		i = 1
	}
	if i >= n {
		i = n - 1
	}
	a, b := p.pts[i-1], p.pts[i]
	seg := p.cum[i] - p.cum[i-1]
	f := 0.0
	if seg > 0 {
		f = math.Max(0, math.Min(1, (d-p.cum[i-1])/seg))
	}
	dlon := b[1] - a[1]
	if dlon > 180 {
		dlon -= 360
	} else if dlon < -180 {
		dlon += 360
	}
	lat = a[0] + f*(b[0]-a[0])
	lon = a[1] + f*dlon
	if lon > 180 {
		lon -= 360
	} else if lon < -180 {
		lon += 360
	}
	return lat, lon, bearing(a[0], a[1], b[0], b[1])
}

// bearing is the initial great-circle course from the first point to the
// second, in degrees true [0, 360).
func bearing(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	y := math.Sin((lon2-lon1)*rad) * math.Cos(lat2*rad)
	x := math.Cos(lat1*rad)*math.Sin(lat2*rad) - math.Sin(lat1*rad)*math.Cos(lat2*rad)*math.Cos((lon2-lon1)*rad)
	b := math.Atan2(y, x) / rad
	return math.Mod(b+360, 360)
}

// offset moves a point by north and east metres.
func offset(lat, lon, northM, eastM float64) (float64, float64) {
	const mPerDeg = 111320.0
	lat2 := lat + northM/mPerDeg
	lon2 := lon + eastM/(mPerDeg*math.Max(0.01, math.Cos(lat*math.Pi/180)))
	if lon2 > 180 {
		lon2 -= 360
	} else if lon2 < -180 {
		lon2 += 360
	}
	return lat2, lon2
}

// sub returns the part of the path between distances a and b (km).
func (p *path) sub(a, b float64) *path {
	la, loa, _ := p.at(a)
	pts := [][2]float64{{la, loa}}
	for i, c := range p.cum {
		if c > a && c < b {
			pts = append(pts, p.pts[i])
		}
	}
	lb, lob, _ := p.at(b)
	pts = append(pts, [2]float64{lb, lob})
	return newPath(pts)
}

// join concatenates paths, dropping repeated joints.
func join(parts ...*path) *path {
	var pts [][2]float64
	for _, p := range parts {
		for i, pt := range p.pts {
			if i == 0 && len(pts) > 0 && pts[len(pts)-1] == pt {
				continue
			}
			pts = append(pts, pt)
		}
	}
	return newPath(pts)
}

// line is the straight path between two nearby points, densified so that
// interpolation stays on the great circle.
func line(lat1, lon1, lat2, lon2 float64) *path {
	d := geo.DistanceKM(lat1, lon1, lat2, lon2)
	n := int(d/20) + 1
	pts := make([][2]float64, 0, n+1)
	for i := 0; i <= n; i++ {
		f := float64(i) / float64(n)
		pts = append(pts, [2]float64{lat1 + f*(lat2-lat1), lon1 + f*lonDelta(lon1, lon2)})
	}
	for i := range pts {
		if pts[i][1] > 180 {
			pts[i][1] -= 360
		} else if pts[i][1] < -180 {
			pts[i][1] += 360
		}
	}
	return newPath(pts)
}

func lonDelta(a, b float64) float64 {
	d := b - a
	if d > 180 {
		d -= 360
	} else if d < -180 {
		d += 360
	}
	return d
}

// hours converts a distance and a speed to a duration.
func sailTime(km, knots float64) time.Duration {
	if knots <= 0 {
		return 0
	}
	return time.Duration(km / (knots * 1.852) * float64(time.Hour))
}
