package browser

import (
	"fmt"
	"math"
	"net/url"
	"overwatch/apptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// testMapFeatures: the map's search box, the selected vessel's track with
// playback and its predicted next port (this file), the risk events'
// range, the dark gaps across the antimeridian and the area export
// (browser_map_area_test.go), each through the page as a user drives it,
// against what the API answers.
func testMapFeatures(t *testing.T, env *pageEnv) {
	b := newBrowser(t, env, 1280, 900)
	b.open(t, "/map")
	b.setKey(t, env.pro)
	waitMapState(t, b, "ready")
	fleet := fleetItems(t, env)

	// The vessel the selection checks follow: one the predictions job has
	// a next port for (it is under way), with a name, placed on the map;
	// one whose top next port has a sea-lane route when there is one.
	var preds struct {
		Predictions []struct {
			IMO       string `json:"imo_number"`
			NextPorts []struct {
				Port string `json:"port"`
			} `json:"next_ports"`
		} `json:"predictions"`
	}
	imo := ""
	apptest.Eventually(t, 120*time.Second, "a vessel with a predicted next port", func() bool {
		r := env.s.Do(t, apptest.Request{Path: "/v1/predictions?limit=1000", Key: env.pro, IP: apptest.FreshIP()})
		apptest.MustUnmarshal(t, r.Body, &preds)
		for _, p := range preds.Predictions {
			if v, ok := fleet[p.IMO]; ok && len(p.NextPorts) > 0 && v.Name != "" && v.Port == nil {
				if imo == "" {
					imo = p.IMO
				}
				var one struct {
					Prediction struct {
						NextPorts []struct{ Route [][2]float64 } `json:"next_ports"`
					}
				}
				apptest.MustUnmarshal(t, env.s.Do(t, apptest.Request{Path: "/v1/vessels/" + p.IMO + "/prediction", Key: env.pro, IP: apptest.FreshIP()}).Body, &one)
				if np := one.Prediction.NextPorts; len(np) > 0 && len(np[0].Route) > 1 {
					imo = p.IMO
					break
				}
			}
		}
		if imo == "" {
			fleet = fleetItems(t, env)
		}
		return imo != ""
	})
	v := fleet[imo]

	t.Run("search", func(t *testing.T) { testMapSearch(t, env, b, v) })
	t.Run("track", func(t *testing.T) { testMapTrack(t, env, b, v) })
	t.Run("prediction", func(t *testing.T) { testMapPrediction(t, env, b, v) })
	shot := b.screenshot(t, "map-track")
	publishScreenshot(t, shot, "map-track.png")
	t.Run("risk range", func(t *testing.T) { testMapRiskRange(t, env, b, fleet) })
	t.Run("antimeridian", func(t *testing.T) { testMapAntimeridian(t, b) })
	t.Run("export", func(t *testing.T) { testMapExport(t, b, fleet) })
	b.noErrors(t)
}

// fleetItem is the part of a /v1/vessels/positions item these tests read.
type fleetItem struct {
	IMO       string   `json:"imo_number"`
	Name      string   `json:"name"`
	Latitude  float64  `json:"latitude"`
	Longitude float64  `json:"longitude"`
	Port      *string  `json:"port"`
	Timestamp string   `json:"timestamp"`
	Speed     *float64 `json:"speed"`
}

// fleetItems is the whole fleet (one page of 500 holds the demo's) by IMO.
func fleetItems(t *testing.T, env *pageEnv) map[string]fleetItem {
	t.Helper()
	r := env.s.Do(t, apptest.Request{Path: "/v1/vessels/positions?limit=500", Key: env.pro, IP: apptest.FreshIP()})
	var p struct{ Positions []fleetItem }
	apptest.MustUnmarshal(t, r.Body, &p)
	out := map[string]fleetItem{}
	for _, v := range p.Positions {
		out[v.IMO] = v
	}
	return out
}

// search types q into the search box, waits for the list to hold want
// and returns the list: IMO and why-matched text of each entry, in order.
func search(t *testing.T, b *browser, q, want string) [][2]string {
	t.Helper()
	js[bool](t, b, fmt.Sprintf(`(() => {
		const i = document.querySelector('#search input[name=q]');
		i.value = %q;
		i.dispatchEvent(new Event('input', { bubbles: true }));
		return true;
	})()`, q))
	waitMapCond(t, b, 20*time.Second, "the search results for "+q, fmt.Sprintf(
		`document.getElementById('search').dataset.state === 'ready' && document.getElementById('search').dataset.query === %q &&
		!!document.querySelector('#search-results button[data-imo=%q]')`, q, want))
	return js[[][2]string](t, b, `[...document.querySelectorAll('#search-results button')].map((b) => [b.dataset.imo, b.querySelector('.why').textContent])`)
}

// testMapSearch: typing a name and then an IMO lists the API's ranked
// matches, each saying what it matched on; choosing one centres the map
// on the vessel and opens its panel.
func testMapSearch(t *testing.T, env *pageEnv, b *browser, v fleetItem) {
	for _, c := range []struct{ q, field string }{{v.Name, "name"}, {v.IMO, "IMO"}} {
		got := search(t, b, c.q, v.IMO)
		var api struct {
			Vessels []struct {
				IMO     string `json:"imo_number"`
				Matched struct{ Field, Text string }
			}
		}
		r := env.s.Do(t, apptest.Request{Path: "/v1/vessels/search?limit=10&q=" + url.QueryEscape(c.q), Key: env.pro, IP: apptest.FreshIP()})
		apptest.MustUnmarshal(t, r.Body, &api)
		if len(got) != len(api.Vessels) {
			t.Fatalf("search %q: the page lists %d vessels, the API %d", c.q, len(got), len(api.Vessels))
		}
		for i, a := range api.Vessels {
			if got[i][0] != a.IMO || !strings.Contains(got[i][1], "matched ") || !strings.Contains(got[i][1], a.Matched.Text) {
				t.Errorf("search %q, rank %d: the page shows %v, the API %s matched on %s %q", c.q, i+1, got[i], a.IMO, a.Matched.Field, a.Matched.Text)
			}
		}
		for _, g := range got {
			if g[0] == v.IMO && !strings.Contains(g[1], "matched "+c.field) {
				t.Errorf("search %q: %s is listed as %q, want matched %s", c.q, v.IMO, g[1], c.field)
			}
		}
	}
	// Choose it (from a view far away): the map centres on it, its panel opens.
	js[bool](t, b, `(window.__map.map.setView([-40, -120], 3, { animate: false }), true)`)
	b.run(t, 10*time.Second, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#search-results button[data-imo=%q]`, v.IMO))))
	waitMapCond(t, b, 10*time.Second, "the chosen vessel's panel", fmt.Sprintf(`window.__map.selected === %q`, v.IMO))
	c := js[[2]float64](t, b, `(() => { const c = window.__map.map.getCenter(); return [c.lat, c.lng]; })()`)
	at := js[[2]float64](t, b, fmt.Sprintf(`window.__map.latLngOf(%q)`, v.IMO))
	if math.Abs(c[0]-at[0]) > 0.01 || math.Abs(c[1]-at[1]) > 0.01 {
		t.Errorf("the map is centred on %v after choosing %s, at %v", c, v.IMO, at)
	}
}

// trackFeature is GET /v1/vessels/{imo}/track?format=geojson.
type trackFeature struct {
	Geometry *struct {
		Coordinates [][][2]float64 `json:"coordinates"`
	} `json:"geometry"`
	Properties struct {
		Timestamps [][]string `json:"timestamps"`
	} `json:"properties"`
}

// testMapTrack: the selected vessel's track over the 7 days up to its
// newest fix is drawn segment by segment as the API gives it; playback
// moves the marker along the fixes to the last one; the slider puts it on
// the fix of the time chosen.
func testMapTrack(t *testing.T, env *pageEnv, b *browser, v fleetItem) {
	waitMapCond(t, b, 30*time.Second, "the track", fmt.Sprintf(`window.__map.track.imo === %q && window.__map.track.state === 'ready'`, v.IMO))
	dates := js[[2]string](t, b, `[document.querySelector('.track-range input[name=start]').value, document.querySelector('.track-range input[name=end]').value]`)
	newest, _ := time.Parse(time.RFC3339, v.Timestamp)
	if want := [2]string{newest.AddDate(0, 0, -7).Format(time.DateOnly), newest.Format(time.DateOnly)}; dates != want {
		t.Errorf("the track's dates are %v, want the 7 days up to the newest fix %s: %v", dates, v.Timestamp, want)
	}
	type state struct {
		Segments, Fixes int
		Start, End, T   float64
		Playing         bool
		At              *[2]float64
		Path            [][][2]float64
	}
	st := js[state](t, b, `window.__map.track`)
	r := env.s.Do(t, apptest.Request{Path: fmt.Sprintf("/v1/vessels/%s/track?format=geojson&start=%sT00:00:00Z&end=%sT23:59:59Z", v.IMO, dates[0], dates[1]),
		Key: env.pro, IP: apptest.FreshIP()})
	var f trackFeature
	apptest.MustUnmarshal(t, r.Body, &f)
	// The demo goes on: the API may have fixes newer than the page's.
	last := time.UnixMilli(int64(st.End)).UTC()
	var want [][][2]float64
	for s, line := range f.Geometry.Coordinates {
		var seg [][2]float64
		for i, c := range line {
			if ts, _ := time.Parse(time.RFC3339, f.Properties.Timestamps[s][i]); !ts.After(last) {
				seg = append(seg, [2]float64{c[1], c[0]})
			}
		}
		if len(seg) > 0 {
			want = append(want, seg)
		}
	}
	if st.Fixes < 2 || len(st.Path) != len(want) || st.Segments != len(want) {
		t.Fatalf("the page draws %d fixes in %d segments, the API gives %d segments", st.Fixes, len(st.Path), len(want))
	}
	for s := range want {
		if len(st.Path[s]) != len(want[s]) {
			t.Fatalf("segment %d: %d points drawn, the API gives %d", s, len(st.Path[s]), len(want[s]))
		}
		for i, p := range want[s] {
			q := st.Path[s][i]
			if math.Abs(q[0]-p[0]) > 1e-9 || math.Abs(math.Mod(q[1]-p[1]+540, 360)-180) > 1e-9 {
				t.Fatalf("segment %d, fix %d: drawn at %v, the API gives %v", s, i, q, p)
			}
			if i > 0 && math.Abs(q[1]-st.Path[s][i-1][1]) > 180 {
				t.Fatalf("segment %d crosses the whole map between fixes %d and %d", s, i-1, i)
			}
		}
	}

	// Play at the fastest speed: the marker moves, and stops on the last fix.
	js[bool](t, b, `(() => { const s = document.querySelector('.player select[name=speed]'); s.value = s.options[s.options.length - 1].value; return true; })()`)
	b.run(t, 5*time.Second, chromedp.Click(chromedp.CSS(`.player button[name=play]`)))
	waitMapCond(t, b, 5*time.Second, "playback started", `window.__map.track.playing`)
	waitMapCond(t, b, 30*time.Second, "playback at the track's end", `!window.__map.track.playing`)
	st = js[state](t, b, `window.__map.track`)
	end := st.Path[len(st.Path)-1][len(st.Path[len(st.Path)-1])-1]
	if st.T != st.End || st.At == nil || *st.At != end {
		t.Errorf("after playback: time %v (end %v), marker at %v, want the last fix %v", st.T, st.End, st.At, end)
	}
	if text := js[string](t, b, `document.querySelector('.player button[name=play]').textContent`); text != "Play" {
		t.Errorf("the play button says %q after playback ended", text)
	}
	// The slider at a fix's time puts the marker on that fix.
	mid := st.Path[0][len(st.Path[0])/2]
	ts, _ := time.Parse(time.RFC3339, f.Properties.Timestamps[0][len(st.Path[0])/2])
	at := js[[2]float64](t, b, fmt.Sprintf(`(() => {
		const s = document.querySelector('.player input[name=time]');
		s.value = String(%d);
		s.dispatchEvent(new Event('input', { bubbles: true }));
		return window.__map.track.at;
	})()`, ts.UnixMilli()))
	if math.Abs(at[0]-mid[0]) > 1e-9 || math.Abs(at[1]-mid[1]) > 1e-9 {
		t.Errorf("the slider at %s puts the marker at %v, want the fix %v", ts, at, mid)
	}
}

// testMapPrediction: the selected vessel's panel shows its most probable
// next port with the ETA and interval the API gives, and the map draws the
// route from the vessel to that port, the short way: the API's route along
// the sea lanes, or the great circle when the API has none.
func testMapPrediction(t *testing.T, env *pageEnv, b *browser, v fleetItem) {
	type next struct {
		Port     string       `json:"port"`
		PortName string       `json:"port_name"`
		Prob     float64      `json:"probability"`
		ETA      string       `json:"eta"`
		Low      string       `json:"eta_low"`
		High     string       `json:"eta_high"`
		Route    [][2]float64 `json:"route"`
	}
	var ports struct {
		Ports []struct {
			Slug      string
			Latitude  float64
			Longitude float64
		}
	}
	apptest.MustUnmarshal(t, env.s.Do(t, apptest.Request{Path: "/v1/ports", Key: env.pro}).Body, &ports)
	// The predictions job refreshes while the test runs: on a difference
	// the vessel is chosen again, a few times.
	for attempt := 1; ; attempt++ {
		waitMapCond(t, b, 30*time.Second, "the prediction", fmt.Sprintf(`window.__map.prediction.imo === %q && window.__map.prediction.state !== 'loading'`, v.IMO))
		st := js[struct {
			State, Port, ETA, By string
			Path                 [][2]float64
		}](t, b, `window.__map.prediction`)
		var api struct {
			Prediction struct {
				NextPorts []next `json:"next_ports"`
			}
		}
		r := env.s.Do(t, apptest.Request{Path: "/v1/vessels/" + v.IMO + "/prediction", Key: env.pro, IP: apptest.FreshIP()})
		apptest.MustUnmarshal(t, r.Body, &api)
		np := api.Prediction.NextPorts
		sort.SliceStable(np, func(i, j int) bool { return np[i].Prob > np[j].Prob })
		var diffs []string
		if len(np) == 0 || st.State != "ready" || st.Port != np[0].Port || st.ETA != np[0].ETA {
			diffs = append(diffs, fmt.Sprintf("the page shows %s %s (%s), the API %+v", st.Port, st.ETA, st.State, np))
		} else {
			text := js[string](t, b, `document.querySelector('#panel .prediction').textContent`)
			for _, s := range []string{np[0].PortName, strings.Replace(np[0].ETA[:16], "T", " ", 1), strings.Replace(np[0].Low[:16], "T", " ", 1), strings.Replace(np[0].High[:16], "T", " ", 1)} {
				if !strings.Contains(text, s) {
					diffs = append(diffs, fmt.Sprintf("the panel's prediction %q lacks %q", text, s))
				}
			}
			// The route is the API's along the sea lanes when it gives one,
			// else the great circle to the port.
			if route := np[0].Route; len(route) > 1 {
				if st.By != "sea lanes" || len(st.Path) != len(route) {
					diffs = append(diffs, fmt.Sprintf("the route drawn (%s) has %d points, the API's %d", st.By, len(st.Path), len(route)))
				}
				for i := 0; i < len(route) && i < len(st.Path); i++ {
					if math.Abs(st.Path[i][0]-route[i][0]) > 1e-9 || math.Abs(math.Mod(st.Path[i][1]-route[i][1]+540, 360)-180) > 1e-9 {
						diffs = append(diffs, fmt.Sprintf("route point %d drawn at %v, the API gives %v", i, st.Path[i], route[i]))
						break
					}
				}
			} else if st.By != "great circle" {
				diffs = append(diffs, fmt.Sprintf("no route in the API's answer, the page draws %q", st.By))
			}
			for _, p := range ports.Ports {
				if p.Slug != np[0].Port || len(np[0].Route) > 1 {
					continue
				}
				first, end := st.Path[0], st.Path[len(st.Path)-1]
				at := js[[2]float64](t, b, fmt.Sprintf(`window.__map.latLngOf(%q)`, v.IMO))
				if math.Abs(first[0]-at[0]) > 1e-6 || math.Abs(first[1]-at[1]) > 1e-6 ||
					math.Abs(end[0]-p.Latitude) > 1e-6 || math.Abs(math.Mod(end[1]-p.Longitude+540, 360)-180) > 1e-6 {
					diffs = append(diffs, fmt.Sprintf("the route runs %v → %v, want the vessel %v → the port %v", first, end, at, [2]float64{p.Latitude, p.Longitude}))
				}
				for i := 1; i < len(st.Path); i++ {
					if math.Abs(st.Path[i][1]-st.Path[i-1][1]) > 180 {
						diffs = append(diffs, "the route crosses the whole map")
						break
					}
				}
			}
		}
		if len(diffs) == 0 {
			t.Logf("%s: next port %s, ETA %s, the route drawn by %s (%d points)", v.IMO, st.Port, st.ETA, st.By, len(st.Path))
			return
		}
		if attempt == 3 {
			t.Fatalf("prediction of %s:\n%s", v.IMO, strings.Join(diffs, "\n"))
		}
		t.Logf("attempt %d: %v; choosing the vessel again", attempt, diffs)
		search(t, b, v.IMO, v.IMO)
		b.run(t, 10*time.Second, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#search-results button[data-imo=%q]`, v.IMO))))
	}
}
