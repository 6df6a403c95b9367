package vessel

import (
	"math"
	"testing"
)

func TestEstimateDWT(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		typ     uint8
		l, b, d float64
		lo, hi  float64
	}{
		{"capesize", 70, 292, 45, 18.2, 160000, 185000},
		{"panamax", 70, 225, 32.2, 14.1, 68000, 80000},
		{"handysize", 70, 180, 30, 10, 35000, 45000},
		{"vlcc", 80, 330, 60, 22.5, 280000, 330000},
		{"aframax", 80, 245, 44, 15, 105000, 125000},
	}
	for _, c := range cases {
		got, ok := EstimateDWT(c.typ, c.l, c.b, c.d)
		if !ok || got < c.lo || got > c.hi {
			t.Errorf("%s: %v, want %v..%v", c.name, got, c.lo, c.hi)
		}
		if got != math.Round(got/100)*100 {
			t.Errorf("%s: %v not rounded to 100 t", c.name, got)
		}
	}
	if _, ok := EstimateDWT(70, 0, 30, 10); ok {
		t.Error("estimated without a length")
	}
}

func TestShipCategories(t *testing.T) {
	t.Parallel()
	for code := 1; code < 100; code++ {
		if _, ok := CategoryOf(uint8(code)); !ok {
			t.Errorf("code %d has no category", code)
		}
	}
	if _, ok := CategoryOf(0); ok {
		t.Error("0 (not available) has a category")
	}
	if c, _ := CategoryOf(74); c.Name != "cargo" {
		t.Errorf("74 is %s", c.Name)
	}
	if c, _ := CategoryOf(52); c.Name != "tug" {
		t.Errorf("52 is %s", c.Name)
	}
	seen := map[string]bool{}
	for _, n := range CategoryNames() {
		if seen[n] {
			t.Errorf("duplicate %s", n)
		}
		seen[n] = true
		if _, ok := CategoryNamed(n); !ok {
			t.Errorf("%s not found by name", n)
		}
	}
}
