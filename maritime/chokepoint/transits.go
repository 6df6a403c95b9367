package chokepoint

import (
	"math"
	"sort"
	"time"

	"overwatch"
	"overwatch/maritime/vessel"
)

// MaxGap is the longest interval between two positions of a track that is
// still taken as a straight passage: a longer gap is not looked into.
const MaxGap = 24 * time.Hour

// Dedup is how long after a vessel's transit of a chokepoint another
// passage of the same vessel is not counted again (IMF PortWatch counts a
// ship once in 48 hours).
const Dedup = 48 * time.Hour

// sampleKM is the step at which a segment is tested against a polygon
// gate besides its crossing of the polygon's edges.
const sampleKM = 5.0

// Transit is a vessel's passage through a chokepoint.
type Transit struct {
	Chokepoint string
	IMO        overwatch.IMO
	At         time.Time
	VesselType string
}

// VesselTypes are the vessel types the counts are split by (the ITU ship
// type families of vessel.Categories that carry trade; all else "other").
var VesselTypes = []string{"cargo", "tanker", "passenger", "other"}

// VesselType is the type a ship type code counts under.
func VesselType(shipType uint8) string {
	if c, ok := vessel.CategoryOf(shipType); ok {
		switch c.Name {
		case "cargo", "tanker", "passenger":
			return c.Name
		}
	}
	return "other"
}

// Transits finds a vessel's passages through the chokepoints in its track
// (positions in time order): each crossing of a gate line, each stay in a
// gate polygon (entered or crossed between two positions), at most one per
// chokepoint in Dedup. Segments longer than MaxGap or across the
// antimeridian are not looked into.
func Transits(imo overwatch.IMO, shipType uint8, track []vessel.TrackPoint, cps []Chokepoint) []Transit {
	var out []Transit
	typ := VesselType(shipType)
	for _, c := range cps {
		var last time.Time
		inside := false
		for i := 1; i < len(track); i++ {
			a, b := track[i-1], track[i]
			if b.TS.Sub(a.TS) > MaxGap || math.Abs(b.Lon-a.Lon) > 180 || !valid(a) || !valid(b) {
				inside = false
				continue
			}
			at, hit := c.Gate.crossed(a, b)
			if len(c.Gate.Polys) > 0 {
				if hit && inside {
					continue // still within the polygon: the same stay
				}
				inside = hit
			}
			if !hit || (!last.IsZero() && at.Sub(last) < Dedup) {
				continue
			}
			last = at
			out = append(out, Transit{Chokepoint: c.Slug, IMO: imo, At: at, VesselType: typ})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

func valid(p vessel.TrackPoint) bool {
	return !math.IsNaN(p.Lat) && !math.IsNaN(p.Lon) && p.Lat >= -90 && p.Lat <= 90 && p.Lon >= -180 && p.Lon <= 180
}

// crossed reports whether the segment a–b passes the gate, and when.
func (g *Gate) crossed(a, b vessel.TrackPoint) (time.Time, bool) {
	pa, pb := Point{a.Lat, a.Lon}, Point{b.Lat, b.Lon}
	at := func(f float64) time.Time { return a.TS.Add(time.Duration(f * float64(b.TS.Sub(a.TS)))) }
	for i := 1; i < len(g.Line); i++ {
		if f, ok := intersect(pa, pb, g.Line[i-1], g.Line[i]); ok {
			return at(f), true
		}
	}
	if len(g.Polys) == 0 {
		return time.Time{}, false
	}
	if math.Max(pa.Lat, pb.Lat) < g.box[0] || math.Min(pa.Lat, pb.Lat) > g.box[2] ||
		math.Max(pa.Lon, pb.Lon) < g.box[1] || math.Min(pa.Lon, pb.Lon) > g.box[3] {
		return time.Time{}, false
	}
	n := int(math.Ceil(approxKM(pa, pb) / sampleKM))
	for k := 0; k <= n; k++ {
		f := 0.0
		if n > 0 {
			f = float64(k) / float64(n)
		}
		p := Point{pa.Lat + f*(pb.Lat-pa.Lat), pa.Lon + f*(pb.Lon-pa.Lon)}
		for _, ring := range g.Polys {
			if inRing(p, ring) {
				return at(f), true
			}
		}
	}
	return time.Time{}, false
}

// intersect is where segment p–q crosses segment r–s, as the fraction
// along p–q (planar in degrees: the gates are short).
func intersect(p, q, r, s Point) (float64, bool) {
	dx1, dy1 := q.Lon-p.Lon, q.Lat-p.Lat
	dx2, dy2 := s.Lon-r.Lon, s.Lat-r.Lat
	den := dx1*dy2 - dy1*dx2
	if den == 0 {
		return 0, false
	}
	t := ((r.Lon-p.Lon)*dy2 - (r.Lat-p.Lat)*dx2) / den
	u := ((r.Lon-p.Lon)*dy1 - (r.Lat-p.Lat)*dx1) / den
	if t < 0 || t > 1 || u < 0 || u > 1 {
		return 0, false
	}
	return t, true
}

// inRing is the even-odd test of a point against a ring.
func inRing(p Point, ring []Point) bool {
	in := false
	for i, j := 0, len(ring)-1; i < len(ring); j, i = i, i+1 {
		a, b := ring[i], ring[j]
		if (a.Lat > p.Lat) != (b.Lat > p.Lat) && p.Lon < (b.Lon-a.Lon)*(p.Lat-a.Lat)/(b.Lat-a.Lat)+a.Lon {
			in = !in
		}
	}
	return in
}

// approxKM is the equirectangular distance between two points.
func approxKM(a, b Point) float64 {
	const kmPerDeg = 111.195
	x := (b.Lon - a.Lon) * math.Cos((a.Lat+b.Lat)/2*math.Pi/180)
	return math.Hypot(x, b.Lat-a.Lat) * kmPerDeg
}

// Count is the transits of a chokepoint on a UTC day by vessels of a type.
type Count struct {
	Chokepoint string
	Day        time.Time
	VesselType string
	Transits   int
}

// Daily counts transits by chokepoint, UTC day and vessel type, in that
// order.
func Daily(ts []Transit) []Count {
	type key struct {
		cp, typ string
		day     time.Time
	}
	n := map[key]int{}
	for _, t := range ts {
		n[key{t.Chokepoint, t.VesselType, t.At.UTC().Truncate(24 * time.Hour)}]++
	}
	out := make([]Count, 0, len(n))
	for k, v := range n {
		out = append(out, Count{Chokepoint: k.cp, Day: k.day, VesselType: k.typ, Transits: v})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Chokepoint != b.Chokepoint {
			return a.Chokepoint < b.Chokepoint
		}
		if !a.Day.Equal(b.Day) {
			return a.Day.Before(b.Day)
		}
		return a.VesselType < b.VesselType
	})
	return out
}
