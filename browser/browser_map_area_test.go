package browser

import (
	"fmt"
	"math"
	"overwatch/apptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// newestFix is the time of the fleet's newest position.
func newestFix(fleet map[string]fleetItem) time.Time {
	var newest time.Time
	for _, v := range fleet {
		if ts, err := time.Parse(time.RFC3339, v.Timestamp); err == nil && ts.After(newest) {
			newest = ts
		}
	}
	return newest
}

// eventCounts are the counts the page's counts line shows.
var eventCounts = regexp.MustCompile(`dark gaps (\d+), STS transfers (\d+), loitering (\d+)`)

// riskCounts asks the API for the events under way between start and end,
// counted as the map counts them.
func riskCounts(t *testing.T, env *pageEnv, start, end string) [3]int {
	t.Helper()
	q := "limit=500&start=" + start + "&end=" + end
	var n [3]int
	for i, p := range []string{"/v1/risk/events?", "/v1/risk/sts?", "/v1/risk/loitering?"} {
		var r struct{ Events []struct{ Type string } }
		resp := env.s.Do(t, apptest.Request{Path: p + q, Key: env.pro, IP: apptest.FreshIP()})
		if resp.StatusCode != 200 {
			t.Fatalf("%s%s: %d %s", p, q, resp.StatusCode, resp.Body)
		}
		apptest.MustUnmarshal(t, resp.Body, &r)
		for _, e := range r.Events {
			if i > 0 || e.Type == "ais_gap" {
				n[i]++
			}
		}
	}
	return n
}

// pageCounts reads the event counts of the map's counts line.
func pageCounts(t *testing.T, b *browser) [3]int {
	t.Helper()
	text := js[string](t, b, `document.getElementById('counts').textContent`)
	m := eventCounts.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no event counts in %q", text)
	}
	var n [3]int
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return n
}

// testMapRiskRange: the risk events drawn are those under way in the 7
// days up to the fleet's newest position, asked from the API with start
// and end; another range chosen in the sidebar asks and shows that
// range's events (none, before the demo's history).
func testMapRiskRange(t *testing.T, env *pageEnv, b *browser, fleet map[string]fleetItem) {
	newest := newestFix(fleet)
	waitMapState(t, b, "ready")
	type rng struct{ Start, End string }
	want := rng{newest.AddDate(0, 0, -7).Format(time.DateOnly) + "T00:00:00Z", newest.Format(time.DateOnly) + "T23:59:59Z"}
	if got := js[rng](t, b, `window.__map.eventRange`); got != want {
		t.Errorf("the risk events' range is %+v, want the 7 days up to the newest position %s: %+v", got, newest, want)
	}
	// The counts are the API's for that range (the risk job goes on: on a
	// difference the page loads them again, a few times).
	for try := 0; ; try++ {
		got, api := pageCounts(t, b), riskCounts(t, env, want.Start, want.End)
		if got == api {
			t.Logf("events under way %s to %s: %v, as the API gives", want.Start, want.End, got)
			break
		}
		if try == 3 {
			t.Fatalf("the map counts %v events (gaps, transfers, loitering), the API %v", got, api)
		}
		js[bool](t, b, `(document.getElementById('refresh').click(), true)`)
		waitMapState(t, b, "ready")
	}
	// A range before the demo's history: the page asks for it, and shows none.
	b.stubFetch(t)
	before := newest.AddDate(0, 0, -30).Format(time.DateOnly)
	js[bool](t, b, fmt.Sprintf(`(() => {
		const f = document.getElementById('filters');
		f.elements.evstart.value = %q;
		f.elements.evend.value = %q;
		f.elements.evend.dispatchEvent(new Event('change', { bubbles: true }));
		return true;
	})()`, before, before))
	waitMapCond(t, b, 30*time.Second, "the events of the range chosen", fmt.Sprintf(`document.getElementById('map').dataset.state === 'ready' && window.__map.eventRange.start === %q`, before+"T00:00:00Z"))
	sent := js[[]string](t, b, `window.__sent.map((s) => s.path)`)
	for _, p := range []string{"/v1/risk/events?", "/v1/risk/sts?", "/v1/risk/loitering?"} {
		found := false
		for _, s := range sent {
			found = found || (strings.HasPrefix(s, p) && strings.Contains(s, "start="+before+"T00%3A00%3A00Z") && strings.Contains(s, "end="+before+"T23%3A59%3A59Z"))
		}
		if !found {
			t.Errorf("the page did not ask %s with the chosen range: it sent %v", p, sent)
		}
	}
	if got, api := pageCounts(t, b), riskCounts(t, env, before+"T00:00:00Z", before+"T23:59:59Z"); got != api || got != [3]int{} {
		t.Errorf("range %s: the map counts %v events, the API %v, want none", before, got, api)
	}
	if n := len(js[[]any](t, b, `window.__map.gapLines()`)); n != 0 {
		t.Errorf("range %s: %d dark gaps drawn", before, n)
	}
}

// testMapAntimeridian: a dark gap from 179.5°E to 179.5°W is drawn the
// short way (a degree east across the antimeridian), not across the whole
// map. The API's answer is replaced by such a gap: the 3-day demo has
// none across the antimeridian.
func testMapAntimeridian(t *testing.T, b *browser) {
	gap := map[string]any{
		"type": "ais_gap", "subtype": "", "severity": "high", "ongoing": false,
		"start": "2026-01-01T00:00:00Z", "end": "2026-01-01T12:00:00Z",
		"vessel":   map[string]any{"imo": "9074729", "name": "DATELINE", "flag": nil, "vessel_type": nil},
		"position": map[string]any{"lat": 10.0, "lon": 179.5}, "end_position": map[string]any{"lat": 11.0, "lon": -179.5},
	}
	b.stubFetch(t, fetchStub{Method: "GET", Prefix: "/v1/risk/events", Status: 200, Body: map[string]any{"events": []any{gap}}})
	js[bool](t, b, `(document.getElementById('refresh').click(), true)`)
	waitMapState(t, b, "ready")
	lines := js[[][][2]float64](t, b, `window.__map.gapLines()`)
	b.stubFetch(t)
	if len(lines) != 1 || len(lines[0]) != 2 {
		t.Fatalf("dark gap lines drawn: %v, want the one gap", lines)
	}
	a, z := lines[0][0], lines[0][1]
	if a != [2]float64{10, 179.5} || z[0] != 11 || math.Abs(z[1]-180.5) > 1e-9 {
		t.Errorf("the gap across the antimeridian is drawn %v → %v, want [10 179.5] → [11 180.5] (the short way)", a, z)
	}
	js[bool](t, b, `(document.getElementById('refresh').click(), true)`)
	waitMapState(t, b, "ready")
}

// testMapExport: "Draw an area" and a drag on the map draw a box (the map
// does not pan); the form sends POST /v1/exports with the box as bbox,
// the dates (the 7 days up to the newest position by default) and the
// format; a 202 is followed to completed, then a download link shows; a
// 403 shows the API's plan message. The export runs on the real server
// (the page's key is Pro); the refusal, which that key never meets, is the
// API's answer to a Starter key served to the page.
func testMapExport(t *testing.T, b *browser, fleet map[string]fleetItem) {
	b.stubFetch(t) // records what the page sends; the export itself is the server's

	js[bool](t, b, `(window.__map.map.setView([20, 10], 3, { animate: false }), true)`)
	b.run(t, 5*time.Second, chromedp.Click(chromedp.CSS(`#draw-area`)))
	type pt struct{ X, Y, Lat, Lng float64 }
	corners := js[[2]pt](t, b, `(() => {
		const m = window.__map.map, r = document.getElementById('map').getBoundingClientRect();
		return [[300, 200], [620, 430]].map(([x, y]) => { const ll = m.containerPointToLatLng([x, y]); return { x: r.left + x, y: r.top + y, lat: ll.lat, lng: ll.lng }; });
	})()`)
	centre := js[[2]float64](t, b, `(() => { const c = window.__map.map.getCenter(); return [c.lat, c.lng]; })()`)
	b.run(t, 10*time.Second,
		chromedp.MouseEvent(chromedp.MousePressed, corners[0].X, corners[0].Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, (corners[0].X+corners[1].X)/2, (corners[0].Y+corners[1].Y)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, corners[1].X, corners[1].Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, corners[1].X, corners[1].Y, chromedp.ButtonLeft),
	)
	waitMapCond(t, b, 5*time.Second, "the area drawn", `window.__map.exportArea.state === 'drawn'`)
	if now := js[[2]float64](t, b, `(() => { const c = window.__map.map.getCenter(); return [c.lat, c.lng]; })()`); now != centre {
		t.Errorf("the map panned from %v to %v while the area was drawn", centre, now)
	}
	// The box is west,south,east,north of the drag (within a pixel).
	bbox := js[string](t, b, `window.__map.exportArea.bbox`)
	parts := strings.Split(bbox, ",")
	want4 := [4]float64{corners[0].Lng, corners[1].Lat, corners[1].Lng, corners[0].Lat}
	for i, w := range want4 {
		if len(parts) != 4 {
			break
		}
		if v, err := strconv.ParseFloat(parts[i], 64); err != nil || math.Abs(v-w) > 0.2 {
			t.Errorf("the area drawn is %q, want %v (west,south,east,north of the drag)", bbox, want4)
			break
		}
	}
	if len(parts) != 4 {
		t.Fatalf("the area drawn is %q, want west,south,east,north", bbox)
	}

	newest := newestFix(fleet)
	js[bool](t, b, `(document.querySelector('#export-form select[name=format]').value = 'csv.gz', true)`)
	b.run(t, 5*time.Second, chromedp.Click(chromedp.CSS(`#export-form button[type=submit]`)))
	waitMapCond(t, b, 20*time.Second, "the export completed", `window.__map.exportArea.state === 'completed'`)
	type sent struct {
		Method, Path string
		Body         *struct {
			Dataset, Format string
			Filters         map[string]string
		}
	}
	var post *sent
	for _, s := range js[[]sent](t, b, `window.__sent`) {
		if s.Method == "POST" && s.Path == "/v1/exports" {
			post = &s
		}
	}
	want := map[string]string{"bbox": bbox, "start": newest.AddDate(0, 0, -7).Format(time.DateOnly) + "T00:00:00Z", "end": newest.Format(time.DateOnly) + "T23:59:59Z"}
	if post == nil || post.Body == nil || post.Body.Dataset != "positions" || post.Body.Format != "csv.gz" || fmt.Sprint(post.Body.Filters) != fmt.Sprint(want) {
		t.Fatalf("the page sent %+v, want POST /v1/exports {dataset: positions, format: csv.gz, filters: %v}", post, want)
	}
	if href := js[string](t, b, `(document.getElementById('export-download') || {}).href || ''`); !regexp.MustCompile(`/v1/exports/[A-Za-z0-9_-]+/download$`).MatchString(href) {
		t.Errorf("the completed export's link is %q", href)
	}

	// A plan without exports: the API's 403 message in the section.
	msg := "the Pro plan or higher is needed for bulk exports; this key's plan is Starter"
	b.stubFetch(t, fetchStub{Method: "POST", Prefix: "/v1/exports", Status: 403, Body: map[string]any{"error": msg}})
	b.run(t, 5*time.Second, chromedp.Click(chromedp.CSS(`#export-form button[type=submit]`)))
	waitMapCond(t, b, 10*time.Second, "the refusal", `window.__map.exportArea.state === 'refused'`)
	if text := js[string](t, b, `document.getElementById('export-status').textContent`); !strings.Contains(text, msg) || !strings.Contains(text, "403") {
		t.Errorf("a 403 shows %q, want the API's message %q", text, msg)
	}
	b.stubFetch(t)
}
