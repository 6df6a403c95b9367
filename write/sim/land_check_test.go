package sim

import (
	"testing"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
)

// Where the land mask has no water for a real waterway: the Suez and Panama
// canals, the Mississippi below New Orleans, the Paraná below Rosario.
var waterways = []struct {
	name                           string
	minLat, maxLat, minLon, maxLon float64
}{
	{"Suez Canal", 29.8, 31.4, 32.1, 32.7},
	{"Panama Canal", 8.8, 9.5, -80.0, -79.4},
	{"Mississippi", 28.8, 30.2, -90.3, -89.0},
	{"Paraná", -34.5, -32.7, -61.1, -58.2},
}

// TestTracksStayAtSea samples every moving segment of ten days of tracks
// every kilometre: off the canals and rivers no track crosses land, and in
// a coastal port it crosses land only beside a berth the land mask puts a
// little inland (a 1:10m mask does not draw quays and dredged basins).
func TestTracksStayAtSea(t *testing.T) {
	t.Parallel()
	cfg := testConfig(11)
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.planner.Run(cfg.Start.Add(10 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	ports := seaport.NewIndex(seaport.All())
	strays, km := 0, 0
	for _, tr := range s.planner.tracks {
		for _, seg := range tr.segs {
			if seg.Path == nil {
				continue
			}
			for d := 0.0; d < seg.Path.lengthKM(); d++ {
				km++
				lat, lon, _ := seg.Path.at(d)
				if !geo.OnLand(lat, lon) || onWaterway(lat, lon) {
					continue
				}
				if slug := ports.PortAt(lat, lon); slug != "" {
					p, _ := seaport.BySlug(slug)
					if p.River {
						continue
					}
					near := false
					for _, b := range p.Berths {
						near = near || geo.DistanceKM(lat, lon, b.Lat, b.Lon) < 1.7
					}
					if near {
						continue
					}
				}
				strays++
				if strays <= 5 {
					t.Logf("%s (%s) on land at %.4f, %.4f", tr.v.Name, seg.Port, lat, lon)
				}
			}
		}
	}
	if strays > 3 {
		t.Fatalf("%d of %d track kilometres on land", strays, km)
	}
	t.Logf("%d track kilometres checked, %d on land off the waterways and berths", km, strays)
}

func onWaterway(lat, lon float64) bool {
	for _, w := range waterways {
		if lat >= w.minLat && lat <= w.maxLat && lon >= w.minLon && lon <= w.maxLon {
			return true
		}
	}
	return false
}
