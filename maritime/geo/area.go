package geo

import "math"

// An area of the position filters: a longitude-latitude box or a polygon,
// in degrees (WGS 84, longitudes from -180 to 180).

// BBox is a box given as its west, south, east and north edges. A box
// whose west edge lies east of its east edge crosses the antimeridian: it
// holds the longitudes from West to 180 and from -180 to East.
type BBox struct {
	West, South, East, North float64
}

// CrossesAntimeridian reports whether the box spans longitude 180.
func (b BBox) CrossesAntimeridian() bool { return b.West > b.East }

// Contains reports whether the point lies in the box, edges included.
func (b BBox) Contains(lat, lon float64) bool {
	if lat < b.South || lat > b.North {
		return false
	}
	if b.CrossesAntimeridian() {
		return lon >= b.West || lon <= b.East
	}
	return lon >= b.West && lon <= b.East
}

// Ring is a closed ring of a polygon: its positions as [longitude,
// latitude] (GeoJSON's order); the last repeats the first.
type Ring [][2]float64

// Polygon is a GeoJSON polygon: its exterior ring first, then its holes.
// Rings are read in plain longitude-latitude coordinates (a polygon that
// crosses the antimeridian must be given as two polygons, as RFC 7946
// asks).
type Polygon []Ring

// Contains reports whether the point lies inside the exterior ring and
// outside every hole (even-odd ray casting; a point on an edge may fall
// either way).
func (p Polygon) Contains(lat, lon float64) bool {
	if len(p) == 0 || !p[0].contains(lon, lat) {
		return false
	}
	for _, hole := range p[1:] {
		if hole.contains(lon, lat) {
			return false
		}
	}
	return true
}

func (r Ring) contains(x, y float64) bool {
	in := false
	for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
		xi, yi, xj, yj := r[i][0], r[i][1], r[j][0], r[j][1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// Bounds is the smallest box holding the polygon's exterior ring.
func (p Polygon) Bounds() BBox {
	b := BBox{West: math.Inf(1), South: math.Inf(1), East: math.Inf(-1), North: math.Inf(-1)}
	if len(p) == 0 {
		return BBox{}
	}
	for _, pt := range p[0] {
		b.West, b.East = math.Min(b.West, pt[0]), math.Max(b.East, pt[0])
		b.South, b.North = math.Min(b.South, pt[1]), math.Max(b.North, pt[1])
	}
	return b
}

// Positions counts the positions of every ring.
func (p Polygon) Positions() int {
	n := 0
	for _, r := range p {
		n += len(r)
	}
	return n
}
