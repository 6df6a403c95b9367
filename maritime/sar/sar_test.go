package sar

import (
	"math"
	"overwatch/testclock"
	"testing"
	"time"
)

// TestRelativeOrbit checks the offsets against the orbits NOTES.md lists
// (ESA manifests, a CDSE record, ASF pathNumber).
func TestRelativeOrbit(t *testing.T) {
	for _, c := range []struct {
		platform  string
		abs, want int
	}{{"S1A", 39156, 59}, {"S1A", 46117, 20}, {"S1A", 30643, 121}, {"S1A", 3072, 25}, {"S1A", 14014, 117},
		{"S1B", 3050, 49}, {"S1B", 24970, 94}, {"S1B", 29520, 94}, {"S1C", 638, 15}, {"S1X", 5, 0}, {"S1A", 0, 0}} {
		if got := RelativeOrbit(c.platform, c.abs); got != c.want {
			t.Errorf("%s %d: %d, want %d", c.platform, c.abs, got, c.want)
		}
	}
}

func TestPlatformAndName(t *testing.T) {
	for in, want := range map[string]string{"Sentinel-1B": "S1B", "sentinel-1a": "S1A", "A": "S1A", "S1C": "S1C", "SENTINEL-2": "", "": ""} {
		if got := Platform(in); got != want {
			t.Errorf("%q: %q", in, got)
		}
	}
	p := Product{Name: "S1C_S4_GRDH_1SDH_20250118T171404_20250118T171421_000638_000538_4B8B"}
	if !FromName(&p) || p.Platform != "S1C" || p.Mode != "S4" || p.AbsoluteOrbit != 638 || p.RelativeOrbit != 15 ||
		!p.Start.Equal(time.Date(2025, 1, 18, 17, 14, 4, 0, time.UTC)) {
		t.Fatalf("%+v", p)
	}
	if q := (Product{Name: "S2A_MSIL1C_20200808T010311"}); FromName(&q) {
		t.Fatal("a Sentinel-2 name read")
	}
}

// fairbanksFootprint is the real footprint of the ASF Fairbanks granule.
var fairbanksFootprint = Polygon{{-144.751495, 65.990250}, {-144.136368, 64.386414}, {-149.246063, 63.942123}, {-150.172562, 65.531250}, {-144.751495, 65.990250}}

func TestDistanceKm(t *testing.T) {
	if d := fairbanksFootprint.DistanceKm(64.8378, -147.7164); d != 0 {
		t.Fatalf("Fairbanks: %v", d)
	}
	// Anchorage (61.22 N, 149.90 W) is about 300 km south of the
	// footprint's southern edge (63.94 N at 149.2 W).
	d := fairbanksFootprint.DistanceKm(61.2181, -149.9003)
	if d < 270 || d > 330 {
		t.Fatalf("Anchorage: %v km", d)
	}
	// One degree of latitude north of the northern edge: ~111 km.
	d = fairbanksFootprint.DistanceKm(66.99, -144.75)
	if math.Abs(d-111) > 5 {
		t.Fatalf("north: %v km", d)
	}
	// Across the antimeridian.
	sq := Polygon{{179, -1}, {-179, -1}, {-179, 1}, {179, 1}}
	if d := sq.DistanceKm(0, 180); d != 0 {
		t.Fatalf("antimeridian: %v", d)
	}
	if d := (Polygon{{0, 0}, {1, 1}}).DistanceKm(0, 0); !math.IsInf(d, 1) {
		t.Fatal(d)
	}
}

func TestPotential(t *testing.T) {
	for h, want := range map[float64]Potential{0: High, 6: High, 6.1: Medium, 24: Medium, 48: Low, 72: Low, 72.5: None, -1: None, math.NaN(): None} {
		if got := PotentialOf(h); got != want {
			t.Errorf("%v: %s", h, got)
		}
	}
}

func TestCoverageAndPrediction(t *testing.T) {
	known := Product{Name: "S1B_IW_SLC__1SDV_20210102T032031_20210102T032058_024970_02F8C3_C081", Platform: "S1B", RelativeOrbit: 94,
		Start: time.Date(2021, 1, 2, 3, 20, 31, 0, time.UTC), Direction: "ASCENDING", Footprint: fairbanksFootprint}
	// 26 cycles later, 2 hours after the predicted pass: medium? no,
	// high (within 6 h), predicted, no catalogue product in the window.
	at := known.Start.Add(26*Cycle + 2*time.Hour)
	c := CoverageAt([]Product{known}, 64.8378, -147.7164, 50, at)
	if len(c.Products) != 0 || c.Closest == nil || !c.Closest.Predicted || c.Hours != 2 || c.Potential != High {
		t.Fatalf("%+v", c)
	}
	// The day itself: the product is listed, the pass is not predicted.
	c = CoverageAt([]Product{known}, 64.8378, -147.7164, 50, known.Start.Add(-30*time.Hour))
	if len(c.Products) != 1 || c.Closest.Predicted || c.Hours != 30 || c.Potential != Low {
		t.Fatalf("%+v", c)
	}
	// Far away: nothing.
	c = CoverageAt([]Product{known}, 0, 0, 50, known.Start)
	if c.Closest != nil || c.Potential != None || c.Hours != -1 {
		t.Fatalf("%+v", c)
	}
	// S1B failed on 2021-12-23: never predicted after it.
	if p := Predict([]Product{known}, time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)); len(p) != 0 {
		t.Fatalf("%+v", p)
	}
}

func TestAreaAround(t *testing.T) {
	a := AreaAround(64.8378, -147.7164, 50, time.Date(2021, 1, 2, 15, 0, 0, 0, time.UTC))
	if a.MinLat != 64 || a.MaxLat != 66 || a.MinLon != -149 || a.MaxLon != -146 || !a.Day.Equal(time.Date(2021, 1, 2, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("%+v", a)
	}
	if a.Key() != "64,66,-149,-146" || a.From() != a.Day.Add(-6*24*time.Hour) || a.WKT() != "POLYGON((-149 64,-146 64,-146 66,-149 66,-149 64))" {
		t.Fatalf("%s %v %s", a.Key(), a.From(), a.WKT())
	}
	b := AreaAround(89.9, 10, 500, testclock.Now())
	if b.MaxLat != 90 || b.MinLon < -180 || b.MaxLon > 180 {
		t.Fatalf("%+v", b)
	}
}
