package chokepoint

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/sealane"
	"overwatch/maritime/vessel"
)

func TestAllLoads(t *testing.T) {
	all := All()
	if len(all) != 8 {
		t.Fatalf("%d chokepoints", len(all))
	}
	ports := 0
	for _, c := range all {
		ports += len(c.Ports)
		if len(c.Gate.Line) == 0 && len(c.Gate.Polys) == 0 {
			t.Errorf("%s: no gate", c.Slug)
		}
	}
	if ports != 12 {
		t.Errorf("%d gateway ports, want the 12 of the WPI extract", ports)
	}
	if c, _ := Named(Suez); len(c.Ports) != 3 || c.Ports[0].Name == "" {
		t.Errorf("Suez gateway ports: %+v", c.Ports)
	}
}

// track turns a sea-lane route into positions an hour apart at 12 kn.
func track(r sealane.Route) []vessel.TrackPoint {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []vessel.TrackPoint
	var km float64
	next := 0.0
	for i, p := range r.Points {
		if i > 0 {
			q := r.Points[i-1]
			km += approxKM(Point{q[0], q[1]}, Point{p[0], p[1]})
		}
		if km >= next || i == len(r.Points)-1 {
			out = append(out, vessel.TrackPoint{TS: start.Add(time.Duration(km / 22.2 * float64(time.Hour))), Lat: p[0], Lon: p[1]})
			next = km + 22.2
		}
	}
	return out
}

// The gates against the sea lanes: a route counts a transit of each
// chokepoint whose lane nodes it passes (Via), and of no other.
func TestTransitsOfSeaLanes(t *testing.T) {
	pairs := [][2]string{{"rotterdam", "shanghai"}, {"santos", "qingdao"}, {"new-orleans", "qingdao"}, {"novorossiysk", "mundra"},
		{"dammam", "rotterdam"}, {"ras-laffan", "busan"}, {"constanta", "alexandria"}, {"seattle", "rotterdam"}, {"richards-bay", "rotterdam"}}
	for _, pr := range pairs {
		r, err := sealane.Between(pr[0], pr[1])
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, c := range All() {
			for _, l := range c.Lanes {
				if slices.Contains(r.Via, l) && !slices.Contains(want, c.Slug) {
					want = append(want, c.Slug)
				}
			}
		}
		var got []string
		for _, tr := range Transits(1, 70, track(r), All()) {
			got = append(got, tr.Chokepoint)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s-%s via %v: transits %v, want %v", pr[0], pr[1], r.Via, got, want)
		}
	}
}

func TestTransitsDedupAndGaps(t *testing.T) {
	c, _ := Named(Suez)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := func(h float64, lat float64) vessel.TrackPoint {
		return vessel.TrackPoint{TS: at.Add(time.Duration(h * float64(time.Hour))), Lat: lat, Lon: 32.33}
	}
	// North, back south 10 h later (one transit in 48 h), then north after 3 days.
	tr := []vessel.TrackPoint{p(0, 30.3), p(2, 30.8), p(12, 30.3), p(80, 30.3), p(84, 30.8)}
	got := Transits(1, 80, tr, []Chokepoint{c})
	if len(got) != 2 || got[0].VesselType != "tanker" {
		t.Fatalf("transits %+v", got)
	}
	if d := got[0].At.Sub(at); d < 30*time.Minute || d > 90*time.Minute {
		t.Errorf("crossing at +%s, want about +1h", d)
	}
	// A gap longer than MaxGap is not looked into.
	if got := Transits(1, 80, []vessel.TrackPoint{p(0, 30.3), p(30, 30.8)}, []Chokepoint{c}); len(got) != 0 {
		t.Errorf("across a gap: %+v", got)
	}
	// A stay in a polygon is one transit however many positions it holds.
	b, _ := Named(Bosporus)
	q := func(h float64, lat, lon float64) vessel.TrackPoint {
		return vessel.TrackPoint{TS: at.Add(time.Duration(h * float64(time.Hour))), Lat: lat, Lon: lon}
	}
	stay := []vessel.TrackPoint{q(0, 40.9, 28.9), q(1, 41.1, 29.06), q(2, 41.12, 29.07), q(3, 41.15, 29.08), q(4, 41.4, 29.2)}
	if got := Transits(1, 70, stay, []Chokepoint{b}); len(got) != 1 {
		t.Errorf("Bosporus stay: %+v", got)
	}
	nan := []vessel.TrackPoint{q(0, math.NaN(), 28.9), q(1, 41.1, math.NaN())}
	if got := Transits(1, 70, nan, All()); len(got) != 0 {
		t.Errorf("NaN: %+v", got)
	}
}

func TestSignals(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var counts []Count
	for d := 0; d < 60; d++ {
		day := start.AddDate(0, 0, d)
		suez, cape := 10, 4
		if d >= 45 {
			suez, cape = 1, 12
		}
		counts = append(counts, Count{Suez, day, "cargo", suez}, Count{CapeGoodHope, day, "cargo", cape}, Count{Hormuz, day, "tanker", 6})
	}
	s := NewSeries(counts, start, start.AddDate(0, 0, 59))
	var days []time.Time
	for d := 30; d < 60; d++ {
		days = append(days, start.AddDate(0, 0, d))
	}
	sig := s.Signals(days, All())
	first := map[string]time.Time{}
	for _, x := range sig {
		if x.Chokepoint != Suez {
			t.Errorf("signal on %s: %+v", x.Chokepoint, x)
		}
		if _, ok := first[x.Kind]; !ok {
			first[x.Kind] = x.Day
		}
		if x.Title() == "" || !strings.HasPrefix(x.Title(), "Suez Canal") {
			t.Errorf("title %q", x.Title())
		}
	}
	for _, k := range []string{KindTransitDrop, KindDiversion} {
		d, ok := first[k]
		if !ok || d.Before(start.AddDate(0, 0, 45)) || d.After(start.AddDate(0, 0, 52)) {
			t.Errorf("%s first on %s", k, d)
		}
	}
	// Steady traffic gives nothing.
	if sig := NewSeries(counts[:3*40], start, start.AddDate(0, 0, 39)).Signals(days[:10], All()); len(sig) != 0 {
		t.Errorf("steady: %+v", sig)
	}
	if p := poissonCDF(700, 1000); p <= 0 || p > 1e-6 {
		t.Errorf("normal tail %g", p)
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"", "{", `{"type":"FeatureCollection","features":[]}`,
		`{"type":"FeatureCollection","features":[{"properties":{"name":"x"},"geometry":{"type":"Point","coordinates":[1,2]}}]}`,
		`{"type":"FeatureCollection","features":[{"properties":{"name":"x"},"geometry":{"type":"Polygon","coordinates":[[[1,2],[3,4]]]}}]}`} {
		if _, err := ParseSeas(strings.NewReader(in)); err == nil {
			t.Errorf("ParseSeas(%q): no error", in)
		}
	}
	if _, err := ParseGateways(strings.NewReader("a,b\n1,2\n")); err == nil {
		t.Error("gateways without the columns: no error")
	}
}

func FuzzParseSeas(f *testing.F) {
	f.Add(seasGeoJSON)
	f.Add([]byte(`{"type":"FeatureCollection","features":[{"properties":{"name":"x"},"geometry":{"type":"MultiPolygon","coordinates":[[[[1,2],[3,4],[5,6],[1,2]]]]}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseSeas(bytes.NewReader(b))
	})
}

func FuzzParseGateways(f *testing.F) {
	f.Add(gatewayCSV)
	f.Add([]byte("Main Port Name,UN/LOCODE,Latitude,Longitude\nX,AB CDE,1,2\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ports, err := ParseGateways(bytes.NewReader(b))
		if err == nil {
			for _, p := range ports {
				if p.Lat < -90 || p.Lat > 90 || p.Lon < -180 || p.Lon > 180 {
					t.Fatalf("port %+v", p)
				}
			}
		}
	})
}
