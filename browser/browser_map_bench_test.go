package browser

import (
	"fmt"
	"math/rand/v2"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/geo"
	"overwatch/testclock"
	"overwatch/write/ingest"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestMapBench: /map with a large fleet in headless Chromium. It stores
// OVERWATCH_MAP_BENCH_VESSELS vessels (static report and one position
// each, at sea around the world) through the real ingest pipeline into a
// store of their own, then measures, on three page loads, the time from
// navigation to the first frame that shows every marker (and its parts:
// the API pages, the drawing), and the frame times while the map pans
// (requestAnimationFrame intervals over eight animated pans of the whole
// world view, each ending in a canvas redraw of every marker). `make
// bench-map` runs it with 10,000 vessels; without the variable it is the
// smoke run of `make test`: 300 vessels, figures logged, every marker
// drawn.
func TestMapBench(t *testing.T) {
	chrome := chromiumPath(t)
	n, bench := 300, false
	if v := os.Getenv("OVERWATCH_MAP_BENCH_VESSELS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("OVERWATCH_MAP_BENCH_VESSELS=%q: a positive number", v)
		}
		bench = true
	}
	s := apptest.StartServer(t, map[string]string{
		"CLICKHOUSE_URL":                    chtest.URL(t, "e2e_mapbench"),
		"OVERWATCH_KEYED_LIMIT_PER_MINUTE":  "100000",
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000",
	})
	start := time.Now()
	s.IngestReports(t, benchFleet(n)...)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	env := &pageEnv{s: s, chrome: chrome, pro: key}
	apptest.Eventually(t, 60*time.Second, "the fleet in the API", func() bool { return fleetAPI(t, env, key, "limit=1").Total == n })
	t.Logf("%d vessels stored in %v", n, time.Since(start).Round(time.Millisecond))

	b := newBrowser(t, env, 1280, 900)
	b.open(t, "/map")
	js[bool](t, b, fmt.Sprintf(`(sessionStorage.setItem('overwatch.apiKey', %q), true)`, key))
	type timings struct{ FleetStart, FleetLoaded, FirstRender float64 }
	var loads []timings
	for range 3 {
		b.open(t, "/map") // the key is in the tab's session: the page loads the fleet at once
		waitMapState(t, b, "ready")
		if got := js[int](t, b, `window.__map.markerCount`); got != n {
			t.Fatalf("%d markers, want %d", got, n)
		}
		loads = append(loads, js[timings](t, b, `window.__map.timings`))
	}
	med := func(f func(timings) float64) float64 {
		v := make([]float64, len(loads))
		for i, l := range loads {
			v[i] = f(l)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	first := med(func(l timings) float64 { return l.FirstRender })
	fetch := med(func(l timings) float64 { return l.FleetLoaded - l.FleetStart })
	draw := med(func(l timings) float64 { return l.FirstRender - l.FleetLoaded })

	// Pan the world view to and fro: eight animated pans of 400 px, each
	// redrawing every marker at its end, with requestAnimationFrame
	// timing every frame.
	frames := js[[]float64](t, b, `(async () => {
		const map = window.__map.map;
		map.setView([15, 0], 2.5, { animate: false });
		await new Promise((r) => setTimeout(r, 300));
		const dts = [];
		let last = performance.now(), on = true;
		const tick = (now) => { dts.push(now - last); last = now; if (on) requestAnimationFrame(tick); };
		requestAnimationFrame((now) => { last = now; requestAnimationFrame(tick); });
		for (let i = 0; i < 8; i++) {
			await new Promise((r) => { map.once('moveend', r); map.panBy([i % 2 ? -400 : 400, i % 4 < 2 ? 60 : -60], { duration: 0.5 }); });
			await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
		}
		on = false;
		return dts;
	})()`)
	if len(frames) < 20 {
		t.Fatalf("only %d frames while panning", len(frames))
	}
	slices.Sort(frames)
	pct := func(p float64) float64 { return frames[min(len(frames)-1, int(p*float64(len(frames))))] }
	sum := 0.0
	for _, f := range frames {
		sum += f
	}
	mean := sum / float64(len(frames))
	t.Logf("map with %d vessels (median of 3 loads): first render %.0f ms after navigation (API pages %.0f ms, drawing %.0f ms); "+
		"panning: %d frames, mean %.1f ms (%.0f fps), p50 %.1f ms, p95 %.1f ms, max %.1f ms",
		n, first, fetch, draw, len(frames), mean, 1000/mean, pct(0.5), pct(0.95), frames[len(frames)-1])
	b.noErrors(t)
	if bench && (first > 10000 || pct(0.95) > 100) {
		t.Errorf("not interactive: first render %.0f ms (at most 10,000), p95 frame %.1f ms (at most 100)", first, pct(0.95))
	}
}

// benchFleet is n vessels at sea, each with a static report (IMO, name, a
// ship type of every category) and one position reported in the last
// hour, from a fixed seed.
func benchFleet(n int) []ingest.Report {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	types := []uint8{70, 80, 60, 40, 30, 31, 50, 36, 20, 90}
	now := testclock.Now().UTC().Truncate(time.Second)
	out := make([]ingest.Report, 0, 2*n)
	for i := range n {
		lat, lon := 0.0, 0.0
		for {
			lat, lon = -60+rng.Float64()*130, -180+rng.Float64()*360
			if !geo.OnLand(lat, lon) {
				break
			}
		}
		mmsi := uint32(636000000 + i)
		out = append(out,
			ingest.Report{Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 5, TS: now.Add(-2 * time.Hour), ReceivedAt: now,
				Has: ingest.HasIMO | ingest.HasName | ingest.HasShipType | ingest.HasDimensions,
				IMO: apptest.NextIMO(), Name: fmt.Sprintf("BENCH %05d", i), ShipType: types[i%len(types)],
				ToBow: 150, ToStern: 30, ToPort: 14, ToStarboard: 14},
			ingest.Report{Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 1, TS: now.Add(-time.Duration(rng.IntN(3600)) * time.Second), ReceivedAt: now,
				Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG, Lat: lat, Lon: lon, SOG: 12, COG: rng.Float64() * 360})
	}
	return out
}
