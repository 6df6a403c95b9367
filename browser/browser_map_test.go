package browser

import (
	"fmt"
	"math"
	"overwatch/apptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// testMapPage: /map with the Pro key shows as many vessel markers as the
// API reports, with no filter and with filters; a real mouse click on a
// marker opens that vessel's panel; with the Free key nothing on the map
// has a position, and the ports are listed with their counts instead.
func testMapPage(t *testing.T, env *pageEnv) {
	b := newBrowser(t, env, 1280, 900)
	b.open(t, "/map")
	waitMapState(t, b, "nokey")
	b.setKey(t, env.pro)
	waitMapState(t, b, "ready")

	// The markers equal the API's count, for the whole fleet and filtered
	// (by the tier most vessels have, once the risk job has scored them).
	expectMarkers(t, b, env, "")
	tiers, ports := map[string]int{}, map[string]int{}
	apptest.Eventually(t, 120*time.Second, "the demo's risk scores", func() bool {
		for _, p := range fleetAPI(t, env, env.pro, "").Positions {
			if p.RiskTier != nil {
				tiers[*p.RiskTier]++
			}
			if p.Port != nil {
				ports[*p.Port]++
			}
		}
		return len(tiers) > 0
	})
	port := ""
	for k, n := range ports {
		if port == "" || n > ports[port] {
			port = k
		}
	}
	if port == "" {
		t.Fatal("no vessel of the demo is in a port area")
	}
	tier := ""
	for k, n := range tiers {
		if tier == "" || n > tiers[tier] {
			tier = k
		}
	}
	for _, f := range [][2]string{{"type", "cargo"}, {"tier", tier}, {"port", port}} {
		setMapFilter(t, b, f[0], f[1])
		expectMarkers(t, b, env, f[0]+"="+f[1])
		setMapFilter(t, b, f[0], "")
	}
	waitMapState(t, b, "ready")

	// Refresh: the risk events the job has derived since the page loaded
	// are drawn too (the screenshot shows them).
	js[bool](t, b, `(document.getElementById('refresh').click(), true)`)
	waitMapState(t, b, "ready")

	// A real click on an isolated marker opens its vessel's panel.
	imo, x, y := isolatedMarker(t, b)
	b.run(t, 10*time.Second, chromedp.MouseClickXY(x, y))
	got := ""
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got = js[string](t, b, `document.getElementById('panel').dataset.imo || ''`); got != "" {
			break
		}
	}
	if got != imo {
		t.Fatalf("clicking the marker of %s at (%.0f, %.0f) opened the panel of %q", imo, x, y, got)
	}
	waitMapCond(t, b, 20*time.Second, "the panel's recent events", `!document.querySelector('#panel-body').textContent.includes('Loading')`)
	if text := js[string](t, b, `document.getElementById('panel-body').textContent`); !mapTextHas(text, imo, "Latest position", "Risk score", "Recent events") {
		t.Errorf("the panel of %s: %q", imo, text)
	}
	// The screenshot README shows: the world with the panel open.
	js[bool](t, b, `(window.__map.map.setView([25, 20], 2, {animate: false}), true)`)
	time.Sleep(500 * time.Millisecond)
	shot := b.screenshot(t, "map")
	publishScreenshot(t, shot, "map.png")
	b.noErrors(t)

	// Free: no layer on the map has a position; the ports are listed.
	free := fleetAPI(t, env, env.free, "")
	for _, p := range free.Positions {
		if p.Latitude != nil || p.Longitude != nil {
			t.Fatalf("the API gives the Free key coordinates: %+v", p)
		}
	}
	fb := newBrowser(t, env, 1280, 900)
	fb.open(t, "/map")
	fb.setKey(t, env.free)
	waitMapState(t, fb, "ready")
	placed := js[int](t, fb, `(() => { let n = 0; window.__map.map.eachLayer((l) => { if (l.getLatLng) n++; }); return n; })()`)
	if n := js[int](t, fb, `window.__map.markerCount`); n != 0 || placed != 0 {
		t.Errorf("Free: %d vessel markers, %d positioned layers on the map", n, placed)
	}
	rows := js[int](t, fb, `document.querySelector('#port-level').hidden ? -1 : document.querySelectorAll('#port-level tbody tr').length`)
	if rows != 40 {
		t.Errorf("Free: the port list has %d rows, want the 40 ports", rows)
	}
	if text := js[string](t, fb, `document.getElementById('counts').textContent`); !mapTextHas(text, fmt.Sprint(free.Total), "no exact coordinates") {
		t.Errorf("Free: counts %q (the API reports %d)", text, free.Total)
	}
	fb.screenshot(t, "map-free")
	fb.noErrors(t)
}

// fleetPage is the part of GET /v1/vessels/positions the tests read.
type fleetPage struct {
	Total     int `json:"total"`
	Positions []struct {
		IMO       string   `json:"imo_number"`
		Latitude  *float64 `json:"latitude"`
		Longitude *float64 `json:"longitude"`
		RiskTier  *string  `json:"risk_tier"`
		Port      *string  `json:"port"`
	} `json:"positions"`
}

// fleetAPI asks the API for the first page of the fleet with the query
// (validated against the OpenAPI document).
func fleetAPI(t *testing.T, env *pageEnv, key, query string) fleetPage {
	t.Helper()
	r := env.s.Do(t, apptest.Request{Path: "/v1/vessels/positions?" + query, Key: key, IP: apptest.FreshIP()})
	if r.StatusCode != 200 {
		t.Fatalf("/v1/vessels/positions?%s: %d %s", query, r.StatusCode, r.Body)
	}
	var p fleetPage
	apptest.MustUnmarshal(t, r.Body, &p)
	return p
}

// expectMarkers compares the page's marker count with the API's total for
// the same filter. The demo is live: on a difference, the page reloads its
// vessels and both are read again, a few times.
func expectMarkers(t *testing.T, b *browser, env *pageEnv, query string) {
	t.Helper()
	var n, want int
	for try := 0; try < 4; try++ {
		if try > 0 {
			js[bool](t, b, `(document.getElementById('refresh').click(), true)`)
		}
		waitMapState(t, b, "ready")
		n = js[int](t, b, `window.__map.markerCount`)
		if attr := js[string](t, b, `document.getElementById('map').dataset.markers`); attr != fmt.Sprint(n) {
			t.Fatalf("data-markers %s, markerCount %d", attr, n)
		}
		want = fleetAPI(t, env, env.pro, query).Total
		if n == want && n > 0 {
			t.Logf("%q: %d markers, as the API reports", query, n)
			return
		}
	}
	t.Errorf("filter %q: %d markers on the map, the API reports %d", query, n, want)
}

// setMapFilter selects value in the sidebar's select name, as a user does.
func setMapFilter(t *testing.T, b *browser, name, value string) {
	t.Helper()
	js[bool](t, b, fmt.Sprintf(`(() => {
		const s = document.querySelector('#filters select[name=%q]');
		s.value = %q;
		s.dispatchEvent(new Event('change', {bubbles: true}));
		return s.value === %q;
	})()`, name, value, value))
	waitMapState(t, b, "ready")
}

// waitMapState waits until #map's data-state is state.
func waitMapState(t *testing.T, b *browser, state string) {
	t.Helper()
	waitMapCond(t, b, 60*time.Second, "map state "+state, fmt.Sprintf(`document.getElementById('map').dataset.state === %q`, state))
}

// waitMapCond polls a JavaScript condition until it holds.
func waitMapCond(t *testing.T, b *browser, timeout time.Duration, what, cond string) {
	t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if js[bool](t, b, cond) {
			return
		}
	}
	t.Fatalf("timed out waiting for %s (page errors: %v; status %q)", what, b.errors(),
		js[string](t, b, `document.getElementById('status').textContent`))
}

// isolatedMarker finds a vessel marker inside the map with no other
// marker within 12 px, zooming in on a crowd when there is none, and
// returns its IMO and page position.
func isolatedMarker(t *testing.T, b *browser) (string, float64, float64) {
	t.Helper()
	const pixels = `(() => {
		const m = window.__map, r = document.getElementById('map').getBoundingClientRect();
		return { w: r.width, h: r.height, markers: m.imos().map((imo) => {
			const p = m.map.latLngToContainerPoint(m.latLngOf(imo));
			return { imo, x: r.left + p.x, y: r.top + p.y, cx: p.x, cy: p.y };
		}) };
	})()`
	type view struct {
		W, H    float64
		Markers []struct {
			IMO    string
			X, Y   float64
			CX, CY float64
		}
	}
	for attempt := 0; attempt < 4; attempt++ {
		v := js[view](t, b, pixels)
		for i, m := range v.Markers {
			// Away from the zoom control (top left) and the attribution
			// (bottom right), and from every other marker.
			if m.CX < 60 || m.CY < 90 || m.CX > v.W-20 || m.CY > v.H-30 {
				continue
			}
			alone := true
			for j, o := range v.Markers {
				if i != j && math.Hypot(o.X-m.X, o.Y-m.Y) < 12 {
					alone = false
					break
				}
			}
			if alone {
				return m.IMO, m.X, m.Y
			}
		}
		if len(v.Markers) == 0 {
			t.Fatal("no vessel marker to click")
		}
		// Zoom in on a vessel: the crowd around it spreads out.
		m := v.Markers[attempt%len(v.Markers)]
		js[bool](t, b, fmt.Sprintf(`(window.__map.map.setView(window.__map.latLngOf(%q), 11 + %d, {animate: false}), true)`, m.IMO, attempt))
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatal("found no isolated vessel marker to click")
	return "", 0, 0
}

// mapTextHas reports whether s contains every part.
func mapTextHas(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
