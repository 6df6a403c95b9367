package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"overwatch"
	"overwatch/apptest"
	owhttp "overwatch/http"
	"overwatch/maritime/risk"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/testclock"
	"overwatch/write"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every array of every keyed answer is held to the plan's results per
// call, endpoints without a limit parameter included; only /ports and
// /billing/plans, and the tracks (time series bounded by their range and
// the history floor, the routes unclamped lists), are exempt. The test walks every keyed operation of the
// OpenAPI document with Free keys against a simulated fleet with its
// derivations and accounts holding more than 20 of everything, and
// checks that the walk met arrays the bound cut (so that the data was
// there to cut).
func TestEveryKeyedArrayIsClampedForFree(t *testing.T) {
	t.Parallel() // its own databases
	// The simulation's 8 days end on the Thursday of the tests' week, and
	// the jobs and the server run at noon that day (OVERWATCH_CLOCK_START):
	// the week in progress holds data whatever the weekday the suite runs
	// on (just after Monday midnight, Free's 7 days held no week with
	// estimates).
	end := mondayOf(testclock.Now()).AddDate(0, 0, 3)
	now := end.Add(12 * time.Hour)
	r := simulateUntil(t, "clamp", 17, 240, 8, end)
	r.Env["OVERWATCH_CLOCK_START"] = now.Format(time.RFC3339)
	r.Command(t, io.Discard, "jobs", "--once")
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_CLOCK_START": now.Format(time.RFC3339)})
	ctx := context.Background()
	const bound = 20

	// A Pro account names the vessels and ports with data.
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	var vessels struct {
		Vessels []struct {
			IMO string `json:"imo"`
		} `json:"vessels"`
	}
	apptest.MustUnmarshal(t, s.Do(t, apptest.Request{Path: "/v1/risk/vessels?limit=500", IP: apptest.FreshIP(), Key: pro}).Body, &vessels)
	if len(vessels.Vessels) <= bound {
		t.Fatalf("the simulation gave %d vessels", len(vessels.Vessels))
	}
	imo := vessels.Vessels[0].IMO
	var imos []string
	for _, v := range vessels.Vessels[:bound+5] {
		imos = append(imos, v.IMO)
	}
	if imo == "" {
		t.Fatalf("no IMO in /v1/risk/vessels")
	}
	port := busiestPort(t, s, pro)
	writeClampFixtures(t, s, now, mustIMO(t, imo), port, bound+5)

	// The account side: one Free account with 25 keys, portfolios,
	// watched vessels and ports, and alerts.
	email := apptest.UniqueEmail(t)
	accountKey, account := s.NewKey(t, email, overwatch.PlanFree)
	for range bound + 4 {
		s.NewKey(t, email, overwatch.PlanFree)
	}
	var slugs []string
	for _, p := range seaport.All()[:bound+5] {
		slugs = append(slugs, p.Slug)
	}
	if err := s.Pg.ReplaceWatchlist(ctx, account, imos, slugs); err != nil {
		t.Fatal(err)
	}
	var portfolio string
	for i := range bound + 5 {
		set := write.WatchedSet{ID: fmt.Sprintf("pf-%d-%d", time.Now().UnixNano(), i), Name: fmt.Sprintf("portfolio %d", i), Vessels: imos, Ports: slugs}
		if _, err := s.Pg.CreatePortfolio(ctx, account, set, 50); err != nil {
			t.Fatal(err)
		}
		portfolio = set.ID
	}
	raiseFor(t, s, account, bound+5)
	spare, _ := s.NewKey(t, email, overwatch.PlanFree)
	spareID := keyID(t, s, accountKey, spare)

	// The analytics side: further Free accounts, a new one every 45
	// requests (each has 50 requests a day; the walk needs more than that
	// in all).
	analyticsKey, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	analyticsUsed := 0

	params := map[string]string{
		"port": port, "vessel": imo, "imo": imo, "limit": "500", "days": "365", "weeks": "52", "group_by": "imo",
		"active": "false", "entity": "Clamp Test", "alert_id": "overwatch:1", "action": "read",
	}
	// Required parameters get these values; of the optional ones, only
	// those that make answers longer are sent (no filters).
	sizes := map[string]bool{"limit": true, "days": true, "weeks": true, "group_by": true, "active": true}
	paths := map[string]string{"id": portfolio, "imo": imo, "slug": "rotterdam"}
	bodies := map[string]string{
		"POST /keys":                 `{"name":"walk"}`,
		"PUT /watchlist":             fmt.Sprintf(`{"vessels":%s,"ports":%s}`, jsonList(imos), jsonList(slugs)),
		"POST /portfolios":           fmt.Sprintf(`{"name":"walk","vessels":%s,"ports":%s}`, jsonList(imos), jsonList(slugs)),
		"POST /alerts/unified/state": `{"alert_id":"overwatch:1","action":"read"}`,
		"POST /webhooks":             `{"url":"https://example.com/hook","event_types":["test"]}`,
		"POST /webhooks/slack-test":  `{"url":"https://hooks.slack.com/services/x","message":"hi"}`,
		"POST /billing/checkout":     `{"plan":"pro"}`,
	}
	accountSide := func(path string) bool {
		for _, p := range []string{"/keys", "/watchlist", "/portfolios", "/alerts", "/webhooks", "/billing"} {
			if strings.HasPrefix(path, p) {
				return true
			}
		}
		return false
	}

	doc, _, err := owhttp.LoadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	longest := map[string]int{}
	walked := 0
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Find(path)
		for method, op := range item.Operations() {
			if op.Security != nil || method == http.MethodOptions {
				continue // the public surface, the public keyed endpoints
			}
			if owhttp.Unclamped(strings.NewReplacer("{", ":", "}", "").Replace(path)) {
				continue // the tracks: time series bounded by their range (see unclamped)
			}
			target := path
			if method == http.MethodDelete && path == "/keys/{id}" {
				target = "/keys/" + spareID
			}
			q := url.Values{}
			for _, p := range append(item.Parameters, op.Parameters...) {
				v := p.Value
				switch {
				case v.In == "path":
					target = strings.ReplaceAll(target, "{"+v.Name+"}", paths[v.Name])
				case v.In == "query" && v.Name == "limit" && v.Schema != nil && v.Schema.Value.Max != nil:
					// The largest limit the endpoint takes (beyond it a 400).
					q.Set("limit", strconv.Itoa(int(*v.Schema.Value.Max)))
				case v.In == "query" && (v.Required || sizes[v.Name]):
					if val, ok := params[v.Name]; ok {
						q.Set(v.Name, val)
					}
				}
			}
			if len(q) > 0 {
				target += "?" + q.Encode()
			}
			key := analyticsKey
			if accountSide(path) {
				key = accountKey
			} else if analyticsUsed++; analyticsUsed > 45 {
				analyticsKey, _ = s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
				key, analyticsUsed = analyticsKey, 1
			}
			if method == http.MethodDelete && strings.HasPrefix(path, "/portfolios") {
				continue // walked last, after GET /portfolios/{id}
			}
			resp := s.Do(t, apptest.Request{Method: method, Path: "/v1" + target, IP: apptest.FreshIP(), Key: key, Body: bodies[method+" "+path]})
			walked++
			name := method + " " + path
			if resp.StatusCode == 429 {
				t.Fatalf("%s: the walk ran out of the day's requests: %s", name, resp.Body)
			}
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				continue
			}
			var v any
			if err := json.Unmarshal(resp.Body, &v); err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			longest[name] = longestArray(v)
			if longest[name] > bound {
				t.Errorf("%s %s: an array of %d elements for Free (%d)", method, target, longest[name], resp.StatusCode)
			}
		}
	}
	resp := s.Do(t, apptest.Request{Method: http.MethodDelete, Path: "/v1/portfolios/" + portfolio, IP: apptest.FreshIP(), Key: accountKey})
	if resp.StatusCode != 200 && resp.StatusCode != 204 {
		t.Errorf("DELETE /portfolios/{id}: %d %s", resp.StatusCode, resp.Body)
	}
	// The walk met data to cut on the lists of every area.
	var names []string
	for name := range longest {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Logf("%-40s longest array %d", name, longest[name])
	}
	for _, name := range []string{"GET /keys", "GET /watchlist", "GET /portfolios", "GET /portfolios/{id}", "GET /alerts",
		"GET /alerts/unified", "GET /vessels", "GET /positions", "GET /estimates", "GET /destination-reliability",
		"GET /congestion", "GET /fleet-age", "GET /berth-utilization", "GET /risk/vessels", "GET /risk/vessel/{imo}",
		"GET /risk/events", "GET /risk/sts", "GET /risk/loitering", "GET /risk/identity", "GET /risk/identity/history",
		"GET /risk/mismatches", "GET /risk/hotspots", "GET /risk/baselines", "GET /emissions/report"} {
		if longest[name] != bound {
			t.Errorf("%s: longest array %d, want the bound %d (more data than it, cut)", name, longest[name], bound)
		}
	}
	if walked < 40 {
		t.Errorf("walked %d keyed operations", walked)
	}
}

// writeClampFixtures adds to the simulation n of what it has fewer of:
// transfers, identity changes, mismatches, loitering and AIS gaps of the vessel imo
// (today and yesterday, which they replace), active hotspots, identity
// steps of imo, and latest positions in the port, before now (the
// server's clock).
func writeClampFixtures(t *testing.T, s *apptest.TestServer, now time.Time, imo overwatch.IMO, port string, n int) {
	t.Helper()
	ctx := context.Background()
	now = now.UTC().Truncate(time.Second)
	at := func(i int) time.Time { return now.Add(-time.Duration(i+1) * 10 * time.Minute) }
	other := apptest.NextIMO()
	identity := map[overwatch.IMO]vessel.Profile{imo: {IMO: imo, Name: "CLAMP", Flag: "PA", ShipType: 80},
		other: {IMO: other, Name: "OTHER", Flag: "LR", ShipType: 80}}
	var events []risk.Event
	var hotspots []risk.Hotspot
	var latest []overwatch.LatestRow
	p, _ := seaport.BySlug(port)
	cols := []string{"imo", "valid_from", "mmsi", "name", "call_sign", "flag", "ship_type", "source"}
	var steps [][]any
	for i := range n {
		start := at(i)
		end := start.Add(5 * time.Minute)
		events = append(events,
			risk.Event{Type: risk.EventSTS, Subtype: "proximity", IMO: imo, Other: other, Start: start, End: &end, Lat: 36.5, Lon: 22.8,
				Severity: risk.TierHigh, Detail: map[string]any{"confidence": "high", "other_imo": float64(other)}},
			risk.Event{Type: risk.EventIdentity, Subtype: "name", IMO: imo, Start: start, End: &start, Lat: 36, Lon: 20, Severity: risk.TierMedium,
				Detail: map[string]any{"field": "name", "old": fmt.Sprint("A", i), "new": fmt.Sprint("B", i)}},
			risk.Event{Type: risk.EventMismatch, Subtype: "zero_change", IMO: imo, Start: start, End: &end, Port: port, Lat: p.Area.Lat, Lon: p.Area.Lon,
				Severity: risk.TierMedium, Detail: map[string]any{"change_m": 0.0}},
			risk.Event{Type: risk.EventGap, IMO: imo, Start: start, End: &end, Lat: 1, Lon: 2, EndLat: 1, EndLon: 2, Severity: risk.TierLow,
				Detail: map[string]any{"hours": 12.0}},
			risk.Event{Type: risk.EventLoitering, Subtype: "slow_roll", IMO: imo, Start: start, End: &end, Lat: 36.6, Lon: 22.9, Severity: risk.TierMedium,
				Detail: map[string]any{"hours": 4.0, "context": "offshore"}})
		hotspots = append(hotspots, risk.Hotspot{ID: fmt.Sprintf("1.0:%d:0", i), Lat: float64(i), Lon: 0.5, CellDeg: 1, Events: 2, Vessels: 2,
			ByType: map[string]int{"ais_gap": 2}, FirstEvent: start, LastEvent: start, Active: true, Severity: risk.TierMedium})
		latest = append(latest, latestRow(apptest.NextIMO(), overwatch.SourceAISHub, start, p.Area.Lat, p.Area.Lon))
		steps = append(steps, []any{imo, now.Add(-time.Duration(n-i) * 24 * time.Hour), uint32(352000000 + i), fmt.Sprint("NAME ", i), "3EAB", "PA", uint8(80), "aishub"})
	}
	days := map[time.Time]bool{}
	var window []time.Time
	for i := range events {
		if events[i].Type != risk.EventSanctions { // the fixtures' coordinates are positions
			events[i].HasPosition, events[i].HasEndPosition = true, true
		}
		if d := risk.EventDay(&events[i], now); !days[d] {
			days[d] = true
			window = append(window, d)
		}
	}
	gen := uint64(time.Now().UnixNano())
	if err := s.Ch.WriteRiskEvents(ctx, gen, window, events, identity, now); err != nil {
		t.Fatal(err)
	}
	if err := s.Ch.WriteHotspots(ctx, gen, hotspots); err != nil {
		t.Fatal(err)
	}
	if err := s.Ch.InsertLatest(ctx, latest); err != nil {
		t.Fatal(err)
	}
	s.Fx.Insert(t, "vessel_identity", cols, steps...)
}

// longestArray is the length of the longest array anywhere in v.
func longestArray(v any) int {
	n := 0
	switch v := v.(type) {
	case []any:
		n = len(v)
		for _, e := range v {
			n = max(n, longestArray(e))
		}
	case map[string]any:
		for _, e := range v {
			n = max(n, longestArray(e))
		}
	}
	return n
}

func jsonList(items []string) string {
	b, _ := json.Marshal(items)
	return string(b)
}

// busiestPort is the port with the most vessels in /v1/positions.
func busiestPort(t *testing.T, s *apptest.TestServer, key string) string {
	t.Helper()
	var congestion struct {
		Congestion []struct {
			Port   string `json:"port"`
			InPort int    `json:"in_port"`
		} `json:"congestion"`
	}
	apptest.MustUnmarshal(t, s.Do(t, apptest.Request{Path: "/v1/congestion", IP: apptest.FreshIP(), Key: key}).Body, &congestion)
	best, most := "rotterdam", -1
	for _, c := range congestion.Congestion {
		if c.InPort > most {
			best, most = c.Port, c.InPort
		}
	}
	return best
}

// keyID is the id of key, listed with the account's other key.
func keyID(t *testing.T, s *apptest.TestServer, with, key string) string {
	t.Helper()
	var keys struct {
		Keys []struct {
			ID     int64  `json:"id"`
			Prefix string `json:"prefix"`
		} `json:"keys"`
	}
	apptest.MustUnmarshal(t, s.Do(t, apptest.Request{Path: "/v1/keys", IP: apptest.FreshIP(), Key: with}).Body, &keys)
	for _, k := range keys.Keys {
		if strings.HasPrefix(key, k.Prefix) {
			return fmt.Sprint(k.ID)
		}
	}
	t.Fatalf("key %s... not listed", key[:11])
	return ""
}
