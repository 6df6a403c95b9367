package sim

import (
	"testing"

	"overwatch/maritime/geo"
)

// The shuttles of a transfer area lie shuttleSpacingM or more apart, so
// that a tanker alongside one (alongsideM off) is beyond the transfer
// detector's 500 m of every other (with stations drawn at random
// two shuttles lay 250 m apart, and each tanker alongside one was paired
// with the other too, a ghost pair closer than the true partner).
func TestShuttleStationsApart(t *testing.T) {
	t.Parallel()
	pairs := 0
	for seed := uint64(1); seed <= 30; seed++ {
		cfg := testConfig(seed)
		cfg.Warmup = 0
		s, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range s.planner.areas {
			for i, x := range a.shuttles {
				for _, y := range a.shuttles[i+1:] {
					pairs++
					lat, lon := offset(y.lat, y.lon, 0, -alongsideM) // a tanker alongside y
					if d := geo.DistanceKM(x.lat, x.lon, lat, lon) * 1000; d <= 2*500 {
						t.Errorf("seed %d, %s: a tanker alongside one shuttle lies %.0f m from the other", seed, a.Name, d)
					}
				}
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no area with two shuttles")
	}
}

// Every spoofed position received lies within its spoofing's truth (issue
// 17: the last spoofed minute ran past the truth's End, and a spoofed fix
// received 31 seconds after it was scored a false detection).
func TestSpoofedPositionsInsideTruth(t *testing.T) {
	t.Parallel()
	cfg := testConfig(13)
	cfg.Rates.Spoof = 0.6
	c := capture(t, cfg, 8)
	vessels := byIMO(decodeAll(t, c), fleetIndex(c))
	n := 0
	for _, tr := range c.truth {
		if tr.Type != "spoofing" {
			continue
		}
		rp := tr.Detail.(map[string]any)["reported"].(map[string]any)
		for _, o := range vessels[tr.Vessels[0]] {
			if o.m.Type != 1 || geo.DistanceKM(o.m.Lat, o.m.Lon, rp["lat"].(float64), rp["lon"].(float64)) > 0.5 {
				continue
			}
			n++
			if o.m.Time.Before(*tr.Start) || o.m.Time.After(*tr.End) {
				t.Errorf("vessel %d: spoofed position at %s, outside its truth %s – %s", tr.Vessels[0], o.m.Time, tr.Start, tr.End)
			}
		}
	}
	if n == 0 {
		t.Fatal("no spoofed position received")
	}
}
