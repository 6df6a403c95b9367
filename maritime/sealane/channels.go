package sealane

import (
	"math"
	"sync"
)

// Channel is a navigable channel that the land mask draws as land: a canal
// edge of the sea lanes (Suez, Panama) or a river fairway (the Mississippi
// up to New Orleans, the Paraná de las Palmas and the Paraná up to
// Rosario), as the polyline of latitude/longitude points the lanes follow.
type Channel struct {
	From, To string // the edge's node ids
	Canal    bool   // a canal; false for a river fairway
	Points   [][2]float64
}

// channels are the canal and river edges of the graph.
var channels = sync.OnceValue(func() []Channel {
	g, err := loadLanes()
	if err != nil {
		return nil
	}
	var out []Channel
	for _, e := range g.edges {
		if !e.Canal && !e.River {
			continue
		}
		a, b := g.nodes[g.byID[e.From]], g.nodes[g.byID[e.To]]
		pts := append(append([][2]float64{{a.Lat, a.Lon}}, e.Path...), [2]float64{b.Lat, b.Lon})
		out = append(out, Channel{From: e.From, To: e.To, Canal: e.Canal, Points: pts})
	}
	return out
})

// Channels returns the navigable channels of the sea lanes that cross land
// on the land mask: every canal and river edge. The slice is shared: do not
// modify it.
func Channels() []Channel { return channels() }

// NearChannel reports whether the point lies within km of a navigable
// channel (Channels): on the polyline of a canal or a river fairway, within
// the width of the channel and the roughness of its drawing. A NaN
// coordinate is near none.
func NearChannel(lat, lon, km float64) bool {
	if math.IsNaN(lat) || math.IsNaN(lon) || math.IsNaN(km) {
		return false
	}
	reach := km / kmPerDegree
	for _, c := range channels() {
		for i := 1; i < len(c.Points); i++ {
			p, q := c.Points[i-1], c.Points[i]
			if lat < math.Min(p[0], q[0])-reach || lat > math.Max(p[0], q[0])+reach {
				continue
			}
			if segmentDistanceKM(lat, lon, p, q) <= km {
				return true
			}
		}
	}
	return false
}

// kmPerDegree is a degree of latitude, in kilometres.
const kmPerDegree = 111.195

// segmentDistanceKM is the distance from the point to the segment p–q,
// on a plane tangent at the point (the channels' segments are a few tens of
// kilometres long at most).
func segmentDistanceKM(lat, lon float64, p, q [2]float64) float64 {
	cos := math.Cos(lat * degToRad)
	x := func(lo float64) float64 { return (math.Mod(lo-lon+540, 360) - 180) * cos * kmPerDegree }
	px, py := x(p[1]), (p[0]-lat)*kmPerDegree
	qx, qy := x(q[1]), (q[0]-lat)*kmPerDegree
	dx, dy := qx-px, qy-py
	f := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		f = math.Max(0, math.Min(1, -(px*dx+py*dy)/l2))
	}
	return math.Hypot(px+f*dx, py+f*dy)
}
