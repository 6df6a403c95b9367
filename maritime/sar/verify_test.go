package sar

import (
	"math"
	"math/rand"
	"testing"
	"time"
)

// fairbanks is the real ASF Fairbanks granule (S1B, relative orbit 94).
var fairbanks = Product{Name: "S1B_IW_SLC__1SDV_20210102T032031_20210102T032058_024970_02F8C3_C081", Platform: "S1B", RelativeOrbit: 94,
	Start: time.Date(2021, 1, 2, 3, 20, 31, 0, time.UTC), Direction: "ASCENDING", Footprint: fairbanksFootprint}

// Points inside the footprint (Fairbanks) and 300 km from it (Anchorage).
var (
	inFootprint = Point{Lat: 64.8378, Lng: -147.7164}
	anchorage   = Point{Lat: 61.2181, Lng: -149.9003}
)

// sentinel1A is an S1A product over Fairbanks (the footprint reused), at t.
func sentinel1A(name string, rel int, t time.Time) Product {
	return Product{Name: name, Platform: "S1A", RelativeOrbit: rel, Start: t, Direction: "DESCENDING", Footprint: fairbanksFootprint}
}

func TestVerifyGaps(t *testing.T) {
	s := fairbanks.Start
	h := time.Hour
	for _, c := range []struct {
		name      string
		known     []Product
		gap       Gap
		nothing   bool
		hours     float64
		potential Potential
		predicted bool
	}{
		// The acquisition falls within the gap: 0 h, high, not predicted.
		{"within", []Product{fairbanks}, Gap{Points: []Point{inFootprint}, From: s.Add(-5 * h), To: s.Add(10 * h)}, false, 0, High, false},
		// The acquisition 20 h after the gap ended: medium.
		{"after", []Product{fairbanks}, Gap{Points: []Point{inFootprint}, From: s.Add(-30 * h), To: s.Add(-20 * h)}, false, 20, Medium, false},
		// Near the end point only (the gap started 300 km away): counted.
		{"end point", []Product{fairbanks}, Gap{Points: []Point{anchorage, inFootprint}, From: s.Add(-50 * h), To: s.Add(-48 * h)},
			false, 48, Low, false},
		// Only the start point, 300 km away: nothing known of the area.
		{"far", []Product{fairbanks}, Gap{Points: []Point{anchorage}, From: s, To: s.Add(h)}, true, 0, None, false},
		// Ten cycles on, 3 h before the gap: the orbit's predicted pass.
		{"predicted", []Product{fairbanks}, Gap{Points: []Point{inFootprint}, From: s.Add(10*Cycle + 3*h), To: s.Add(10*Cycle + 9*h)},
			false, 3, High, true},
		// S1B failed in December 2021: no pass predicted in 2023, the
		// stored acquisition is two years off: none, with its hours.
		{"S1B ended", []Product{fairbanks}, Gap{Points: []Point{inFootprint}, From: time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC),
			To: time.Date(2023, 5, 1, 6, 0, 0, 0, time.UTC)}, false, time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC).Sub(s).Hours(), None, false},
		// A gap longer than a cycle holds a predicted pass of every orbit.
		{"long gap", []Product{sentinel1A("A", 7, s)}, Gap{Points: []Point{inFootprint}, From: s.Add(100 * 24 * h), To: s.Add(113 * 24 * h)},
			false, 0, High, true},
		// An acquisition ties a prediction: the acquisition wins.
		{"tie", []Product{sentinel1A("A", 7, s), sentinel1A("B", 7, s.Add(Cycle))},
			Gap{Points: []Point{inFootprint}, From: s.Add(Cycle + 2*h), To: s.Add(Cycle + 3*h)}, false, 2, High, false},
	} {
		got := VerifyGaps(c.known, []Gap{c.gap}, GapRadiusKm)
		if len(got) != 1 {
			t.Fatalf("%s: %d answers", c.name, len(got))
		}
		v := got[0]
		if c.nothing {
			if v != nil {
				t.Errorf("%s: %+v, want nil", c.name, v)
			}
			continue
		}
		if v == nil || v.Closest == nil {
			t.Errorf("%s: %+v", c.name, v)
			continue
		}
		if v.Hours != round2(c.hours) || v.Potential != c.potential || v.Closest.Predicted != c.predicted {
			t.Errorf("%s: %v h %s predicted %v, want %v h %s %v", c.name, v.Hours, v.Potential, v.Closest.Predicted, round2(c.hours),
				c.potential, c.predicted)
		}
	}
	// No product at all, and a product without a footprint: nil.
	if v := VerifyGaps(nil, []Gap{{Points: []Point{inFootprint}, From: s, To: s}}, GapRadiusKm); v[0] != nil {
		t.Fatalf("%+v", v[0])
	}
	if v := VerifyGaps([]Product{{Name: "x", Start: s}}, []Gap{{Points: []Point{inFootprint}, From: s, To: s}}, GapRadiusKm); v[0] != nil {
		t.Fatalf("%+v", v[0])
	}
}

func round2(h float64) float64 { return float64(int64(h*100+0.5)) / 100 }

// A gap of no length at a point answers as the coverage endpoint does at
// that point and time (same closest pass), for random times and places
// around the real footprint; the bounding-box pre-test never drops a
// product the distance keeps.
func TestVerifyGapsMatchesCoverage(t *testing.T) {
	r := rand.New(rand.NewSource(20))
	known := []Product{fairbanks, sentinel1A("A1", 7, fairbanks.Start.Add(40*time.Hour)),
		sentinel1A("A2", 131, fairbanks.Start.Add(-200*time.Hour)),
		{Name: "M", Platform: "S1A", RelativeOrbit: 20, Start: fairbanks.Start, Footprint: Polygon{{179, -1}, {-179, -1}, {-179, 1}, {179, 1}}}}
	for i := range 500 {
		pt := Point{Lat: 61 + r.Float64()*7, Lng: -153 + r.Float64()*12}
		if i%5 == 0 {
			pt = Point{Lat: -1.8 + r.Float64()*3.6, Lng: 177.5 + r.Float64()*5}
			if pt.Lng > 180 {
				pt.Lng -= 360
			}
		}
		at := fairbanks.Start.Add(time.Duration(r.Int63n(int64(400*24*time.Hour))) - 200*24*time.Hour)
		cov := CoverageAt(known, pt.Lat, pt.Lng, GapRadiusKm, at)
		v := VerifyGaps(known, []Gap{{Points: []Point{pt}, From: at, To: at}}, GapRadiusKm)[0]
		var near bool
		for _, p := range known {
			near = near || Near(p, pt.Lat, pt.Lng, GapRadiusKm)
		}
		if !near {
			if v != nil {
				t.Fatalf("%+v at %v: %+v, want nil", pt, at, v)
			}
			continue
		}
		if v == nil || v.Hours != cov.Hours || v.Potential != cov.Potential {
			t.Fatalf("%+v at %v: %+v, coverage %+v", pt, at, v, cov)
		}
	}
}

// FuzzVerifyGaps: any point, footprint and window gives an answer, never
// a panic, and a gap within the footprint is always answered.
func FuzzVerifyGaps(f *testing.F) {
	f.Add(64.8378, -147.7164, -150.0, 63.9, 3.0, 2.0, int64(0), int64(3600))
	f.Add(0.0, 180.0, 179.0, -1.0, 2.0, 2.0, int64(-86400*400), int64(86400*400))
	f.Add(89.9, 10.0, -180.0, 85.0, 360.0, 5.0, int64(1), int64(-5))
	f.Fuzz(func(t *testing.T, lat, lng, lon0, lat0, w, h float64, from, to int64) {
		p := fairbanks
		p.Footprint = Polygon{{lon0, lat0}, {lon0 + w, lat0}, {lon0 + w, lat0 + h}, {lon0, lat0 + h}}
		s := fairbanks.Start
		gap := Gap{Points: []Point{{Lat: lat, Lng: lng}}, From: s.Add(time.Duration(from) * time.Second), To: s.Add(time.Duration(to) * time.Second)}
		v := VerifyGaps([]Product{p, fairbanks}, []Gap{gap}, GapRadiusKm)
		if len(v) != 1 {
			t.Fatal(len(v))
		}
		if v[0] != nil && v[0].Closest != nil && (v[0].Hours < 0 || PotentialOf(v[0].Hours) != v[0].Potential) {
			t.Fatalf("%+v", v[0])
		}
		// The planar distance misjudges footprints far wider than real
		// ones (a few degrees) and points on the far side of the globe:
		// the check holds for the others.
		real := w > 0 && w <= 10 && h > 0 && h <= 10 && math.Abs(math.Remainder(lng-lon0, 360)) < 30
		fair := math.Abs(math.Remainder(lng+147, 360)) < 30
		if (real && Near(p, lat, lng, GapRadiusKm) || fair && Near(fairbanks, lat, lng, GapRadiusKm)) && v[0] == nil {
			t.Fatalf("a product near (%v, %v) was missed", lat, lng)
		}
	})
}
