package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"overwatch"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
	"overwatch/read"
	"overwatch/testclock"
	"strings"
	"sync"
	"testing"
	"time"
)

// riverSource is a test alert source of river readings (river gauges
// come with a later issue).
type riverSource struct{ port, key string }

func (riverSource) Name() string { return "river_test" }

func (r riverSource) Events(_ context.Context, from, to time.Time) ([]jobs.AlertEvent, error) {
	return []jobs.AlertEvent{{Key: r.key, Type: jobs.AlertRiverLevel, Severity: jobs.SeverityInfo, Port: r.port, At: to.Add(-time.Hour),
		Title: "Paraná low water", Message: "The gauge at Rosario reads 1.2 ft, under its critical low."}}, nil
}

// Alerts end to end: watchlists and portfolios through the API, the
// alerts job over real risk events (ClickHouse) and a test river source,
// the alert feeds, every state action, 50 concurrent actions on one alert,
// and a second account that sees and changes none of it.
func TestAlertsEndToEnd(t *testing.T) {
	s := apptest.StartServer(t, nil)
	a, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	b, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	ip := apptest.FreshIP()
	do, expect := s.Caller(t, ip), apptest.Expecter(t)
	x, y := apptest.NextIMO().String(), apptest.NextIMO().String()
	port := "santos"
	expect(do(a, "PUT", "/v1/watchlist", `{"vessels":["IMO`+x+`","`+x+`"],"ports":["`+port+`"]}`), 200, `"vessels":["`+x+`"]`)
	expect(do(a, "PUT", "/v1/watchlist", `{"vessels":["1234568"]}`), 400, "check digit")
	expect(do(a, "PUT", "/v1/watchlist", `{"ports":["atlantis"]}`), 400, "port slug")
	expect(do(a, "PUT", "/v1/watchlist", `nope`), 400, "body must be")
	expect(do(a, "GET", "/v1/watchlist", ""), 200, `"ports":["santos"]`)
	expect(do(b, "GET", "/v1/watchlist", ""), 200, `{"watchlist":{"vessels":[],"ports":[]}}`)
	r := do(a, "POST", "/v1/portfolios", `{"name":"Tankers","vessels":["`+y+`"]}`)
	expect(r, 201, `"name":"Tankers"`)
	var created struct{ Portfolio read.Portfolio }
	apptest.MustUnmarshal(t, r.Body, &created)
	pf := created.Portfolio.ID
	expect(do(a, "POST", "/v1/portfolios", `{"vessels":[]}`), 400, "name is required")
	expect(do(b, "DELETE", "/v1/portfolios/"+pf, ""), 404, "no portfolio")
	expect(do(b, "GET", "/v1/alerts/unified?portfolio="+pf, ""), 404, "no portfolio")
	expect(do(b, "GET", "/v1/portfolios", ""), 200, `{"portfolios":[]}`)
	expect(do(a, "GET", "/v1/portfolios", ""), 200, pf)

	// Risk events of x (watched) and y (in the portfolio), and one of an
	// unwatched vessel.
	ctx := context.Background()
	now := testclock.Now().UTC().Truncate(time.Second)
	ix, iy, iz := mustIMO(t, x), mustIMO(t, y), apptest.NextIMO()
	end := now.Add(-time.Hour)
	events := []risk.Event{
		{Type: risk.EventSanctions, Subtype: sanctions.MatchIMO, IMO: ix, Start: now.Add(-2 * time.Hour), End: &end, Severity: risk.TierCritical,
			Detail: map[string]any{"list_source": "OFAC SDN", "sanctioned_entity": "SHADOW", "entry_id": "1"}},
		{Type: risk.EventGap, Subtype: "intentional", IMO: iy, Start: now.Add(-30 * time.Hour), End: &end, Severity: risk.TierHigh, Detail: map[string]any{}},
		{Type: risk.EventLoitering, Subtype: "stationary", IMO: ix, Start: now.Add(-20 * time.Hour), End: &end, Severity: risk.TierHigh, Detail: map[string]any{}},
		{Type: risk.EventGap, Subtype: "intentional", IMO: iz, Start: now.Add(-10 * time.Hour), End: &end, Severity: risk.TierHigh, Detail: map[string]any{}},
	}
	var days []time.Time
	seen := map[time.Time]bool{}
	for i := range events {
		if d := risk.EventDay(&events[i], now); !seen[d] {
			seen[d] = true
			days = append(days, d)
		}
	}
	if err := s.Ch.WriteRiskEvents(ctx, uint64(time.Now().UnixNano()), days, events, nil, now); err != nil {
		t.Fatal(err)
	}
	river := riverSource{port: port, key: fmt.Sprintf("river/%s/%d", x, now.UnixNano())}
	run := jobs.Alerts(s.Pg, testclock.Now, jobs.RiskAlerts{Store: s.Ch}, river)
	res, err := run(ctx, jobs.State{})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := run(ctx, jobs.State{Watermark: res.Watermark}); err != nil || again.Rows != 0 {
		t.Errorf("a re-run raised %d alerts (%v)", again.Rows, err)
	}

	type list struct {
		Alerts         []read.Alert
		Count          int
		Unacknowledged int
	}
	var l list
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/alerts", "").Body, &l)
	mine := map[string]read.Alert{}
	for _, al := range l.Alerts {
		if al.IMO != nil && (*al.IMO == x || *al.IMO == y) || al.Type == jobs.AlertRiverLevel && strings.Contains(al.Message, "Rosario") {
			mine[al.Type] = al
		}
	}
	if len(mine) != 3 || mine["sanctions_match"].Severity != "critical" || mine["dark_fleet"].Severity != "warning" || *mine["dark_fleet"].IMO != y ||
		mine["river_level"].Port == nil || *mine["river_level"].Port != port {
		t.Fatalf("alerts: %+v", l)
	}
	for _, al := range l.Alerts {
		if al.IMO != nil && *al.IMO == iz.String() {
			t.Errorf("an alert of an unwatched vessel: %+v", al)
		}
	}
	apptest.MustUnmarshal(t, do(b, "GET", "/v1/alerts", "").Body, &l)
	if l.Count != 0 {
		t.Errorf("the other account sees alerts: %+v", l)
	}
	sanctions := fmt.Sprintf("overwatch:%d", mine["sanctions_match"].ID)
	gap := fmt.Sprintf("overwatch:%d", mine["dark_fleet"].ID)

	// The unified feed, page by page.
	type feed struct {
		Alerts     []read.UnifiedAlert
		Count      int
		Pagination struct {
			HasMore    bool    `json:"has_more"`
			NextCursor *string `json:"next_cursor"`
		}
	}
	var f feed
	ids := map[string]bool{}
	next := "/v1/alerts/unified?limit=1&watchlist=false"
	for pages := 0; next != ""; pages++ {
		apptest.MustUnmarshal(t, do(a, "GET", next, "").Body, &f)
		for _, al := range f.Alerts {
			if ids[al.AlertID] || al.State != "open" || !strings.HasPrefix(al.AlertID, "overwatch:") {
				t.Errorf("page %d: %+v", pages, al)
			}
			ids[al.AlertID] = true
		}
		next = ""
		if f.Pagination.HasMore {
			next = "/v1/alerts/unified?limit=1&cursor=" + url.QueryEscape(*f.Pagination.NextCursor)
		}
	}
	if !ids[sanctions] || !ids[gap] {
		t.Errorf("the feed's pages miss alerts: %v", ids)
	}
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/alerts/unified?portfolio="+pf, "").Body, &f)
	if f.Count != 1 || f.Alerts[0].AlertID != gap {
		t.Errorf("portfolio feed: %+v", f)
	}
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/alerts/unified?product=locus", "").Body, &f)
	if f.Count != 0 {
		t.Errorf("locus: %+v", f)
	}
	expect(do(a, "GET", "/v1/alerts/unified?cursor=xyz", ""), 400, "cursor")
	expect(do(a, "GET", "/v1/alerts/unified?state=archived", ""), 400, "state must be one of")

	// The state machine through the API; the other account gets 404s.
	state := func(key, body string) apptest.Response { return do(key, "POST", "/v1/alerts/unified/state", body) }
	expect(state(b, `{"alert_id":"`+sanctions+`","action":"read"}`), 404, "no alert")
	expect(do(b, "POST", "/v1/alerts/unified/state?alert_id="+sanctions+"&action=resolve", ""), 404, "no alert")
	expect(state(a, `{"alert_id":"`+sanctions+`","action":"read"}`), 200, `"read_at":"`)
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/alerts?type=sanctions_match", "").Body, &l)
	if len(l.Alerts) == 0 || !l.Alerts[0].Acknowledged {
		t.Errorf("read is acknowledged: %+v", l)
	}
	expect(state(a, `{"alert_id":"`+sanctions+`","action":"resolve"}`), 200, `"resolved_at":"`)
	expect(state(a, `{"alert_id":"`+sanctions+`","action":"snooze"}`), 409, "resolved")
	expect(do(a, "POST", "/v1/alerts/unified/state?alert_id="+sanctions+"&action=open", ""), 200, `"state":{"read_at":null,"resolved_at":null,"snoozed_until":null}`)
	expect(state(a, `{"alert_id":"`+sanctions+`","action":"open"}`), 409, "open")
	r = state(a, `{"alert_id":"`+sanctions+`","action":"snooze"}`)
	var ans struct{ State overwatch.AlertTimes }
	apptest.MustUnmarshal(t, r.Body, &ans)
	if r.StatusCode != 200 || ans.State.SnoozedUntil == nil || ans.State.SnoozedUntil.Sub(testclock.Now().Add(24*time.Hour)).Abs() > time.Minute {
		t.Errorf("default snooze: %d %s", r.StatusCode, r.Body)
	}
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/alerts/unified?state=snoozed", "").Body, &f)
	if f.Count != 1 || f.Alerts[0].AlertID != sanctions {
		t.Errorf("snoozed: %+v", f)
	}
	until := testclock.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	expect(state(a, `{"alert_id":"`+sanctions+`","action":"snooze","snooze_until":"`+until+`"}`), 200, until)
	for body, want := range map[string]string{
		`{"alert_id":"` + sanctions + `","action":"snooze","snooze_until":"2020-01-01T00:00:00Z"}`: "ahead",
		`{"alert_id":"` + sanctions + `","action":"read","snooze_until":"` + until + `"}`:          "only for action snooze",
		`{"alert_id":"` + sanctions + `","action":"archive"}`:                                      "action must be",
		`{"alert_id":"` + sanctions + `"}`:                                                         "action is required",
		`{"action":"read"}`:                                                                        "alert_id is required",
		`{"alert_id":"42","action":"read"}`:                                                        "alert_id must be",
	} {
		expect(state(a, body), 400, want)
	}
	expect(state(a, `{"alert_id":"locus:7","action":"read"}`), 404, "no alert")

	// 50 concurrent resolutions of one alert: exactly one succeeds.
	var wg sync.WaitGroup
	codes := make([]int, 50)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, s.Base+"/v1/alerts/unified/state", strings.NewReader(`{"alert_id":"`+gap+`","action":"resolve"}`))
			req.Header.Set("X-API-Key", a)
			req.Header.Set("X-Forwarded-For", apptest.FreshIP())
			req.Header.Set("Content-Type", "application/json")
			if resp, err := apptest.HTTPClient.Do(req); err == nil {
				codes[i] = resp.StatusCode
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	won, refused := 0, 0
	for _, c := range codes {
		switch c {
		case 200:
			won++
		case 409:
			refused++
		}
	}
	if won != 1 || refused != 49 {
		t.Errorf("50 concurrent resolutions: %d succeeded, %d refused (%v)", won, refused, codes)
	}
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/alerts/unified?state=resolved", "").Body, &f)
	if f.Count != 1 || f.Alerts[0].AlertID != gap || f.Alerts[0].ResolvedAt == nil || f.Alerts[0].SnoozedUntil != nil {
		t.Errorf("resolved: %+v", f)
	}
}

func mustIMO(t *testing.T, s string) overwatch.IMO {
	t.Helper()
	n, err := overwatch.ParseIMO(s)
	if err != nil {
		t.Fatalf("IMO %q: %v", s, err)
	}
	return n
}

// raiseFor stores alerts of the account straight into Postgres (as the
// alerts job would) and returns their alert ids, newest first.
func raiseFor(t *testing.T, s *apptest.TestServer, account int64, n int) []string {
	t.Helper()
	ctx := context.Background()
	var as []jobs.Alert
	stamp := time.Now().UnixNano()
	for i := range n {
		as = append(as, jobs.Alert{AccountID: account, Type: jobs.AlertDarkFleet, Severity: jobs.SeverityWarning, Title: "gap",
			Message: "AIS off", IMO: "9074729", EventKey: fmt.Sprintf("e2e/%d/%d", stamp, i), EventAt: testclock.Now()})
	}
	if got, err := s.Pg.RaiseAlerts(ctx, as); err != nil || got != n {
		t.Fatalf("raise: %d %v", got, err)
	}
	rows, err := s.Pg.Alerts(ctx, account, read.AlertFilter{Now: testclock.Now(), Limit: n})
	if err != nil || len(rows) != n {
		t.Fatalf("alerts: %d %v", len(rows), err)
	}
	ids := make([]string, n)
	for i, r := range rows {
		ids[i] = fmt.Sprintf("overwatch:%d", r.ID)
	}
	return ids
}

// Every (state, action) pair through the API: 200 into the table's state,
// or 409 naming the state.
func TestAlertStatePairsAPI(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ids := raiseFor(t, s, account, 16)
	post := func(id, action string) apptest.Response {
		t.Helper()
		return s.Do(t, apptest.Request{Method: "POST", Path: "/v1/alerts/unified/state", IP: apptest.FreshIP(), Key: key,
			Body: `{"alert_id":"` + id + `","action":"` + action + `"}`})
	}
	setup := map[string]string{"open": "", "read": "read", "snoozed": "snooze", "resolved": "resolve"}
	want := map[string]map[string]string{ // "": 409
		"open":     {"read": "read", "resolve": "resolved", "snooze": "snoozed", "open": ""},
		"read":     {"read": "read", "resolve": "resolved", "snooze": "snoozed", "open": "open"},
		"snoozed":  {"read": "snoozed", "resolve": "resolved", "snooze": "snoozed", "open": "open"},
		"resolved": {"read": "", "resolve": "", "snooze": "", "open": "open"},
	}
	stateOf := func(id string) string {
		t.Helper()
		for _, st := range []string{"open", "read", "snoozed", "resolved"} {
			var f struct{ Alerts []read.UnifiedAlert }
			apptest.MustUnmarshal(t, s.Do(t, apptest.Request{Path: "/v1/alerts/unified?limit=100&state=" + st, IP: apptest.FreshIP(), Key: key}).Body, &f)
			for _, a := range f.Alerts {
				if a.AlertID == id {
					if string(a.State) != st {
						t.Errorf("%s: listed under state=%s as %s", id, st, a.State)
					}
					return st
				}
			}
		}
		return "missing"
	}
	i := 0
	for _, from := range []string{"open", "read", "snoozed", "resolved"} {
		for _, action := range []string{"read", "resolve", "snooze", "open"} {
			id := ids[i]
			i++
			if setup[from] != "" {
				if r := post(id, setup[from]); r.StatusCode != 200 {
					t.Fatalf("setup %s: %d %s", from, r.StatusCode, r.Body)
				}
			}
			r := post(id, action)
			to := want[from][action]
			switch {
			case to == "" && (r.StatusCode != 409 || !strings.Contains(string(r.Body), "the alert is "+from)):
				t.Errorf("%s + %s: %d %s, want 409", from, action, r.StatusCode, r.Body)
			case to == "" && stateOf(id) != from:
				t.Errorf("%s + %s: a refused action changed the state", from, action)
			case to != "" && (r.StatusCode != 200 || stateOf(id) != to):
				t.Errorf("%s + %s: %d %s, now %s, want %s", from, action, r.StatusCode, r.Body, stateOf(id), to)
			}
		}
	}
}

// A second account tries every watchlist, portfolio and alert endpoint on
// the first account's resources: 404 for each one named, nothing of the
// first account's in its lists, and the first account's state unchanged.
func TestAlertsCrossAccount(t *testing.T) {
	s := apptest.StartServer(t, nil)
	a, accountA := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	b, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	do := func(key, method, path, body string) apptest.Response {
		t.Helper()
		return s.Do(t, apptest.Request{Method: method, Path: path, IP: apptest.FreshIP(), Key: key, Body: body})
	}
	expect := func(r apptest.Response, status int, contains string) {
		t.Helper()
		if r.StatusCode != status || !strings.Contains(string(r.Body), contains) {
			t.Errorf("got %d %s, want %d with %q", r.StatusCode, r.Body, status, contains)
		}
	}
	// The first account's watchlist, portfolio and alerts.
	expect(do(a, "PUT", "/v1/watchlist", `{"vessels":["9074729"],"ports":["santos"]}`), 200, "9074729")
	expect(do(a, "PUT", "/v1/watchlist/vessels/IMO9321483", ""), 200, `"value":"9321483","watched":true`)
	expect(do(a, "PUT", "/v1/watchlist/vessels/9321483", ""), 200, `"watched":true`)
	expect(do(a, "PUT", "/v1/watchlist/ports/rotterdam", ""), 200, `"kind":"port"`)
	expect(do(a, "PUT", "/v1/watchlist/vessels/1234568", ""), 400, "imo")
	expect(do(a, "PUT", "/v1/watchlist/ports/atlantis", ""), 400, "slug")
	var created struct{ Portfolio read.Portfolio }
	r := do(a, "POST", "/v1/portfolios", `{"name":"Mine","vessels":["9176187"]}`)
	expect(r, 201, "Mine")
	apptest.MustUnmarshal(t, r.Body, &created)
	pf := created.Portfolio.ID
	expect(do(a, "GET", "/v1/portfolios/"+pf, ""), 200, `"name":"Mine"`)
	ids := raiseFor(t, s, accountA, 2)
	expect(do(a, "POST", "/v1/alerts/unified/state", `{"alert_id":"`+ids[1]+`","action":"read"}`), 200, `"ok":true`)

	// The second account, across the boundary: 404s.
	expect(do(b, "GET", "/v1/portfolios/"+pf, ""), 404, "no portfolio")
	expect(do(b, "DELETE", "/v1/portfolios/"+pf, ""), 404, "no portfolio")
	expect(do(b, "GET", "/v1/alerts/unified?portfolio="+pf, ""), 404, "no portfolio")
	expect(do(b, "DELETE", "/v1/watchlist/vessels/9321483", ""), 404, "do not watch")
	expect(do(b, "DELETE", "/v1/watchlist/ports/santos", ""), 404, "do not watch")
	for _, id := range ids {
		for _, action := range []string{"read", "resolve", "snooze", "open"} {
			expect(do(b, "POST", "/v1/alerts/unified/state", `{"alert_id":"`+id+`","action":"`+action+`"}`), 404, "no alert")
			expect(do(b, "POST", "/v1/alerts/unified/state?alert_id="+id+"&action="+action, ""), 404, "no alert")
		}
	}
	// Its lists hold nothing of the first account's, and its own changes
	// stay its own.
	expect(do(b, "GET", "/v1/watchlist", ""), 200, `{"watchlist":{"vessels":[],"ports":[]}}`)
	expect(do(b, "GET", "/v1/portfolios", ""), 200, `{"portfolios":[]}`)
	expect(do(b, "GET", "/v1/alerts", ""), 200, `"count":0`)
	expect(do(b, "GET", "/v1/alerts/unified", ""), 200, `"count":0`)
	expect(do(b, "GET", "/v1/alerts/unified?watchlist=true&state=read", ""), 200, `"count":0`)
	expect(do(b, "PUT", "/v1/watchlist", `{"vessels":["9176187"]}`), 200, "9176187")
	expect(do(b, "PUT", "/v1/watchlist/ports/santos", ""), 200, `"watched":true`)
	expect(do(b, "DELETE", "/v1/watchlist/ports/santos", ""), 200, `"watched":false`)
	expect(do(a, "GET", "/v1/watchlist", ""), 200, `{"watchlist":{"vessels":["9074729","9321483"],"ports":["rotterdam","santos"]}}`)
	expect(do(a, "GET", "/v1/portfolios/"+pf, ""), 200, pf)
	var f struct{ Alerts []read.UnifiedAlert }
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/alerts/unified", "").Body, &f)
	if len(f.Alerts) != 2 || f.Alerts[0].State != "open" || f.Alerts[1].State != "read" {
		t.Errorf("the first account's alerts changed: %+v", f.Alerts)
	}
	expect(do(a, "DELETE", "/v1/watchlist/vessels/9321483", ""), 200, `"watched":false`)
	expect(do(a, "DELETE", "/v1/portfolios/"+pf, ""), 200, `"deleted":true`)
	expect(do(a, "GET", "/v1/portfolios/"+pf, ""), 404, "no portfolio")
}

// GET /v1/alerts counts the unacknowledged alerts in all, not only those
// listed: a Free key lists 20 of 25 alerts and counts 24 unacknowledged
// once one is read.
func TestAlertsUnacknowledgedCount(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	ids := raiseFor(t, s, account, 25)
	do := func(method, path, body string) apptest.Response {
		t.Helper()
		return s.Do(t, apptest.Request{Method: method, Path: path, IP: apptest.FreshIP(), Key: key, Body: body})
	}
	if r := do("POST", "/v1/alerts/unified/state", `{"alert_id":"`+ids[24]+`","action":"read"}`); r.StatusCode != 200 {
		t.Fatalf("read: %d %s", r.StatusCode, r.Body)
	}
	var l struct {
		Alerts         []read.Alert
		Count          int
		Unacknowledged int
	}
	apptest.MustUnmarshal(t, do("GET", "/v1/alerts", "").Body, &l)
	if l.Count != 20 || len(l.Alerts) != 20 || l.Unacknowledged != 24 {
		t.Errorf("alerts: count %d (%d listed), unacknowledged %d; want 20, 24", l.Count, len(l.Alerts), l.Unacknowledged)
	}
	apptest.MustUnmarshal(t, do("GET", "/v1/alerts?unacknowledged=true&severity=warning", "").Body, &l)
	if l.Count != 20 || l.Unacknowledged != 24 {
		t.Errorf("unacknowledged warnings: count %d, unacknowledged %d", l.Count, l.Unacknowledged)
	}
	for _, a := range l.Alerts {
		if a.Acknowledged {
			t.Errorf("unacknowledged=true lists an acknowledged alert: %+v", a)
		}
	}
	apptest.MustUnmarshal(t, do("GET", "/v1/alerts?severity=critical", "").Body, &l)
	if l.Count != 0 || l.Unacknowledged != 0 {
		t.Errorf("critical: count %d, unacknowledged %d", l.Count, l.Unacknowledged)
	}
}
