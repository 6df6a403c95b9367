package geo

import (
	"math"
	"math/rand"
	"testing"
)

// The grid cells of an area: every point of an inner cell lies in the
// area, every point of the area in an outer cell, for random boxes (whole
// and fractional edges, across the antimeridian) and polygons (with a
// hole); points are drawn inside cells, on their edges and corners.
func TestGridCells(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	in := func(cells []CellRange, lat, lon float64) bool {
		r, c := CellOf(lat, lon)
		for _, x := range cells {
			if r >= x.Row0 && r <= x.Row1 && c >= x.Col0 && c <= x.Col1 {
				return true
			}
		}
		return false
	}
	check := func(name string, contains func(lat, lon float64) bool, outer, inner []CellRange, b BBox) {
		t.Helper()
		innerPoints := 0
		for i := 0; i < 20000; i++ {
			lat := b.South - 1 + (b.North-b.South+2)*rng.Float64()
			lon := b.West - 1 + (b.East-b.West+2)*rng.Float64()
			if b.CrossesAntimeridian() {
				lon = b.West - 1 + (b.East+360-b.West+2)*rng.Float64()
			}
			switch rng.Intn(4) { // on a cell's edge or corner
			case 1:
				lat = math.Round(lat)
			case 2:
				lon = math.Round(lon)
			case 3:
				lat, lon = math.Round(lat), math.Round(lon)
			}
			if lon > 180 {
				lon -= 360
			}
			lat = math.Max(-90, math.Min(90, lat))
			has := contains(lat, lon)
			if in(inner, lat, lon) {
				innerPoints++
				if !has {
					t.Fatalf("%s: (%v, %v) lies in an inner cell, not in the area", name, lat, lon)
				}
			}
			if has && !in(outer, lat, lon) {
				t.Fatalf("%s: (%v, %v) lies in the area, in no outer cell", name, lat, lon)
			}
		}
		border := Border(outer, inner)
		for i := 0; i < 2000; i++ { // a cell is a border cell when it is outer and not inner
			r, c := rng.Intn(GridRows), rng.Intn(GridCols)
			if in(border, float64(r-90)+0.5, float64(c-180)+0.5) != (in(outer, float64(r-90)+0.5, float64(c-180)+0.5) && !in(inner, float64(r-90)+0.5, float64(c-180)+0.5)) {
				t.Fatalf("%s: cell %d,%d: border %v, outer %v, inner %v", name, r, c, border, outer, inner)
			}
		}
		if len(inner) > 0 && innerPoints == 0 {
			t.Fatalf("%s: no point drawn in an inner cell", name)
		}
	}
	boxes := []BBox{{0, 50, 2, 52}, {-180, -90, 180, 90}, {179.5, -11, -179.2, -8.5}, {170, 10, -170, 20}, {0.2, 50.2, 0.9, 50.8}}
	for i := 0; i < 50; i++ {
		w, s := -180+360*rng.Float64(), -80+150*rng.Float64()
		e := w + 10*rng.Float64()
		if e > 180 {
			e -= 360
		}
		boxes = append(boxes, BBox{w, s, e, math.Min(90, s+8*rng.Float64())})
	}
	for _, b := range boxes {
		outer, inner := b.GridCells()
		check("box", b.Contains, outer, inner, b)
	}
	if _, inner := (BBox{0, 50, 2, 52}).GridCells(); len(inner) != 1 || inner[0] != (CellRange{140, 141, 180, 181}) {
		t.Fatalf("box 0,50,2,52: inner %v", inner)
	}
	polys := []Polygon{
		{{{-1.03, 49.02}, {3.5, 49.5}, {1.01, 53.2}, {-1.03, 49.02}}},
		{{{-6.5, 40.5}, {8.5, 40.5}, {8.5, 55.5}, {-6.5, 55.5}, {-6.5, 40.5}}, {{0.02, 45.03}, {2.01, 45.03}, {2.01, 47.04}, {0.02, 47.04}, {0.02, 45.03}}},
	}
	for i := 0; i < 30; i++ {
		cx, cy := -170+340*rng.Float64(), -70+140*rng.Float64()
		var ring Ring
		n := 3 + rng.Intn(8)
		for k := 0; k < n; k++ {
			a := 2 * math.Pi * float64(k) / float64(n)
			rad := 1 + 6*rng.Float64()
			ring = append(ring, [2]float64{cx + rad*math.Cos(a), cy + rad*math.Sin(a)})
		}
		polys = append(polys, Polygon{append(ring, ring[0])})
	}
	for _, p := range polys {
		outer, inner := p.GridCells()
		check("polygon", p.Contains, outer, inner, p.Bounds())
	}
	if _, inner := polys[1].GridCells(); len(inner) == 0 {
		t.Fatal("a 15° polygon has no inner cell")
	}
}
