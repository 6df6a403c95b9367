package geo

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

func TestLandKnownPoints(t *testing.T) {
	t.Parallel()
	land := []struct {
		name     string
		lat, lon float64
	}{
		{"Paris", 48.8566, 2.3522},
		{"Denver", 39.7392, -104.9903},
		{"Beijing", 39.9042, 116.4074},
		{"central Australia (Alice Springs)", -23.70, 133.88},
		{"central Australia (Uluru)", -25.34, 131.04},
		{"Greenland interior", 72.0, -40.0},
		{"Antarctic plateau", -85.0, 0.0},
		{"near the South Pole", -89.9, 10.0},
		{"Wrangel Island, west of 180", 71.3, 179.5},
		{"Wrangel Island, east of 180", 71.3, -179.5},
		{"Chukotka, west of 180", 66.5, 179.99},
		{"Chukotka, east of 180", 66.5, -179.99},
		{"Vanua Levu, Fiji", -16.6, 179.5},
		{"lon 360+2.35 is Paris", 48.8566, 362.3522},
	}
	for _, p := range land {
		if !OnLand(p.lat, p.lon) {
			t.Errorf("%s (%v, %v): OnLand false, want true", p.name, p.lat, p.lon)
		}
	}
	sea := []struct {
		name     string
		lat, lon float64
	}{
		{"mid-Atlantic", 25.0, -45.0},
		{"mid-Pacific", 10.0, -150.0},
		{"North Pacific", 30.0, -140.0},
		{"Strait of Gibraltar, west", 35.95, -5.80},
		{"Strait of Gibraltar, narrows", 35.96, -5.60},
		{"Strait of Gibraltar, east", 36.00, -5.35},
		{"Bosphorus, north entrance", 41.225, 29.125},
		{"Bosphorus, Büyükdere", 41.16, 29.065},
		{"Bosphorus, Rumeli Hisarı", 41.085, 29.060},
		{"Bosphorus, south entrance", 41.02, 29.00},
		{"Dardanelles, narrows", 40.16, 26.40},
		{"Singapore Strait", 1.22, 103.85},
		{"Gulf of Suez", 28.90, 33.00},
		{"Null Island (left out of the data)", 0, 0},
		{"Caspian Sea (a hole in Eurasia)", 42.0, 50.5},
		{"Bering Strait", 66.0, -168.6},
		{"Bering Sea on the antimeridian", 60.0, 180},
	}
	for _, p := range sea {
		if OnLand(p.lat, p.lon) {
			t.Errorf("%s (%v, %v): OnLand true, want false", p.name, p.lat, p.lon)
		}
	}
	if OnLand(math.NaN(), 0) || !math.IsNaN(DistanceToShoreKM(0, math.NaN())) {
		t.Errorf("NaN: want OnLand false and a NaN distance")
	}
}

// coastLon bisects the parallel between a sea longitude and a land longitude
// for the coast.
func coastLon(t *testing.T, lat, sea, land float64) float64 {
	t.Helper()
	if OnLand(lat, sea) || !OnLand(lat, land) {
		t.Fatalf("coastLon(%v, %v, %v): bad bracket", lat, sea, land)
	}
	for range 50 {
		mid := (sea + land) / 2
		if OnLand(lat, mid) {
			land = mid
		} else {
			sea = mid
		}
	}
	return sea
}

func TestLandDistanceToShore(t *testing.T) {
	t.Parallel()
	// ~10 km off straight, north-south coasts: the Landes coast of France
	// and the coast of Mauritania by Nouakchott, found by bisection.
	for _, c := range []struct {
		name           string
		lat, sea, land float64
	}{
		{"Landes coast, France", 44.3, -2.0, -1.0},
		{"Mauritania, north of Nouakchott", 18.6, -17.0, -15.5},
	} {
		x := coastLon(t, c.lat, c.sea, c.land)
		lon := x - 10/(111.32*math.Cos(c.lat*degToRad))
		if d := DistanceToShoreKM(c.lat, lon); math.Abs(d-10) > 3 {
			t.Errorf("%s: 10 km off the coast (%.3f, %.3f): distance %.2f km, want 10 ± 3", c.name, c.lat, lon, d)
		}
		if d := DistanceToShoreKM(c.lat, x); d > 0.5 {
			t.Errorf("%s: on the coast (%.3f, %.4f): distance %.3f km, want ~0", c.name, c.lat, x, d)
		}
	}
	for _, c := range []struct {
		name     string
		lat, lon float64
		lo, hi   float64
	}{
		// Point Nemo, the oceanic pole of inaccessibility: 2,688 km from
		// Ducie Island, Motu Nui (Easter Island) and Maher Island.
		{"Point Nemo", -48.8767, -123.3933, 2600, 2800},
		{"mid-Atlantic", 25.0, -45.0, 1000, math.Inf(1)},
		{"North Pacific", 30.0, -140.0, 1000, math.Inf(1)},
		// 0°N 0°E: the nearest shore is Ghana's, by Cape Three Points
		// (4.74°N 2.09°W), about 575 km away.
		{"0°N 0°E", 0, 0, 550, 600},
		// Paris is about 150 km from the Channel coast (Seine estuary).
		{"Paris (on land: distance to the coast)", 48.8566, 2.3522, 130, 170},
	} {
		if d := DistanceToShoreKM(c.lat, c.lon); d < c.lo || d > c.hi {
			t.Errorf("%s (%v, %v): distance %.1f km, want %v..%v", c.name, c.lat, c.lon, d, c.lo, c.hi)
		}
	}
}

// bruteShoreKM is DistanceToShoreKM by brute force over every coast edge.
func bruteShoreKM(m *landIndex, lat, lon float64) float64 {
	q := shoreQuery{m: m, best: math.Inf(1), limit: math.Pi}
	q.px, q.py, q.pz = unitVec(lat, lon)
	for k := 0; k+1 < len(m.cellStart); k++ {
		if m.coastCell[k/64]&(1<<(k%64)) != 0 {
			q.cellEdges(k)
		}
	}
	return chordKM(q.best)
}

// bruteOnLand is the even-odd rule over every edge with a ray to the east.
func bruteOnLand(m *landIndex, lat, lon float64) bool {
	in := false
	m.edgesAll(func(i int) {
		x1, y1 := float64(m.lon[i]), float64(m.lat[i])
		x2, y2 := float64(m.lon[i+1]), float64(m.lat[i+1])
		if (y1 > lat) != (y2 > lat) && x1+(lat-y1)*(x2-x1)/(y2-y1) > lon {
			in = !in
		}
	})
	return in
}

// edgesAll calls fn with every edge's first vertex.
func (m *landIndex) edgesAll(fn func(i int)) {
	m.edges(m.ringStart, func(i uint32, _ bool) { fn(int(i)) })
}

func TestLandIndexMatchesBruteForce(t *testing.T) {
	t.Parallel()
	m := landData()
	rng := rand.New(rand.NewPCG(1, 2))
	n := 60
	if testing.Short() {
		n = 10
	}
	for range n {
		lat := math.Asin(2*rng.Float64()-1) / degToRad
		lon := 360*rng.Float64() - 180
		// Half the points near a coast, where the index matters most.
		if rng.IntN(2) == 0 {
			e := m.cellEdge[rng.IntN(len(m.cellEdge))] &^ landArtificial
			lat = float64(m.lat[e]) + 0.1*(rng.Float64()-0.5)
			lon = float64(m.lon[e]) + 0.1*(rng.Float64()-0.5)
			lat, lon = landNorm(lat, lon)
		}
		if got, want := OnLand(lat, lon), bruteOnLand(m, lat, lon); got != want {
			t.Errorf("OnLand(%v, %v) = %v, brute force %v", lat, lon, got, want)
		}
		if got, want := DistanceToShoreKM(lat, lon), bruteShoreKM(m, lat, lon); math.Abs(got-want) > 1e-6 {
			t.Errorf("DistanceToShoreKM(%v, %v) = %.6f, brute force %.6f", lat, lon, got, want)
		}
	}
}

func TestLandCrossesLand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                   string
		lat1, lon1, lat2, lon2 float64
		want                   bool
	}{
		{"through the Strait of Gibraltar", 35.95, -6.2, 36.0, -5.2, false},
		{"across Spain", 43.5, -9.5, 36.5, -2.0, true},
		{"across the isthmus of Panama", 9.6, -79.9, 8.6, -79.5, true},
		{"across the Atlantic, Lisbon to New York approaches", 38.5, -9.8, 40.3, -73.5, false},
		{"across the antimeridian south of the Aleutians", 48.0, 170.0, 48.0, -170.0, false},
		{"across Wrangel Island over the antimeridian", 71.2, 178.0, 71.2, -178.5, true},
		{"start on land", 48.8566, 2.3522, 49.8, -3.0, true},
		{"same sea point", 30, -40, 30, -40, false},
		{"Singapore Strait, east to west", 1.25, 104.2, 1.17, 103.6, false},
		{"across Sumatra", 2.0, 97.0, -2.0, 104.0, true},
	} {
		if got := CrossesLand(c.lat1, c.lon1, c.lat2, c.lon2); got != c.want {
			t.Errorf("%s: CrossesLand = %v, want %v", c.name, got, c.want)
		}
		if got := CrossesLand(c.lat2, c.lon2, c.lat1, c.lon1); got != c.want {
			t.Errorf("%s, reversed: CrossesLand = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestLandPortAnchorages: the anchorage centres of the reference ports lie
// at sea on the mask, except those of river ports, which lie up rivers the
// mask has as land.
func TestLandDataAndMemory(t *testing.T) {
	t.Parallel()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	m, err := decodeLand(landBin)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if m.rings < 4000 || len(m.lon) < 400000 {
		t.Errorf("land.bin: %d rings, %d vertices; want the full 1:10m data", m.rings, len(m.lon))
	}
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("land.bin %d bytes embedded; %d rings, %d vertices, %d cell entries, %d row crossings; decoded and indexed in %v; index %.1f MB, heap growth %.1f MB",
		len(landBin), m.rings, len(m.lon), len(m.cellEdge), len(m.rowX), took.Round(time.Millisecond), float64(m.bytes())/1e6, float64(heap)/1e6)
	if m.bytes() > 32<<20 {
		t.Errorf("index holds %d bytes; keep it modest", m.bytes())
	}
	runtime.KeepAlive(m)
}

func landBenchPoints(coastal bool) [][2]float64 {
	rng := rand.New(rand.NewPCG(7, 11))
	var pts [][2]float64
	for len(pts) < 1024 {
		lat := math.Asin(2*rng.Float64()-1) / degToRad
		lon := 360*rng.Float64() - 180
		if OnLand(lat, lon) {
			continue
		}
		if d := DistanceToShoreKM(lat, lon); coastal != (d < 50) {
			continue
		}
		pts = append(pts, [2]float64{lat, lon})
	}
	return pts
}

func BenchmarkOnLand(b *testing.B) {
	for _, kind := range []string{"ocean", "coastal"} {
		pts := landBenchPoints(kind == "coastal")
		b.Run(kind, func(b *testing.B) {
			i := 0
			for b.Loop() {
				p := pts[i%len(pts)]
				OnLand(p[0], p[1])
				i++
			}
		})
	}
}

func BenchmarkDistanceToShore(b *testing.B) {
	for _, kind := range []string{"ocean", "coastal"} {
		pts := landBenchPoints(kind == "coastal")
		b.Run(kind, func(b *testing.B) {
			i := 0
			for b.Loop() {
				p := pts[i%len(pts)]
				DistanceToShoreKM(p[0], p[1])
				i++
			}
		})
	}
}

func BenchmarkCrossesLand(b *testing.B) {
	// A 25 km leg in the Singapore Strait, the length of a route segment.
	for b.Loop() {
		CrossesLand(1.20, 103.95, 1.26, 104.17)
	}
}
