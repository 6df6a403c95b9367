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
	// cells are the 1° cells within one cell of a point of the lane, one
	// bit each (cellBit): a position outside them is farther than about 50
	// nm from the lane, and is not projected on it (a vessel is tested
	// against every lane, so this is asked millions of times a refresh)
	cells []uint64
	// bands are, for each 1° band of latitude (bandOf), the segments (by
	// the index of their second point, ascending) with a point within
	// 1.5° of latitude of some point of the band: the only ones project
	// can use for a position in it
	bands [][]int32
}

// bandOf is the 1° band of latitude of lat, 0 to 180.
func bandOf(lat float64) int {
	return min(max(int(math.Floor(lat))+90, 0), 180)
}

// laneBands lists each band's segments (see lane.bands).
func laneBands(pts [][2]float64) [][]int32 {
	bands := make([][]int32, 181)
	const eps = 1e-9
	for i := 1; i < len(pts); i++ {
		lo, hi := min(pts[i-1][0], pts[i][0]), max(pts[i-1][0], pts[i][0])
		// a position of band b lies in [b-90, b-89); an endpoint within
		// 1.5° of it lies in [b-91.5, b-87.5]
		for b := bandOf(lo - 2.5 - eps); b <= bandOf(hi+1.5+eps); b++ {
			south := float64(b - 90)
			if hi >= south-1.5-eps && lo <= south+2.5+eps {
				bands[b] = append(bands[b], int32(i))
			}
		}
	}
	return bands
}

// cellRows are the rows of 1° cells a lane's bit set covers: latitudes
// -90 to 90 and the row on each side of them.
const cellRows = 183

// cellBit is the bit of cell (r, c) in a lane's cells, or -1 outside them.
func cellBit(r, c int32) int {
	if r < -1 || r > cellRows-2 || c < 0 || c >= 360 {
		return -1
	}
	return int(r+1)*360 + int(c)
}

// cellOf is the 1° cell of a point.
func cellOf(lat, lon float64) (r, c int32) {
	r = int32(math.Floor(lat)) + 90
	c = (int32(math.Floor(lon))%360 + 540) % 360
	return r, c
}

// near reports whether the point lies in the lane's cells.
func (l *lane) near(lat, lon float64) bool {
	b := cellBit(cellOf(lat, lon))
	return b >= 0 && l.cells[b/64]&(1<<(b%64)) != 0
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
		l.bands = laneBands(r.Points)
		l.cells = make([]uint64, (cellRows*360+63)/64)
		for _, pt := range r.Points {
			r0, c0 := cellOf(pt[0], pt[1])
			for dr := int32(-1); dr <= 1; dr++ {
				for dc := int32(-1); dc <= 1; dc++ {
					if b := cellBit(r0+dr, (c0+dc+360)%360); b >= 0 {
						l.cells[b/64] |= 1 << (b % 64)
					}
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
//
// A refresh projects every vessel on every lane near it, so the loop skips
// what cannot change its answer: a segment whose box (in the same local
// coordinates) is farther than the nearest segment so far holds no nearer
// point; the answer is the one of the plain loop (TestProjectAsThePlainLoop).
func (l *lane) project(lat, lon float64) (along, cross float64) {
	cross = math.Inf(1)
	bound := math.Inf(1) // (cross/60)² with a margin: a segment's box beyond it is skipped
	k := math.Cos(lat * math.Pi / 180)
	for _, i := range l.bands[bandOf(lat)] {
		a, b := l.pts[i-1], l.pts[i]
		// segments (at most 25 km long) more than 1.5° of latitude away
		// cannot be the nearest of a lane within the cells
		if math.Abs(a[0]-lat) > 1.5 && math.Abs(b[0]-lat) > 1.5 {
			continue
		}
		ax, ay := dlon(a[1], lon)*k, a[0]-lat
		bx, by := dlon(b[1], lon)*k, b[0]-lat
		if gx, gy := gap(ax, bx), gap(ay, by); gx*gx+gy*gy > bound {
			continue
		}
		dx, dy := bx-ax, by-ay
		t := 0.0
		if n := dx*dx + dy*dy; n > 0 {
			t = -(ax*dx + ay*dy) / n
			if t < 0 {
				t = 0
			} else if t > 1 {
				t = 1
			}
		}
		px, py := ax+t*dx, ay+t*dy
		d := math.Hypot(px, py) * 60 // degrees to nautical miles
		if d < cross {
			cross = d
			along = l.cum[i-1] + t*(l.cum[i]-l.cum[i-1])
			c := cross / 60
			bound = c * c * (1 + 1e-9) // rounding of Hypot against the box's squares
		}
	}
	if len(l.pts) == 1 {
		p := l.pts[0]
		cross = geo.DistanceKM(lat, lon, p[0], p[1]) / kmPerNM
	}
	return along, cross
}

// gap is the distance from 0 to the interval between u and v (0 when it
// holds 0).
func gap(u, v float64) float64 {
	switch {
	case u > 0 && v > 0:
		return min(u, v)
	case u < 0 && v < 0:
		return -max(u, v)
	}
	return 0
}

// dlon is lon2-lon1 in degrees, wrapped into [-180, 180): math.Mod(lon2 -
// lon1 + 540, 360) - 180, with the modulo taken by subtraction for the
// longitudes of the globe (exact there, as math.Mod is).
func dlon(lon2, lon1 float64) float64 {
	y := lon2 - lon1 + 540
	switch {
	case y >= 0 && y < 360:
	case y >= 360 && y < 720:
		y -= 360
	case y >= 720 && y < 1080:
		y -= 720
	default:
		y = math.Mod(y, 360)
	}
	return y - 180
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
