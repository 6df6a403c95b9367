package seaport

import "math"

// Index answers which reference port's area contains a point, fast
// enough for every position of a worldwide feed: a bounding-box test first,
// the great-circle distance only for points inside a box.
type Index struct {
	boxes []portBox
}

type portBox struct {
	slug           string
	area           Zone
	minLat, maxLat float64
	minLon, maxLon float64
}

// NewIndex indexes the port areas of the reference ports.
func NewIndex(ports []Port) *Index {
	ix := &Index{}
	for _, p := range ports {
		a := p.Area
		dLat := a.RadiusKM / 111.0
		dLon := a.RadiusKM / (111.0 * math.Max(0.01, math.Cos(a.Lat*math.Pi/180)))
		ix.boxes = append(ix.boxes, portBox{
			slug: p.Slug, area: a,
			minLat: a.Lat - dLat, maxLat: a.Lat + dLat, minLon: a.Lon - dLon, maxLon: a.Lon + dLon,
		})
	}
	return ix
}

// PortAt returns the slug of the port whose area contains the point, or "".
// Port areas do not overlap, so there is at most one.
func (ix *Index) PortAt(lat, lon float64) string {
	for i := range ix.boxes {
		b := &ix.boxes[i]
		if lat < b.minLat || lat > b.maxLat || lon < b.minLon || lon > b.maxLon {
			continue
		}
		if b.area.Contains(lat, lon) {
			return b.slug
		}
	}
	return ""
}
