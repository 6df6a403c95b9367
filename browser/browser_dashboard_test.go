package browser

import (
	"encoding/json"
	"fmt"
	"net/http"
	"overwatch/apptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The charts of /dashboard (web/src/dashboard/main.js), in the order the
// page shows them.
var dashboardCharts = []string{"congestion", "berths", "fleetAge", "estimates", "forecast", "flows", "river"}

// testDashboardPage: /dashboard loads with no page errors; with the Pro
// key every chart draws, and holds the numbers the API answers for the
// same port (the demo's congestion, fleet age and estimates; forecasts,
// an anomaly, trade flows and river readings the 3-day demo has not,
// written through the store first); the pickers reload the charts of
// another port and method; a "Download CSV" fetches the export path, which
// answers 200 text/csv, as every CSV button's path does; with a Free key
// the API's errors (403 for CSV export, 429 once its daily requests are
// used up) show in the chart's card with the API's message.
func testDashboardPage(t *testing.T, env *pageEnv) {
	// The port shown: one with a weekly estimate (the derivations that
	// follow the demo's backfill may still be running).
	var port string
	apptest.Eventually(t, 120*time.Second, "the weekly estimates", func() bool {
		var est struct{ Estimates []struct{ Port string } }
		if resp := env.s.Do(t, apptest.Request{Path: "/v1/estimates?limit=200", Key: env.pro}); json.Unmarshal(resp.Body, &est) == nil && len(est.Estimates) > 0 {
			port = est.Estimates[0].Port
		}
		return port != ""
	})
	injectForecasts(t, env, port)
	injectSignals(t, env, port)
	page := "/dashboard?port=" + port
	b := newBrowser(t, env, 1280, 1900)
	b.open(t, page)
	b.setKey(t, env.pro)

	// The charts hold the API's numbers. The simulation goes on while the
	// test runs, so a derivation may land between the page's request and
	// ours: then the page is loaded again (at most 3 times).
	for attempt := 1; ; attempt++ {
		waitDashboard(t, b)
		if shown := js[string](t, b, `document.querySelector('select[name=port]').value`); shown != port {
			t.Fatalf("the port picker shows %q, want %q (from the URL)", shown, port)
		}
		states := js[map[string]string](t, b, `Object.fromEntries(Object.entries(window.__charts).map(([k, v]) => [k, v.state]))`)
		for _, name := range dashboardCharts {
			if s := states[name]; s != "ok" && s != "empty" {
				t.Fatalf("chart %s: state %q with the Pro key (error: %v)", name, s,
					js[any](t, b, fmt.Sprintf(`window.__charts[%q].error`, name)))
			}
		}
		for _, name := range []string{"congestion", "fleetAge", "estimates", "forecast", "flows", "river"} {
			if states[name] != "ok" {
				t.Fatalf("chart %s of %s has no data (states %v): the demo should give it some", name, port, states)
			}
		}
		diffs := compareDashboard(t, env, b, port)
		if len(diffs) == 0 {
			break
		}
		if attempt == 3 {
			t.Fatalf("the charts of %s do not hold the API's numbers:\n%s", port, strings.Join(diffs, "\n"))
		}
		t.Logf("attempt %d: %v; reloading", attempt, diffs)
		b.open(t, page)
	}
	// uPlot drew them: a canvas per chart with data, of the card's width.
	if n := js[int](t, b, `document.querySelectorAll('.dash-card[data-state=ok] canvas').length`); n < 3 {
		t.Errorf("%d canvases drawn", n)
	}
	publishScreenshot(t, b.screenshot(t, "dashboard"), "dashboard.png")

	// The pickers: another port and another forecast method reload the
	// charts from the endpoints of that port and method.
	other := js[string](t, b, fmt.Sprintf(`(() => {
		const sel = document.querySelector('select[name=port]');
		const other = [...sel.options].map((o) => o.value).find((v) => v !== %q);
		sel.value = other;
		sel.dispatchEvent(new Event('change'));
		return other;
	})()`, port))
	waitDashboard(t, b)
	js[bool](t, b, `(() => {
		const sel = document.querySelector('select[name=method]');
		sel.value = 'ml';
		sel.dispatchEvent(new Event('change'));
		return true;
	})()`)
	waitDashboard(t, b)
	if got := js[[]string](t, b, `window.__charts.forecast.paths`); len(got) != 3 ||
		got[1] != "/forecasts?port="+other+"&method=ml&limit=200" || got[0] != "/estimates?port="+other+"&limit=52" {
		t.Errorf("after picking %s and ml, the forecast chart called %v", other, got)
	}
	if got := js[[]string](t, b, `window.__charts.congestion.paths`); !slices.Equal(got, []string{"/congestion/history?port=" + other + "&days=30"}) {
		t.Errorf("after picking %s, the congestion chart called %v", other, got)
	}
	b.open(t, page) // back to the port with the forecasts, for the downloads
	waitDashboard(t, b)

	// A CSV download goes through the export path: record what fetch answers.
	js[bool](t, b, `(() => {
		window.__fetches = [];
		const orig = window.fetch;
		window.fetch = async (...args) => {
			const resp = await orig(...args);
			const text = await resp.clone().text();
			window.__fetches.push({ url: String(args[0]), status: resp.status, type: resp.headers.get('Content-Type') || '',
				disposition: resp.headers.get('Content-Disposition') || '', head: text.split('\r\n')[0] });
			return resp;
		};
		return true;
	})()`)
	b.run(t, 10*time.Second, chromedp.Click(chromedp.CSS(`.dash-card[data-chart=estimates] .dash-csv button`)))
	got := pollJS[struct {
		URL, Type, Disposition, Head string
		Status                       int
	}](t, b, `window.__charts.estimates.downloaded && window.__fetches.find((f) => f.url.startsWith('/v1/export'))`)
	wantURL := "/v1/export?type=estimates&port=" + port + "&limit=10000"
	if got.URL != wantURL || got.Status != http.StatusOK || !strings.HasPrefix(got.Type, "text/csv") ||
		!strings.Contains(got.Disposition, "overwatch-estimates-"+port+"-") ||
		got.Head != "port,iso_year,iso_week,week_start,vessels,calls,calls_with_draught,tonnage,confidence,usda_actuals" {
		t.Errorf("the estimates CSV download fetched %+v, want %s: 200 text/csv with the estimates' header", got, wantURL)
	}
	// Every chart's CSV buttons name export paths that answer the Pro key
	// a CSV file.
	for _, path := range js[[]string](t, b, `[...document.querySelectorAll('.dash-csv button[data-path]')].map((b) => b.dataset.path)`) {
		resp := env.s.Do(t, apptest.Request{Path: "/v1" + path, Key: env.pro})
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
			t.Errorf("CSV button's %s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	b.noErrors(t)

	// A Free key: the charts show what the API answers it (its 7 days of
	// history, or the API's error in the chart's place), and the CSV
	// download's 403 shows in the card with the API's message.
	b.setKey(t, env.free)
	waitDashboard(t, b)
	for _, name := range dashboardCharts {
		st := js[struct {
			State string
			Paths []string
			Error *struct {
				Status  int
				Message string
			}
		}](t, b, fmt.Sprintf(`window.__charts[%q]`, name))
		if st.State != "error" || len(st.Paths) == 0 {
			continue
		}
		resp := env.s.Do(t, apptest.Request{Path: "/v1" + st.Paths[len(st.Paths)-1], Key: env.free})
		if st.Error == nil || resp.StatusCode != st.Error.Status || apiError(resp) != st.Error.Message {
			t.Errorf("chart %s shows %+v; the API answers the Free key %d %q", name, st.Error, resp.StatusCode, apiError(resp))
		}
		if shown := js[string](t, b, fmt.Sprintf(`document.querySelector('.dash-card[data-chart=%s] .dash-msg').textContent`, name)); !strings.Contains(shown, st.Error.Message) {
			t.Errorf("chart %s shows %q, not the API's message", name, shown)
		}
	}
	b.run(t, 10*time.Second, chromedp.Click(chromedp.CSS(`.dash-card[data-chart=estimates] .dash-csv button`)))
	csvErr := pollJS[struct {
		Status  int
		Message string
	}](t, b, `window.__charts.estimates.csvError`)
	path := js[string](t, b, `document.querySelector('.dash-card[data-chart=estimates] .dash-csv button').dataset.path`)
	resp := env.s.Do(t, apptest.Request{Path: "/v1" + path, Key: env.free})
	if resp.StatusCode != http.StatusForbidden || csvErr.Status != resp.StatusCode || csvErr.Message != apiError(resp) {
		t.Errorf("Free key's CSV download: page has %+v, the API answers %d %q", csvErr, resp.StatusCode, apiError(resp))
	}
	note := js[string](t, b, `document.querySelector('.dash-card[data-chart=estimates] .dash-note').textContent`)
	if !strings.Contains(note, apiError(resp)) {
		t.Errorf("the estimates card says %q, not the API's message %q", note, apiError(resp))
	}
	b.screenshot(t, "dashboard-free")

	// Once the Free plan's daily requests are used up, every chart shows
	// the API's 429 and its message in its place.
	var limited apptest.Response
	for range 100 {
		if limited = env.s.Do(t, apptest.Request{Path: "/v1/ports", Key: env.free}); limited.StatusCode == http.StatusTooManyRequests {
			break
		}
	}
	if limited.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the Free key still gets %d after 100 requests", limited.StatusCode)
	}
	b.open(t, page) // the tab keeps the key
	waitDashboard(t, b)
	for _, name := range dashboardCharts {
		st := js[struct {
			State string
			Error *struct {
				Status  int
				Message string
			}
		}](t, b, fmt.Sprintf(`window.__charts[%q]`, name))
		if st.State != "error" || st.Error == nil || st.Error.Status != http.StatusTooManyRequests || st.Error.Message != apiError(limited) {
			t.Errorf("chart %s over the Free plan's daily requests: %+v, want the API's 429 %q", name, st, apiError(limited))
			continue
		}
		if shown := js[string](t, b, fmt.Sprintf(`document.querySelector('.dash-card[data-chart=%s] .dash-msg').textContent`, name)); !strings.Contains(shown, apiError(limited)) {
			t.Errorf("chart %s shows %q, not the API's message", name, shown)
		}
	}
	b.screenshot(t, "dashboard-limited")
	// An API error answer logs the browser's "Failed to load resource: the
	// server responded with a status of 4xx": those were checked above; any
	// other error is not expected.
	var unexpected []string
	for _, e := range b.errors() {
		if !strings.Contains(e, "responded with a status of 4") {
			unexpected = append(unexpected, e)
		}
	}
	if len(unexpected) > 0 {
		t.Errorf("the page reported %d errors:\n%s", len(unexpected), strings.Join(unexpected, "\n"))
	}
}

// waitDashboard waits until every chart of the page has loaded (drawn,
// empty or failed).
func waitDashboard(t *testing.T, b *browser) {
	t.Helper()
	ready := `document.body.dataset.ready === 'true' && Object.keys(window.__charts).length === ` + fmt.Sprint(len(dashboardCharts))
	for deadline := time.Now().Add(30 * time.Second); !js[bool](t, b, ready); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the dashboard did not load in 30 s: %v (page errors: %v)", js[any](t, b, `({ready: document.body.dataset.ready,
				status: document.getElementById('status').textContent,
				charts: Object.fromEntries(Object.entries(window.__charts || {}).map(([k, v]) => [k, v.state]))})`), b.errors())
		}
	}
}

// pollJS evaluates expr in the page until it is truthy (at most 30 s) and
// decodes that value.
func pollJS[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	return evalIn(t, b, 30*time.Second, chromedp.Poll[T](expr, chromedp.WithPollingTimeout(30*time.Second)))
}

// apiError is the message of an error answer ({"error": "..."}).
func apiError(r apptest.Response) string {
	var e struct{ Error string }
	_ = json.Unmarshal(r.Body, &e)
	return e.Error
}
