package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"overwatch/apptest"
	"overwatch/maritime/forecast"
	"overwatch/maritime/river"
	"overwatch/maritime/trade"
	"overwatch/testclock"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// The dashboard's browser test, continued: what the charts hold against
// what the API answers, and the rows the 3-day demo offline cannot give
// (forecasts, anomalies, completed voyages, river gauge readings), written
// through the store as their jobs write them.

// compareDashboard fetches, with the Pro key, the endpoints the charts of
// port were drawn from and returns how the arrays uPlot holds differ from
// the API's numbers.
func compareDashboard(t *testing.T, env *pageEnv, b *browser, port string) []string {
	t.Helper()
	plotted := func(name string) (paths []string, data [][]*float64, labels []string) {
		var st struct {
			Paths  []string
			Data   [][]*float64
			Labels []string
		}
		raw := js[json.RawMessage](t, b, fmt.Sprintf(`(() => { const c = window.__charts[%q]; return { paths: c.paths, data: c.plot.data, labels: c.labels }; })()`, name))
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatalf("chart %s: %v", name, err)
		}
		return st.Paths, st.Data, st.Labels
	}
	get := func(path string, v any) {
		resp := env.s.Do(t, apptest.Request{Path: "/v1" + path, Key: env.pro})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, resp.Body)
		}
		if err := json.Unmarshal(resp.Body, v); err != nil {
			t.Fatal(err)
		}
	}
	var diffs []string
	check := func(name, what string, got [][]*float64, want ...[]*float64) {
		if !reflect.DeepEqual(got, want) {
			diffs = append(diffs, fmt.Sprintf("%s %s: plotted %s, API %s", name, what, floats(got), floats(want)))
		}
	}

	// Congestion: the days and the vessels at anchor, at berth, arriving
	// and departing, the median wait.
	paths, data, _ := plotted("congestion")
	if want := "/congestion/history?port=" + port + "&days=30"; !slices.Equal(paths, []string{want}) {
		t.Fatalf("the congestion chart called %v, want %s", paths, want)
	}
	var cong struct {
		History []struct {
			Date                 string
			Waiting              float64
			AtBerth              float64 `json:"at_berth"`
			Arrivals, Departures float64
			MedianWait           *float64 `json:"median_wait_hours"`
		}
	}
	get(paths[0], &cong)
	var days [6][]*float64
	for _, d := range cong.History {
		day, err := time.Parse(time.DateOnly, d.Date)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range []*float64{apptest.Ptr(float64(day.Unix())), apptest.Ptr(d.Waiting), apptest.Ptr(d.AtBerth), apptest.Ptr(d.Arrivals), apptest.Ptr(d.Departures), d.MedianWait} {
			days[i] = append(days[i], v)
		}
	}
	check("congestion", "days, waiting, at berth, arrivals, departures, median wait", data, days[:]...)

	// Fleet age: the vessels per age bucket, labelled by the buckets.
	paths, data, labels := plotted("fleetAge")
	var age struct {
		FleetAge []struct {
			Buckets []struct {
				Bucket  string
				Vessels float64
			}
		} `json:"fleet_age"`
	}
	get(paths[0], &age)
	var idx, vessels []*float64
	var wantLabels []string
	for i, bk := range age.FleetAge[0].Buckets {
		idx, vessels = append(idx, apptest.Ptr(float64(i))), append(vessels, apptest.Ptr(bk.Vessels))
		wantLabels = append(wantLabels, bk.Bucket+" y")
	}
	check("fleetAge", "vessels by bucket", data, idx, vessels)
	if !slices.Equal(labels, wantLabels) {
		diffs = append(diffs, fmt.Sprintf("fleetAge labels %v, API buckets %v", labels, wantLabels))
	}

	// Estimates: per week (oldest first) the tonnage, the calibrated
	// tonnage and the official actuals (null when none were imported).
	paths, data, _ = plotted("estimates")
	var est struct {
		Estimates []struct {
			WeekStart         string   `json:"week_start"`
			Tonnage           float64  `json:"tonnage"`
			CalibratedTonnage float64  `json:"calibrated_tonnage"`
			Actuals           *float64 `json:"usda_actuals"`
		}
	}
	get(paths[0], &est)
	var cols [4][]*float64
	for i := len(est.Estimates) - 1; i >= 0; i-- {
		e := est.Estimates[i]
		w, err := time.Parse(time.DateOnly, e.WeekStart)
		if err != nil {
			t.Fatal(err)
		}
		cols[0] = append(cols[0], apptest.Ptr(float64(w.Unix())))
		cols[1] = append(cols[1], apptest.Ptr(e.Tonnage))
		cols[2] = append(cols[2], apptest.Ptr(e.CalibratedTonnage))
		cols[3] = append(cols[3], e.Actuals)
	}
	check("estimates", "weeks, tonnage, calibrated, actuals", data, cols[:]...)

	// The exports chart: on one axis of weeks, the estimated tonnes (the
	// estimates again), the forecast with its interval and the anomalies'
	// observed tonnes.
	paths, data, _ = plotted("forecast")
	var fc struct {
		Forecasts []struct {
			WeekStart            string `json:"week_start"`
			Tonnes, Lower, Upper float64
		}
	}
	var an struct {
		Anomalies []struct {
			WeekStart string `json:"week_start"`
			Observed  float64
		}
	}
	get(paths[1], &fc)
	get(paths[2], &an)
	if len(fc.Forecasts) == 0 || len(an.Anomalies) == 0 {
		t.Fatalf("no forecast or anomaly for %s: %s, %s", port, paths[1], paths[2])
	}
	want := map[int64][5]*float64{}
	weekOf := func(s string) int64 {
		w, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return w.Unix()
	}
	for i, x := range cols[0] {
		w := want[int64(*x)]
		w[0] = cols[1][i]
		want[int64(*x)] = w
	}
	for _, f := range fc.Forecasts {
		w := want[weekOf(f.WeekStart)]
		w[1], w[2], w[3] = apptest.Ptr(f.Tonnes), apptest.Ptr(f.Lower), apptest.Ptr(f.Upper)
		want[weekOf(f.WeekStart)] = w
	}
	for _, a := range an.Anomalies {
		w := want[weekOf(a.WeekStart)]
		w[4] = apptest.Ptr(a.Observed)
		want[weekOf(a.WeekStart)] = w
	}
	weeks := make([]int64, 0, len(want))
	for x := range want {
		weeks = append(weeks, x)
	}
	slices.Sort(weeks)
	exports := make([][]*float64, 6)
	for _, x := range weeks {
		exports[0] = append(exports[0], apptest.Ptr(float64(x)))
		for i, v := range want[x] {
			exports[i+1] = append(exports[i+1], v)
		}
	}
	check("forecast", "weeks, estimates, forecast, lower, upper, anomalies", data, exports...)

	// Flows: per week, the tonnes to each destination (the 5 largest by
	// name, the rest as "Other"; here there are 2).
	paths, data, _ = plotted("flows")
	var flows struct {
		Flows []struct {
			WeekStart       string `json:"week_start"`
			DestinationName string `json:"destination_name"`
			Tonnes          float64
		}
	}
	get(paths[0], &flows)
	byDest := map[string]float64{}
	weekSet := map[int64]bool{}
	for _, f := range flows.Flows {
		byDest[f.DestinationName] += f.Tonnes
		weekSet[weekOf(f.WeekStart)] = true
	}
	if len(byDest) < 2 || len(byDest) > 5 {
		t.Fatalf("%d destinations from %s: the test expects 2 to 5", len(byDest), port)
	}
	names := make([]string, 0, len(byDest))
	for n := range byDest {
		names = append(names, n)
	}
	slices.SortStableFunc(names, func(a, b string) int { return -cmpF(byDest[a], byDest[b]) })
	fweeks := make([]int64, 0, len(weekSet))
	for w := range weekSet {
		fweeks = append(fweeks, w)
	}
	slices.Sort(fweeks)
	fcols := make([][]*float64, len(names)+1)
	for i, w := range fweeks {
		fcols[0] = append(fcols[0], apptest.Ptr(float64(w)))
		for k := range names {
			fcols[k+1] = append(fcols[k+1], nil)
		}
		for _, f := range flows.Flows {
			if weekOf(f.WeekStart) == w {
				k := slices.Index(names, f.DestinationName) + 1
				if fcols[k][i] == nil {
					fcols[k][i] = apptest.Ptr(0.0)
				}
				*fcols[k][i] += f.Tonnes
			}
		}
	}
	check("flows", "weeks, tonnes by destination", data, fcols...)
	if got := js[[]string](t, b, `window.__charts.flows.plot.series.slice(1).map((s) => s.label)`); !slices.Equal(got, names) {
		diffs = append(diffs, fmt.Sprintf("flows series %v, API destinations by tonnes %v", got, names))
	}

	// River levels: per gauge its level, flood stage and low-water mark.
	paths, data, labels = plotted("river")
	var rv struct {
		Readings []struct {
			Name  string
			Level float64  `json:"level_ft"`
			Flood *float64 `json:"flood_stage_ft"`
			LowFt *float64 `json:"low_ft"`
		}
	}
	get(paths[0], &rv)
	rcols := make([][]*float64, 4)
	var gauges []string
	for i, r := range rv.Readings {
		rcols[0], rcols[1] = append(rcols[0], apptest.Ptr(float64(i))), append(rcols[1], apptest.Ptr(r.Level))
		rcols[2], rcols[3] = append(rcols[2], r.Flood), append(rcols[3], r.LowFt)
		gauges = append(gauges, strings.SplitN(r.Name, ",", 2)[0])
	}
	check("river", "level, flood stage, low water by gauge", data, rcols...)
	if !slices.Equal(labels, gauges) {
		diffs = append(diffs, fmt.Sprintf("river labels %v, API gauges %v", labels, gauges))
	}
	return diffs
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// injectSignals writes, through the store, two weeks of completed voyages
// from port to two other ports (as the trade_routes job does) and gauge
// readings of three river gauges (as the river_levels job does): offline
// and over 3 days the demo has neither.
func injectSignals(t *testing.T, env *pageEnv, port string) {
	t.Helper()
	var ports struct{ Ports []struct{ Slug string } }
	if err := json.Unmarshal(env.s.Do(t, apptest.Request{Path: "/v1/ports", Key: env.pro}).Body, &ports); err != nil {
		t.Fatal(err)
	}
	var dests []string
	for _, p := range ports.Ports {
		if p.Slug != port && len(dests) < 2 {
			dests = append(dests, p.Slug)
		}
	}
	now := testclock.Now().UTC()
	monday := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -(int(now.Weekday())+6)%7)
	weeks := []time.Time{monday.AddDate(0, 0, -14), monday.AddDate(0, 0, -7)}
	flows := []trade.Flow{
		{Week: weeks[0], Origin: port, Destination: dests[0], Commodity: "grain", Vessels: 2, Voyages: 2, Tonnes: 120000, MedianTransitDays: 18.5},
		{Week: weeks[0], Origin: port, Destination: dests[1], Commodity: "grain", Vessels: 1, Voyages: 1, Tonnes: 45000, MedianTransitDays: 9},
		{Week: weeks[1], Origin: port, Destination: dests[0], Commodity: "grain", Vessels: 1, Voyages: 1, Tonnes: 62000, MedianTransitDays: 17},
	}
	ctx := context.Background()
	if err := env.s.Ch.WriteRouteFlows(ctx, uint64(now.Add(24*time.Hour).UnixNano()), weeks, flows); err != nil {
		t.Fatal(err)
	}
	at := now.Add(-30 * time.Minute).Truncate(15 * time.Minute)
	var readings []river.Reading
	for site, ft := range map[string]float64{"07010000": 12.3, "07032000": -6.2, "07374000": 8.1} {
		for _, back := range []time.Duration{0, 24 * time.Hour} {
			readings = append(readings, river.Reading{Site: site, Parameter: river.ParamGageHeight, Time: at.Add(-back),
				Value: ft - back.Hours()/24, Qualifiers: []string{"P"}, Source: "nwis-iv"})
		}
	}
	if err := env.s.Ch.InsertRiverReadings(ctx, readings); err != nil {
		t.Fatal(err)
	}
}

// injectForecasts writes forecasts (4 weeks ahead, with their 95%
// interval) and a volume anomaly for port through the store, as the
// forecasts job does: the 3 days of the demo are too short a history for
// either. Their generation is a day ahead, so that the job's own runs
// during the test do not replace them.
func injectForecasts(t *testing.T, env *pageEnv, port string) {
	t.Helper()
	now := testclock.Now().UTC()
	monday := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -(int(now.Weekday())+6)%7)
	origin := monday.AddDate(0, 0, -7)
	var fcs []forecast.Forecast
	for h := 1; h <= 4; h++ {
		tonnes := 40000 + 2500*float64(h)
		fcs = append(fcs, forecast.Forecast{Port: port, Method: "statistical", Model: "holt_linear", Origin: origin,
			Week: origin.AddDate(0, 0, 7*h), Horizon: h, Tonnes: tonnes, Lower: tonnes - 8000*math.Sqrt(float64(h)),
			Upper: tonnes + 8000*math.Sqrt(float64(h)), Vessels: 2.5, HistoryWeeks: 1})
	}
	gen := uint64(now.Add(24 * time.Hour).UnixNano())
	ctx := context.Background()
	if err := env.s.Ch.WriteForecasts(ctx, gen, fcs, nil); err != nil {
		t.Fatal(err)
	}
	anomaly := forecast.Anomaly{Port: port, Type: "trailing", Week: origin, Expected: 30000, Observed: 61000, DeviationPct: 103.3,
		Z: 2.6, Lower: math.NaN(), Upper: math.NaN(), Direction: "surge", Severity: "critical", References: 8}
	if err := env.s.Ch.WriteAnomalies(ctx, gen, []forecast.Anomaly{anomaly}, nil); err != nil {
		t.Fatal(err)
	}
}

// floats prints columns of optional numbers ("-" for null).
func floats(cols [][]*float64) string {
	var b strings.Builder
	for _, col := range cols {
		b.WriteString("[")
		for i, v := range col {
			if i > 0 {
				b.WriteString(" ")
			}
			if v == nil {
				b.WriteString("-")
			} else {
				fmt.Fprint(&b, *v)
			}
		}
		b.WriteString("]")
	}
	return b.String()
}
