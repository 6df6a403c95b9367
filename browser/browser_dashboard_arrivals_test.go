package browser

import (
	"fmt"
	"math"
	"overwatch/apptest"
	"strings"
	"testing"
	"time"
)

// testDashboardArrivals: /dashboard shows the picked port's expected
// arrivals of the next 7 days as the API gives them (vessel, category,
// DWT, ETA with its interval, probability), and another port's when the
// picker changes.
func testDashboardArrivals(t *testing.T, env *pageEnv) {
	type arrival struct {
		IMO      string   `json:"imo_number"`
		Name     *string  `json:"name"`
		Category *string  `json:"category"`
		DWT      *float64 `json:"dwt"`
		Prob     float64  `json:"probability"`
		ETA      string   `json:"eta"`
		Low      string   `json:"eta_low"`
		High     string   `json:"eta_high"`
	}
	arrivals := func(port string) []arrival {
		var r struct{ Arrivals []arrival }
		resp := env.s.Do(t, apptest.Request{Path: "/v1/ports/" + port + "/arrivals?days=7", Key: env.pro, IP: apptest.FreshIP()})
		if resp.StatusCode != 200 {
			t.Fatalf("/v1/ports/%s/arrivals: %d %s", port, resp.StatusCode, resp.Body)
		}
		apptest.MustUnmarshal(t, resp.Body, &r)
		return r.Arrivals
	}
	var ports struct{ Ports []struct{ Slug string } }
	apptest.MustUnmarshal(t, env.s.Do(t, apptest.Request{Path: "/v1/ports", Key: env.pro}).Body, &ports)
	// The port shown: the one with the most expected arrivals; another
	// with none, to switch to.
	port, empty, most := "", "", 0
	apptest.Eventually(t, 120*time.Second, "a port with expected arrivals", func() bool {
		for _, p := range ports.Ports {
			n := len(arrivals(p.Slug))
			if n > most {
				port, most = p.Slug, n
			}
			if n == 0 && empty == "" {
				empty = p.Slug
			}
		}
		return port != ""
	})

	b := newBrowser(t, env, 1280, 1900)
	b.open(t, "/dashboard?port="+port)
	b.setKey(t, env.pro)
	type row struct {
		IMO, Vessel, ETA, Low, High string
		Category                    *string
		DWT                         *float64
		Probability                 float64
	}
	for attempt := 1; ; attempt++ {
		waitDashboard(t, b)
		st := js[struct {
			State, Path string
			Rows        []struct {
				IMO, Vessel, ETA, Eta_low, Eta_high string
				Category                            *string
				DWT                                 *float64
				Probability                         float64
			}
		}](t, b, `window.__arrivals`)
		api := arrivals(port)
		var diffs []string
		if st.State != "ok" || st.Path != "/ports/"+port+"/arrivals?days=7" || len(st.Rows) != len(api) {
			diffs = append(diffs, fmt.Sprintf("the card is %s (%s) with %d rows, the API gives %d", st.State, st.Path, len(st.Rows), len(api)))
		} else {
			for i, a := range api {
				r := st.Rows[i]
				page := fmt.Sprint(r.IMO, r.ETA, r.Eta_low, r.Eta_high, r.Probability, optional(r.Category), optional(r.DWT))
				if want := fmt.Sprint(a.IMO, a.ETA, a.Low, a.High, a.Prob, optional(a.Category), optional(a.DWT)); page != want {
					diffs = append(diffs, fmt.Sprintf("row %d: %s, the API %s", i, page, want))
				}
			}
		}
		if len(diffs) == 0 {
			break
		}
		if attempt == 3 {
			t.Fatalf("the arrivals of %s:\n%s", port, strings.Join(diffs, "\n"))
		}
		t.Logf("attempt %d: %v; reloading", attempt, diffs)
		b.open(t, "/dashboard?port="+port)
	}
	// The table shows them: a row per arrival, with the ETA, its interval
	// and the probability in percent.
	cells := js[[][]string](t, b, `[...document.querySelectorAll('.dash-card[data-chart=arrivals] tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))`)
	rows := js[[]row](t, b, `window.__arrivals.rows.map((r) => ({ imo: r.imo, vessel: r.vessel, eta: r.eta, low: r.eta_low, high: r.eta_high, probability: r.probability }))`)
	if len(cells) != len(rows) || len(cells) == 0 {
		t.Fatalf("%d table rows for %d arrivals", len(cells), len(rows))
	}
	for i, r := range rows {
		c := strings.Join(cells[i], " | ")
		for _, s := range []string{r.IMO, strings.Replace(r.ETA[:16], "T", " ", 1), strings.Replace(r.Low[:16], "T", " ", 1),
			strings.Replace(r.High[:16], "T", " ", 1), fmt.Sprintf("%d%%", int(math.Round(r.Probability*100)))} {
			if !strings.Contains(c, s) {
				t.Errorf("table row %d %q lacks %q", i, c, s)
			}
		}
	}
	b.screenshot(t, "dashboard-arrivals")
	// Another port, with no arrival expected: the card says so.
	if empty != "" {
		js[bool](t, b, fmt.Sprintf(`(() => { const s = document.querySelector('select[name=port]'); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, empty))
		waitDashboard(t, b)
		if st := js[string](t, b, `window.__arrivals.state + ' ' + window.__arrivals.path`); st != "empty /ports/"+empty+"/arrivals?days=7" && len(arrivals(empty)) == 0 {
			t.Errorf("port %s with no expected arrival: the card is %q", empty, st)
		}
	}
	b.noErrors(t)
}

// optional prints an optional value ("null" for none).
func optional[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
