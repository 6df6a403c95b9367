package sar

import (
	"fmt"
	"math"
	"time"
)

// LonLat is a footprint vertex in degrees, GeoJSON order.
type LonLat struct{ Lon, Lat float64 }

// Polygon is a footprint's outer ring (closed or not).
type Polygon []LonLat

// earthKm is the mean Earth radius.
const earthKm = 6371.0

// MaxRadiusKm is the largest search radius (the projection below stays
// within a fraction of a per cent of the great-circle distance up to it,
// away from the poles).
const MaxRadiusKm = 500

// Valid reports whether the polygon has at least three vertices, all
// finite and within -90..90 and -180..180 (360 for unwrapped rings).
func (p Polygon) Valid() bool {
	if len(p) < 3 {
		return false
	}
	for _, v := range p {
		if math.IsNaN(v.Lon) || math.IsNaN(v.Lat) || v.Lat < -90 || v.Lat > 90 || v.Lon < -360 || v.Lon > 360 {
			return false
		}
	}
	return true
}

// Bounds is the polygon's bounding box.
func (p Polygon) Bounds() (minLat, maxLat, minLon, maxLon float64) {
	minLat, maxLat, minLon, maxLon = 90, -90, 360, -360
	for _, v := range p {
		minLat, maxLat = math.Min(minLat, v.Lat), math.Max(maxLat, v.Lat)
		minLon, maxLon = math.Min(minLon, v.Lon), math.Max(maxLon, v.Lon)
	}
	return
}

// DistanceKm is how far the point (lat, lng) lies from the footprint: 0
// inside it, else the distance to its nearest edge, on a plane tangent at
// the point (longitudes wrapped across the antimeridian).
func (p Polygon) DistanceKm(lat, lng float64) float64 {
	if len(p) < 3 {
		return math.Inf(1)
	}
	k := math.Pi / 180 * earthKm
	c := math.Cos(lat * math.Pi / 180)
	xy := make([][2]float64, len(p))
	for i, v := range p {
		d := math.Mod(v.Lon-lng+540, 360) - 180
		xy[i] = [2]float64{d * c * k, (v.Lat - lat) * k}
	}
	inside := false
	best := math.Inf(1)
	for i := range xy {
		a, b := xy[i], xy[(i+1)%len(xy)]
		if (a[1] > 0) != (b[1] > 0) && 0 < (b[0]-a[0])*(0-a[1])/(b[1]-a[1])+a[0] {
			inside = !inside
		}
		best = math.Min(best, segDist(a, b))
	}
	if inside {
		return 0
	}
	return best
}

// segDist is the distance from the origin to the segment ab.
func segDist(a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, -(a[0]*dx+a[1]*dy)/l))
	}
	return math.Hypot(a[0]+t*dx, a[1]+t*dy)
}

// Area is what a catalogue is asked for: a box around a point snapped
// outward to whole degrees (so nearby points share it), and a UTC day.
// A catalogue answer is cached per area and day.
type Area struct {
	MinLat, MaxLat, MinLon, MaxLon float64
	Day                            time.Time
}

// Window is how far either side of the day a catalogue query reaches: a
// half cycle each way sees every relative orbit at least once.
const Window = CycleDays / 2 * 24 * time.Hour

// radiusBuckets are the radii areas are drawn for: a radius is rounded
// up to one of them, so that nearby queries of similar radii share an
// area (and its cached catalogue answer).
var radiusBuckets = []float64{50, 100, 200, 300, MaxRadiusKm}

// AreaAround is the area holding every point within radiusKm (rounded up
// to a radius bucket) of (lat, lng), on t's UTC day.
func AreaAround(lat, lng, radiusKm float64, t time.Time) Area {
	for _, b := range radiusBuckets {
		if radiusKm <= b {
			radiusKm = b
			break
		}
	}
	dLat := radiusKm / (math.Pi / 180 * earthKm)
	c := math.Max(math.Cos(math.Min(89, math.Abs(lat)+dLat)*math.Pi/180), 0.02)
	dLon := math.Min(dLat/c, 180)
	a := Area{MinLat: math.Max(-90, math.Floor(lat-dLat)), MaxLat: math.Min(90, math.Ceil(lat+dLat)),
		MinLon: math.Max(-180, math.Floor(lng-dLon)), MaxLon: math.Min(180, math.Ceil(lng+dLon))}
	t = t.UTC()
	a.Day = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return a
}

// Key names the area and day (the cache key).
func (a Area) Key() string {
	return fmt.Sprintf("%g,%g,%g,%g", a.MinLat, a.MaxLat, a.MinLon, a.MaxLon)
}

// From and To are the times a catalogue query of the area covers.
func (a Area) From() time.Time { return a.Day.Add(-Window) }

// To is the end of the area's window (see From).
func (a Area) To() time.Time { return a.Day.Add(24*time.Hour + Window) }

// WKT is the area as a WKT polygon, counter-clockwise, lon lat.
func (a Area) WKT() string {
	return fmt.Sprintf("POLYGON((%g %g,%g %g,%g %g,%g %g,%g %g))", a.MinLon, a.MinLat, a.MaxLon, a.MinLat,
		a.MaxLon, a.MaxLat, a.MinLon, a.MaxLat, a.MinLon, a.MinLat)
}
