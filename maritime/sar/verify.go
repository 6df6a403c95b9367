package sar

import (
	"math"
	"time"
)

// GapRadiusKm is how far from an AIS gap's end points a footprint may lie
// and still count for its verification (the coverage endpoint's default
// radius).
const GapRadiusKm = 50

// Point is a position in degrees.
type Point struct{ Lat, Lng float64 }

// Gap is an AIS gap (a dark event) as its verification sees it: where the
// vessel was last seen and, once it reappeared, where it was seen again
// (Points), and the time the gap spans (From..To; To is now while it goes
// on).
type Gap struct {
	Points   []Point
	From, To time.Time
}

// Verification is how well the stored catalogue could verify a gap: the
// pass nearest in time to the gap's window (Hours from its nearer end, 0
// within it; -1 and Closest nil when no pass is known) and the potential
// it gives (PotentialOf).
type Verification struct {
	Potential Potential
	Hours     float64
	Closest   *Pass
}

// VerifyGaps is the verification of each gap from the known products (any
// time: each is a known pass of its relative orbit), nil where no known
// product's footprint comes within radiusKm of any of the gap's points
// (nothing is known of the area). The closest pass is the nearest in time
// to the gap's window of the products near either point and of the
// passes their relative orbits predict (Predict), an acquisition winning
// a tie over a prediction.
func VerifyGaps(known []Product, gaps []Gap, radiusKm float64) []*Verification {
	idx := newFootprintIndex(known, radiusKm)
	out := make([]*Verification, len(gaps))
	seen := make([]int, len(known)) // the gap (index + 1) a product was last taken for
	acc := passFinder{orbits: map[orbitKey]int{}}
	for i, g := range gaps {
		acc.reset(g.From, g.To)
		for _, pt := range g.Points {
			for _, j := range idx.candidates(pt) {
				if seen[j] != i+1 && idx.boxes[j].within(pt, radiusKm) && Near(known[j], pt.Lat, pt.Lng, radiusKm) {
					seen[j] = i + 1
					acc.add(known, j)
				}
			}
		}
		if acc.found {
			v := acc.verification(known)
			out[i] = &v
		}
	}
	return out
}

// footprintIndex finds the products that may lie near a point: each
// product is listed in the whole-degree cells its bounding box, grown by
// the radius, covers; a product whose grown box is wide (past indexSpan
// degrees, across the antimeridian or near a pole) is a candidate
// everywhere.
type footprintIndex struct {
	boxes    []box
	cells    map[[2]int][]int
	anywhere []int
}

// indexSpan is the widest grown box (degrees) listed cell by cell.
const indexSpan = 30

func newFootprintIndex(known []Product, radiusKm float64) footprintIndex {
	idx := footprintIndex{boxes: make([]box, len(known)), cells: map[[2]int][]int{}}
	dLat := radiusKm/(math.Pi/180*earthKm) + 1e-9
	for i, p := range known {
		if !p.Footprint.Valid() {
			continue
		}
		b := &idx.boxes[i]
		b.minLat, b.maxLat, b.minLon, b.maxLon = p.Footprint.Bounds()
		b.ok = true
		c := math.Cos(math.Min(89, math.Max(math.Abs(b.minLat), math.Abs(b.maxLat))+dLat) * math.Pi / 180)
		if c < 0.05 {
			idx.anywhere = append(idx.anywhere, i)
			continue
		}
		dLon := dLat / c
		lat0, lat1 := int(math.Floor(b.minLat-dLat)), int(math.Floor(b.maxLat+dLat))
		lon0, lon1 := int(math.Floor(b.minLon-dLon)), int(math.Floor(b.maxLon+dLon))
		if lat1-lat0 > indexSpan || lon1-lon0 > indexSpan || lon0 < -180 || lon1 >= 180 {
			idx.anywhere = append(idx.anywhere, i)
			continue
		}
		for la := lat0; la <= lat1; la++ {
			for lo := lon0; lo <= lon1; lo++ {
				idx.cells[[2]int{la, lo}] = append(idx.cells[[2]int{la, lo}], i)
			}
		}
	}
	return idx
}

// candidates are the products that may lie near the point (each once).
func (idx footprintIndex) candidates(pt Point) []int {
	cell := idx.cells[[2]int{int(math.Floor(pt.Lat)), int(math.Floor(normLng(pt.Lng)))}]
	if len(idx.anywhere) == 0 {
		return cell
	}
	return append(append(make([]int, 0, len(cell)+len(idx.anywhere)), cell...), idx.anywhere...)
}

// orbitKey is a platform's relative orbit.
type orbitKey struct {
	platform string
	rel      int
}

// passFinder finds the pass closest to a gap's window from..to among the
// products near the gap (add) and the passes their relative orbits
// predict, as Predict does: from each orbit's known pass nearest the
// window's middle. The distance of a pass to the window is its distance to
// the window's middle less the half window, so the pass of an orbit
// nearest the middle is the orbit's nearest to the window.
type passFinder struct {
	mid    time.Time
	half   time.Duration
	found  bool
	best   *Pass
	orbits map[orbitKey]int // the orbit's known product nearest mid
}

func (f *passFinder) reset(from, to time.Time) {
	if to.Before(from) {
		to = from
	}
	f.half = to.Sub(from) / 2
	f.mid = from.Add(f.half)
	f.found, f.best = false, nil
	clear(f.orbits)
}

func (f *passFinder) dist(t time.Time) time.Duration { return max(absDur(t.Sub(f.mid))-f.half, 0) }

// consider keeps p when it is closer than the best so far, an
// acquisition winning a tie over a prediction.
func (f *passFinder) consider(p Pass) {
	if p.Time.IsZero() {
		return
	}
	if f.best == nil || f.dist(p.Time) < f.dist(f.best.Time) || (f.dist(p.Time) == f.dist(f.best.Time) && !p.Predicted && f.best.Predicted) {
		q := p
		f.best = &q
	}
}

// add takes the product known[j], near the gap.
func (f *passFinder) add(known []Product, j int) {
	p := &known[j]
	f.found = true
	f.consider(Pass{Time: p.Start, Platform: p.Platform, RelativeOrbit: p.RelativeOrbit, Direction: p.Direction, From: p.Name})
	if p.RelativeOrbit <= 0 || p.Start.IsZero() {
		return
	}
	k := orbitKey{p.Platform, p.RelativeOrbit}
	if i, ok := f.orbits[k]; !ok || absDur(p.Start.Sub(f.mid)) < absDur(known[i].Start.Sub(f.mid)) ||
		(absDur(p.Start.Sub(f.mid)) == absDur(known[i].Start.Sub(f.mid)) && p.Name < known[i].Name) {
		f.orbits[k] = j
	}
}

// verification is the closest pass of the products added and of their
// orbits' predicted passes.
func (f *passFinder) verification(known []Product) Verification {
	for k, i := range f.orbits {
		p := &known[i]
		n := math.Round(float64(f.mid.Sub(p.Start)) / float64(Cycle))
		if math.Abs(n) > 1e5 {
			continue
		}
		at := p.Start.Add(time.Duration(n) * Cycle)
		if Operating(k.platform, at) {
			f.consider(Pass{Time: at, Platform: k.platform, RelativeOrbit: k.rel, Direction: p.Direction, Predicted: n != 0, From: p.Name})
		}
	}
	v := Verification{Potential: None, Hours: -1}
	if f.best != nil {
		v.Closest = f.best
		v.Hours = math.Round(f.dist(f.best.Time).Hours()*100) / 100
		v.Potential = PotentialOf(v.Hours)
	}
	return v
}

// box is a footprint's bounding box (ok false: no valid footprint), a
// cheap test before the distance to the footprint itself.
type box struct {
	minLat, maxLat, minLon, maxLon float64
	ok                             bool
}

// within reports whether the point may lie within radiusKm of the box
// (a conservative test: false only when it cannot).
func (b box) within(pt Point, radiusKm float64) bool {
	if !b.ok {
		return false
	}
	dLat := radiusKm/(math.Pi/180*earthKm) + 1e-9
	if pt.Lat < b.minLat-dLat || pt.Lat > b.maxLat+dLat {
		return false
	}
	c := math.Cos(math.Min(89, math.Abs(pt.Lat)+dLat) * math.Pi / 180)
	if c < 0.05 || b.maxLon-b.minLon > 180 { // near a pole, or across the antimeridian
		return true
	}
	dLon := dLat / c
	for _, shift := range []float64{-360, 0, 360} {
		if lng := normLng(pt.Lng) + shift; lng >= b.minLon-dLon && lng <= b.maxLon+dLon {
			return true
		}
	}
	return false
}

// normLng is a longitude brought within -180..180.
func normLng(lng float64) float64 {
	lng = math.Mod(lng, 360)
	if lng >= 180 {
		lng -= 360
	} else if lng < -180 {
		lng += 360
	}
	return lng
}
