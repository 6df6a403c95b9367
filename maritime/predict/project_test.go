package predict

import (
	"math"
	"math/rand/v2"
	"testing"

	"overwatch/maritime/seaport"
)

// projectPlain is lane.project as a plain loop over every segment (its
// first form), the reference of TestProjectAsThePlainLoop.
func projectPlain(l *lane, lat, lon float64) (along, cross float64) {
	cross = math.Inf(1)
	k := math.Cos(lat * math.Pi / 180)
	wrap := func(lon2, lon1 float64) float64 { return math.Mod(lon2-lon1+540, 360) - 180 }
	for i := 1; i < len(l.pts); i++ {
		a, b := l.pts[i-1], l.pts[i]
		if math.Min(math.Abs(a[0]-lat), math.Abs(b[0]-lat)) > 1.5 {
			continue
		}
		ax, ay := wrap(a[1], lon)*k, a[0]-lat
		bx, by := wrap(b[1], lon)*k, b[0]-lat
		dx, dy := bx-ax, by-ay
		t := 0.0
		if n := dx*dx + dy*dy; n > 0 {
			t = math.Max(0, math.Min(1, -(ax*dx+ay*dy)/n))
		}
		px, py := ax+t*dx, ay+t*dy
		if d := math.Hypot(px, py) * 60; d < cross {
			cross = d
			along = l.cum[i-1] + t*(l.cum[i]-l.cum[i-1])
		}
	}
	return along, cross
}

// TestProjectAsThePlainLoop: on the lanes between every pair of the first
// twelve ports, points near each lane (and some far from it, across the
// antimeridian too) project to the very same distances as the plain loop,
// and a point is near a lane exactly when its cell or a neighbouring one
// holds a point of the lane.
func TestProjectAsThePlainLoop(t *testing.T) {
	ports := seaport.All()[:12]
	rng := rand.New(rand.NewPCG(1, 2))
	lanes, points := 0, 0
	for _, from := range ports {
		for _, to := range ports {
			l := laneOf(from.Slug, to.Slug)
			if l == nil || len(l.pts) < 2 {
				continue
			}
			lanes++
			cells := map[[2]int32]bool{}
			for _, p := range l.pts {
				r, c := cellOf(p[0], p[1])
				cells[[2]int32{r, c}] = true
			}
			for range 300 {
				p := l.pts[rng.IntN(len(l.pts))]
				spread := 2.0
				if rng.IntN(10) == 0 {
					spread = 40
				}
				lat := math.Max(-89.9, math.Min(89.9, p[0]+(rng.Float64()*2-1)*spread))
				lon := math.Mod(p[1]+(rng.Float64()*2-1)*spread+540, 360) - 180
				points++
				a1, c1 := l.project(lat, lon)
				a0, c0 := projectPlain(l, lat, lon)
				if a1 != a0 || c1 != c0 {
					t.Fatalf("%s→%s at %.6f,%.6f: along %v cross %v, the plain loop %v %v", from.Slug, to.Slug, lat, lon, a1, c1, a0, c0)
				}
				r, c := cellOf(lat, lon)
				want := false
				for dr := int32(-1); dr <= 1; dr++ {
					for dc := int32(-1); dc <= 1; dc++ {
						want = want || cells[[2]int32{r + dr, (c + dc + 360) % 360}]
					}
				}
				if got := l.near(lat, lon); got != want {
					t.Fatalf("%s→%s at %.6f,%.6f: near %v, want %v", from.Slug, to.Slug, lat, lon, got, want)
				}
			}
		}
	}
	if lanes < 50 || points < 15000 {
		t.Fatalf("%d lanes, %d points: too few to test", lanes, points)
	}
	t.Logf("%d lanes, %d points", lanes, points)
}

// TestDlonAsMod: the wrapped longitude difference equals math.Mod's for
// longitudes of the globe and beyond them.
func TestDlonAsMod(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(a, b float64) {
		if got, want := dlon(a, b), math.Mod(a-b+540, 360)-180; got != want {
			t.Fatalf("dlon(%v, %v) = %v, want %v", a, b, got, want)
		}
	}
	for _, v := range []float64{-180, -179.99999, -90, 0, 90, 179.99999, 180} {
		for _, w := range []float64{-180, -0.5, 0, 0.5, 180} {
			check(v, w)
		}
	}
	for range 100000 {
		check(rng.Float64()*360-180, rng.Float64()*360-180)
	}
	check(400, -300) // beyond the globe: math.Mod itself
}
