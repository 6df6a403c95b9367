package geo

import "testing"

func TestBBoxContains(t *testing.T) {
	plain := BBox{West: 3, South: 50, East: 5, North: 52}
	across := BBox{West: 170, South: -10, East: -170, North: 10}
	for _, c := range []struct {
		b        BBox
		lat, lon float64
		want     bool
	}{
		{plain, 51, 4, true}, {plain, 50, 3, true}, {plain, 53, 4, false}, {plain, 51, 6, false},
		{across, 0, 175, true}, {across, 0, -175, true}, {across, 0, 180, true}, {across, 0, 0, false},
		{across, 11, 175, false},
	} {
		if got := c.b.Contains(c.lat, c.lon); got != c.want {
			t.Errorf("%+v contains (%v, %v): %v, want %v", c.b, c.lat, c.lon, got, c.want)
		}
	}
}

func TestPolygonContains(t *testing.T) {
	square := Ring{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}}
	hole := Ring{{4, 4}, {6, 4}, {6, 6}, {4, 6}, {4, 4}}
	p := Polygon{square, hole}
	for _, c := range []struct {
		lat, lon float64
		want     bool
	}{{1, 1, true}, {5, 5, false}, {9, 3, true}, {11, 5, false}, {5, -1, false}} {
		if got := p.Contains(c.lat, c.lon); got != c.want {
			t.Errorf("contains (%v, %v): %v, want %v", c.lat, c.lon, got, c.want)
		}
	}
	if b := p.Bounds(); b != (BBox{0, 0, 10, 10}) {
		t.Errorf("bounds %+v", b)
	}
	if p.Positions() != 10 {
		t.Errorf("positions %d", p.Positions())
	}
}
