package sealane

import (
	"slices"
	"testing"
)

func TestBetweenAvoiding(t *testing.T) {
	r, err := Between("rotterdam", "shanghai")
	if err != nil || !slices.Contains(r.Via, "Suez Canal") {
		t.Fatalf("rotterdam-shanghai via %v, %v", r.Via, err)
	}
	a, err := BetweenAvoiding("rotterdam", "shanghai", []string{"Suez Canal", "Panama Canal"})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(a.Via, "Suez Canal") || !slices.Contains(a.Via, "Cape of Good Hope") || a.DistanceNM <= r.DistanceNM {
		t.Errorf("around: via %v, %.0f nm against %.0f", a.Via, a.DistanceNM, r.DistanceNM)
	}
	if _, err := BetweenAvoiding("rotterdam", "nowhere", nil); err == nil {
		t.Error("unknown port: no error")
	}
	if _, err := BetweenAvoiding("dammam", "rotterdam", []string{"Strait of Hormuz"}); err == nil {
		t.Error("out of the Gulf without Hormuz: a route")
	}
}
