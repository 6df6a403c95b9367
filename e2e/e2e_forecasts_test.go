package e2e

import (
	"context"
	"encoding/csv"
	"math"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/forecast"
	"overwatch/maritime/seaport"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// fcPort is the port of the forecast fixtures.
const fcPort = "bahia-blanca"

// fcTonnes is week i of the fixture series: a harvest season over a
// rising base, with a small deterministic wobble.
func fcTonnes(i int) float64 {
	season := 30000 * math.Max(0, math.Sin(2*math.Pi*(float64(i%forecast.Season)-10)/forecast.Season))
	return 50000 + 100*float64(i) + season + 2000*math.Sin(float64(i)*2.3)
}

// The forecasts and anomalies end to end, on their own databases: two
// years of weekly estimates at one busy port (a seasonal series with two
// injected drops to one vessel, one in the last complete week) and the week in
// progress, two calls in progress and a vessel heading to the port;
// `overwatch jobs --job forecasts` and `--job anomalies`; the four
// endpoints read back what they derived, by slug and UUID, with their
// filters, CSV (Starter and above) and the Free plan's clamps. Responses
// are validated against the OpenAPI document by s.do.
func TestForecastsEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	// The server and the jobs run at noon on the Wednesday of the tests'
	// week (OVERWATCH_CLOCK_START): the pipeline's vessels have half a
	// week to leave in, whatever the weekday and hour the suite runs at
	// (late on a Saturday their chance of leaving within the week is
	// near 0).
	now := mondayOf(testclock.Now()).Add(60 * time.Hour)
	env := map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "e2e_fc"), "DATABASE_URL": pgtest.URL(t, "e2e_fc"), "OVERWATCH_LOG_LEVEL": "warn",
		"OVERWATCH_CLOCK_START": now.Format(time.RFC3339)}
	s := apptest.StartServer(t, env)
	ctx := context.Background()
	last := mondayOf(now).AddDate(0, 0, -7)
	const n = 104 // complete weeks; week n is in progress
	oldDrop, newDrop := n-13, n-1
	week := func(i int) time.Time { return last.AddDate(0, 0, 7*(i-n+1)) }
	tonnes := func(i int) float64 {
		if i == oldDrop || i == newDrop {
			return fcTonnes(i) * 0.3
		}
		return fcTonnes(i)
	}
	gen := uint64(time.Now().UnixNano())
	var rows [][]any
	for i := 0; i <= n; i++ {
		y, w := week(i).ISOWeek()
		vessels := uint32(tonnes(i) / 5000) // a busy port: 10 to 17 vessels a week
		if i == oldDrop || i == newDrop {
			vessels = 1 // and one in the weeks of the drops
		}
		rows = append(rows, []any{week(i), gen, fcPort, uint16(y), uint8(w), vessels, uint32(3), uint32(3), tonnes(i), 0.9})
	}
	s.Fx.Insert(t, "estimates_weekly", strings.Split("day,gen,port,iso_year,iso_week,vessels,calls,calls_with_draught,tonnage,confidence", ","), rows...)
	for i := 0; i <= n; i++ {
		s.Fx.RecordGeneration(t, "estimates_weekly", week(i), gen)
	}
	h := func(hours int) time.Time { return now.Add(time.Duration(hours) * time.Hour).Truncate(time.Second) }
	s.Fx.InsertPortCalls(t, gen,
		chtest.PortCall{IMO: apptest.NextIMO(), Port: fcPort, Arrival: h(-30), Confidence: 3, Operation: "load", BerthZone: "bahia-blanca-berth-1", BerthStart: apptest.Ptr(h(-20))},
		chtest.PortCall{IMO: apptest.NextIMO(), Port: fcPort, Arrival: h(-6), Confidence: 3, Operation: "unknown"})
	s.Fx.RecordGeneration(t, "port_calls", h(-30), gen)
	s.Fx.RecordGeneration(t, "port_calls", h(-6), gen)
	s.Fx.Insert(t, "latest_positions", strings.Split("imo,source,ts,mmsi,lat,lon,speed_kt,destination,received_at", ","),
		[]any{uint32(apptest.NextIMO()), "aishub", h(-1), uint32(1), -39.5, -61.5, 11.0, "BAHIA BLANCA", h(-1)})

	for _, job := range []string{"forecasts", "anomalies"} {
		var out, errs strings.Builder
		if err := app.Run(ctx, []string{"overwatch", "jobs", "--job", job}, func(k string) string { return env[k] }, &out, &errs); err != nil {
			t.Fatalf("jobs --job %s: %v\n%s%s", job, err, out.String(), errs.String())
		}
	}

	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	ip := apptest.FreshIP()
	get := func(key, path string, status int, into any) apptest.Response {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: path, IP: ip, Key: key})
		if r.StatusCode != status {
			t.Fatalf("%s: %d %s", path, r.StatusCode, r.Body)
		}
		if into != nil {
			apptest.MustUnmarshal(t, r.Body, into)
		}
		return r
	}
	port, _ := seaport.BySlug(fcPort)

	var fc struct{ Forecasts []read.ForecastItem }
	get(pro, "/v1/forecasts?port="+fcPort+"&limit=200", 200, &fc)
	if len(fc.Forecasts) != 1+2*forecast.Horizons {
		t.Fatalf("forecasts: %d", len(fc.Forecasts))
	}
	origin := last.Format(time.DateOnly)
	// Each of the pipeline's 3 vessels counts with its chance of leaving
	// before the week ends (docs/forecasts.md: without a completed loading
	// call at the port, a call is taken to last 72 hours), so late in the
	// week the one that arrived 6 hours ago no longer counts in full.
	if p := fc.Forecasts[0]; p.Method != "pipeline" || !(p.Vessels > 0 && p.Vessels <= 3) || p.Origin != origin || p.Horizon != 1 || p.PortName != port.Name ||
		p.WeekStart != last.AddDate(0, 0, 7).Format(time.DateOnly) || !(p.Tonnes > 0) {
		t.Errorf("pipeline forecast: %+v", p)
	}
	for _, f := range fc.Forecasts[1:] {
		if f.Origin != origin || f.HistoryWeeks != n || !(f.Lower <= f.Tonnes && f.Tonnes <= f.Upper) ||
			(f.Method == "statistical") != (f.Model == "holt_winters") || (f.Method == "ml") != (f.Model == "ridge") {
			t.Errorf("forecast: %+v", f)
		}
	}
	// Next week's statistical forecast lies near the season's shape.
	if f := fc.Forecasts[1]; math.Abs(f.Tonnes-fcTonnes(n)) > 0.25*fcTonnes(n) {
		t.Errorf("statistical next week %.0f, the pattern's %.0f", f.Tonnes, fcTonnes(n))
	}
	get(pro, "/v1/forecasts?port="+port.ID+"&method=statistical", 200, &fc)
	if len(fc.Forecasts) != forecast.Horizons || fc.Forecasts[11].Horizon != 12 || fc.Forecasts[0].Method != "statistical" {
		t.Errorf("statistical by UUID: %+v", fc.Forecasts)
	}
	get(free, "/v1/forecasts?limit=200", 200, &fc)
	if len(fc.Forecasts) != 20 {
		t.Errorf("Free forecasts: %d rows, want the plan's 20", len(fc.Forecasts))
	}

	var acc struct{ Accuracy []read.AccuracyItem }
	get(pro, "/v1/forecasts/accuracy?port="+fcPort, 200, &acc)
	methods := map[string]int{}
	for _, a := range acc.Accuracy {
		methods[a.Method]++
		if a.Baseline.Method != "seasonal_naive" || a.MAPE == nil || a.Baseline.MAPE == nil || a.BeatsBaseline != (*a.MAPE < *a.Baseline.MAPE) {
			t.Errorf("accuracy: %+v", a)
		}
		t.Logf("%s h%d: MAPE %.2f%% (baseline %.2f%%), MAE %.0f (%.0f), direction %.2f (%.2f), %d forecasts", a.Method, a.Horizon, *a.MAPE,
			*a.Baseline.MAPE, a.MAE, a.Baseline.MAE, a.DirectionalAccuracy, a.Baseline.DirectionalAccuracy, a.Forecasts)
	}
	if methods["statistical"] != forecast.BacktestHorizons || methods["ml"] != forecast.BacktestHorizons {
		t.Errorf("accuracy methods: %v", methods)
	}
	if a := acc.Accuracy[0]; a.Method != "statistical" || a.Horizon != 1 || !a.BeatsBaseline {
		t.Errorf("statistical, next week: %+v", a)
	}
	get(pro, "/v1/forecasts/accuracy?port="+fcPort+"&method=ml", 200, &acc)
	if len(acc.Accuracy) != forecast.BacktestHorizons || acc.Accuracy[0].Method != "ml" {
		t.Errorf("ml accuracy: %+v", acc.Accuracy)
	}

	var an struct{ Anomalies []read.AnomalyItem }
	get(pro, "/v1/anomalies?port="+port.ID+"&limit=500", 200, &an)
	byWeek := map[string]map[string]read.AnomalyItem{}
	for _, a := range an.Anomalies {
		if byWeek[a.WeekStart] == nil {
			byWeek[a.WeekStart] = map[string]read.AnomalyItem{}
		}
		byWeek[a.WeekStart][a.Type] = a
	}
	for _, i := range []int{oldDrop, newDrop} {
		for _, typ := range forecast.Types {
			a, ok := byWeek[week(i).Format(time.DateOnly)][typ]
			if !ok || a.Direction != "drop" || a.Severity == "moderate" || a.Observed != math.Round(tonnes(i)) || a.PortID != port.ID {
				t.Errorf("week %d, %s: %+v", i, typ, a)
			}
		}
	}
	if a := byWeek[week(newDrop).Format(time.DateOnly)]["yoy"]; a.Expected != math.Round(fcTonnes(newDrop-forecast.Season)) || a.Z != nil {
		t.Errorf("yoy: %+v", a)
	}
	get(pro, "/v1/anomalies?port="+fcPort+"&type=seasonal_range&severity=high", 200, &an)
	for _, a := range an.Anomalies {
		if a.Type != "seasonal_range" || a.Severity != "high" || a.RangeLower == nil || a.RangeUpper == nil {
			t.Errorf("filtered: %+v", a)
		}
	}
	// Free: only the weeks that ended within its 7 days of history.
	get(free, "/v1/anomalies?port="+fcPort+"&limit=500", 200, &an)
	if len(an.Anomalies) == 0 || len(an.Anomalies) > 20 {
		t.Errorf("Free anomalies: %d", len(an.Anomalies))
	}
	for _, a := range an.Anomalies {
		if a.WeekStart != origin {
			t.Errorf("Free sees week %s", a.WeekStart)
		}
	}
	r := get(pro, "/v1/anomalies?port="+fcPort+"&format=csv&limit=3", 200, nil)
	records, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil || len(records) != 4 || records[0][0] != "port" || records[1][0] != fcPort || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("anomalies CSV: %v %q", err, r.Body)
	}
	r = get(pro, "/v1/forecasts?port="+fcPort+"&format=csv", 200, nil)
	if records, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll(); err != nil || len(records) != 1+1+2*forecast.Horizons || records[0][2] != "method" {
		t.Errorf("forecasts CSV: %v %q", err, r.Body)
	}
	get(free, "/v1/anomalies?format=csv", 403, nil)
	get(free, "/v1/forecasts?format=csv", 403, nil)

	var mat struct{ Maturity []read.MaturityItem }
	get(pro, "/v1/anomalies/maturity", 200, &mat)
	found := false
	for _, m := range mat.Maturity {
		if m.Port != fcPort {
			continue
		}
		found = m.WeeksHeld == n && *m.LastWeek == origin && len(m.AnomalyTypes) == 4 && len(m.ForecastMethods) == 4
		for _, r := range append(m.AnomalyTypes, m.ForecastMethods...) {
			found = found && r.Ready && r.WeeksMissing == 0
		}
	}
	if !found {
		t.Errorf("maturity: %+v", mat.Maturity)
	}

	for path, param := range map[string]string{
		"/v1/forecasts?method=arima":              "method",
		"/v1/forecasts?port=atlantis":             "port",
		"/v1/forecasts?limit=0":                   "limit",
		"/v1/forecasts?format=xml":                "format",
		"/v1/forecasts/accuracy?method=x":         "method",
		"/v1/forecasts/accuracy?port=nowhere":     "port",
		"/v1/anomalies?type=weekly":               "type",
		"/v1/anomalies?severity=low":              "severity",
		"/v1/anomalies?port=00000000-0000-0000-0": "port",
		"/v1/anomalies?limit=x":                   "limit",
	} {
		r := get(pro, path, 400, nil)
		if !strings.Contains(string(r.Body), param) {
			t.Errorf("%s: %s does not name %s", path, r.Body, param)
		}
	}
}
