package e2e

import (
	"context"
	"io"
	"math"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/chokepoint"
	"overwatch/postgres/pgtest"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// disruptionsAPI is the body of GET /v1/disruptions (validated against the
// OpenAPI document by s.do).
type disruptionsAPI struct {
	Signals []struct {
		Kind       string   `json:"kind"`
		Source     string   `json:"source"`
		Title      string   `json:"title"`
		URL        string   `json:"url"`
		Tone       *float64 `json:"tone"`
		Port       *string  `json:"port"`
		Chokepoint *string  `json:"chokepoint"`
		Transits   *struct {
			RecentPerDay float64 `json:"recent_per_day"`
			NormPerDay   float64 `json:"norm_per_day"`
		} `json:"transits"`
	} `json:"signals"`
	Count         int `json:"count"`
	TimespanHours int `json:"timespan_hours"`
	Chokepoints   []struct {
		Slug         string         `json:"slug"`
		GatewayPorts []string       `json:"gateway_ports"`
		LatestDay    *string        `json:"latest_day"`
		LatestByType map[string]int `json:"latest_by_type"`
	} `json:"chokepoints"`
	Sources map[string]struct {
		Status string `json:"status"`
	} `json:"sources"`
}

// GET /v1/disruptions through the real server: the chokepoints job
// (`overwatch jobs --job chokepoints`) counting the Suez transits of
// stored positions whose traffic falls to an eighth for the last 15 days,
// its transit_drop signals; news signals stored as the GDELT job stores
// them; the hours, query and limit parameters (400s naming them, the
// tier clamp); the chokepoints' traffic and the sources' state.
func TestDisruptionsEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	chURL, pgURL := chtest.URL(t, "disruptions_e2e"), pgtest.URL(t, "disruptions_e2e")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_LOG_LEVEL": "warn", "OVERWATCH_GDELT_URL": "off"}
	getenv := func(k string) string { return env[k] }
	ctx := context.Background()
	if err := app.Run(ctx, []string{"overwatch", "migrate"}, apptest.ClockEnv(getenv), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	// Positions crossing the Suez gate northbound, 8 vessels a day for 45
	// days, then 1 a day for 15, up to now.
	today := testclock.Now().UTC().Truncate(24 * time.Hour)
	base := today.AddDate(0, 0, -60)
	var rows [][]any
	imo := uint32(9400000)
	for d := 0; d <= 60; d++ {
		n := 8
		if d >= 45 {
			n = 1
		}
		for k := 0; k < n; k++ {
			imo++
			at := base.AddDate(0, 0, d).Add(time.Duration(k) * 20 * time.Minute)
			rows = append(rows, []any{imo, at, 30.3, 32.33, "", uint64(imo) * 2}, []any{imo, at.Add(time.Hour), 30.9, 32.33, "", uint64(imo)*2 + 1})
		}
	}
	chtest.Open(t, chURL).Insert(t, "positions", []string{"imo", "ts", "lat", "lon", "destination", "dedup_key"}, rows...)
	out := &apptest.SyncWriter{}
	if err := app.Run(ctx, []string{"overwatch", "jobs", "--job", "chokepoints"}, apptest.ClockEnv(getenv), out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ch, err := clickhouse.Open(chURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	news := func(url, title, port string, hoursAgo float64) chokepoint.Disruption {
		return chokepoint.Disruption{Kind: chokepoint.KindNews, Source: chokepoint.SourceGDELT, Title: title, URL: url, SourceName: "example.com",
			PublishedAt: testclock.Now().UTC().Add(-time.Duration(hoursAgo * float64(time.Hour))).Truncate(time.Second), Tone: math.NaN(), Port: port,
			Language: "English", Country: "Brazil"}
	}
	if err := ch.InsertDisruptions(ctx, []chokepoint.Disruption{
		news("https://example.com/santos-strike", "Dockworkers strike at the port of Santos", "santos", 2),
		news("https://example.com/santos-old", "Storm closes the port of Santos", "santos", 200),
	}); err != nil {
		t.Fatal(err)
	}

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL})
	free, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-free", overwatch.PlanFree)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-pro", overwatch.PlanPro)
	get := func(key, path string, status int) disruptionsAPI {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", path, resp.StatusCode, resp.Body, status)
		}
		var m disruptionsAPI
		if status == 200 {
			apptest.MustUnmarshal(t, resp.Body, &m)
		} else if status == 400 {
			name := strings.TrimPrefix(strings.SplitN(strings.SplitN(path, "?", 2)[1], "=", 2)[0], "")
			if !strings.Contains(string(resp.Body), name) {
				t.Errorf("%s: the 400 does not name %s: %s", path, name, resp.Body)
			}
		}
		return m
	}
	all := get(pro, "/v1/disruptions", 200)
	if all.TimespanHours != 24 || all.Count != len(all.Signals) {
		t.Errorf("timespan %d, count %d of %d", all.TimespanHours, all.Count, len(all.Signals))
	}
	kinds := map[string]int{}
	for _, sg := range all.Signals {
		kinds[sg.Kind]++
		if sg.Tone != nil {
			t.Errorf("tone %v", *sg.Tone)
		}
		if sg.Kind == chokepoint.KindTransitDrop && (sg.Chokepoint == nil || *sg.Chokepoint != "suez" || sg.Transits == nil || sg.Transits.NormPerDay < 5) {
			t.Errorf("transit drop %+v", sg)
		}
	}
	if kinds["news"] != 1 || kinds["transit_drop"] != 1 {
		t.Errorf("signals of the last 24 h by kind: %v", kinds)
	}
	if len(all.Chokepoints) != 8 || all.Chokepoints[0].Slug != "suez" || len(all.Chokepoints[0].GatewayPorts) != 3 ||
		all.Chokepoints[0].LatestDay == nil || all.Chokepoints[0].LatestByType["other"] != 1 {
		t.Errorf("chokepoints %+v", all.Chokepoints)
	}
	if all.Sources["gdelt"].Status != "live" || all.Sources["ais"].Status != "live" || all.Sources["portwatch"].Status != "off" {
		t.Errorf("sources %+v", all.Sources)
	}
	week := get(pro, "/v1/disruptions?hours=720&limit=100", 200)
	if week.TimespanHours != 720 || week.Count < 10 {
		t.Errorf("720 h: %d signals", week.Count)
	}
	if got := get(pro, "/v1/disruptions?hours=720&query=PORT%20OF%20santos", 200); got.Count != 2 || got.Signals[0].Port == nil || *got.Signals[0].Port != "santos" {
		t.Errorf("query: %+v", got.Signals)
	}
	if got := get(pro, "/v1/disruptions?hours=720&query=suez&limit=3", 200); got.Count != 3 || got.Signals[0].Kind != "transit_drop" {
		t.Errorf("query suez, limit 3: %+v", got.Signals)
	}
	if got := get(free, "/v1/disruptions?hours=720&limit=100", 200); got.Count > 20 {
		t.Errorf("Free sees %d signals at once", got.Count)
	}
	for _, p := range []string{"/v1/disruptions?hours=0", "/v1/disruptions?hours=721", "/v1/disruptions?hours=x", "/v1/disruptions?limit=0",
		"/v1/disruptions?query=" + strings.Repeat("a", 201)} {
		get(pro, p, 400)
	}
	get("", "/v1/disruptions", 401)
}
