package geo

import "testing"

// The rings hold every vertex of the mask, each ring closed, and their
// vertices lie in longitude/latitude.
func TestLandRings(t *testing.T) {
	rings, vertices := 0, 0
	LandRings(func(lon, lat []float32) {
		rings++
		vertices += len(lon)
		if len(lon) != len(lat) || len(lon) < 3 {
			t.Fatalf("ring %d: %d longitudes, %d latitudes", rings, len(lon), len(lat))
		}
		if lon[0] != lon[len(lon)-1] || lat[0] != lat[len(lat)-1] {
			t.Fatalf("ring %d is not closed", rings)
		}
		for i := range lat {
			if lat[i] < -90 || lat[i] > 90 || lon[i] < -200 || lon[i] > 200 {
				t.Fatalf("ring %d: vertex (%v, %v) out of range", rings, lat[i], lon[i])
			}
		}
	})
	m := landData()
	if rings != m.rings || vertices != len(m.lon) {
		t.Fatalf("%d rings, %d vertices; the mask has %d and %d", rings, vertices, m.rings, len(m.lon))
	}
}
