package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"overwatch/jobs/jobstest"
	riversource "overwatch/sources/river"
	"overwatch/sources/sourcetest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/read"
	"overwatch/testclock"
	"overwatch/write"
	"overwatch/write/outbound"
)

// usgsStub serves the answer set last, or the failure status.
type usgsStub struct {
	mu     sync.Mutex
	body   []byte
	status int
	calls  int
	query  string
}

func (u *usgsStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.calls++
	u.query = r.URL.RawQuery
	if u.status != 0 {
		w.Header().Set("Retry-After", "60")
		http.Error(w, "Service Unavailable", u.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(u.body) //nolint:errcheck
}

func (u *usgsStub) set(body []byte, status int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.body, u.status = body, status
}

type riverAnswer struct {
	Readings []read.RiverReading
	Alerts   []read.RiverAlert
	Count    int
	Source   read.RiverSource
}

// River levels end to end: before any fetch the answer is empty with a
// source status saying why; the river job fetching a local USGS stub
// (the real answer's structure) stores the readings; a gauge dropping
// below its critical mark raises exactly one river_level alert for the
// watcher of its port and one signed webhook delivery, however often the
// alerts job runs; a failed fetch keeps the readings and shows in the
// source status; recovering resolves the alert.
func TestRiverLevelsEndToEnd(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"})
	a, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	do, expect := s.Caller(t, apptest.FreshIP()), apptest.Expecter(t)
	ctx := context.Background()

	expect(do("", "GET", "/v1/river-levels", ""), 401, "")
	get := func(path, contains string) []byte {
		t.Helper()
		r := do(a, "GET", path, "")
		expect(r, 200, contains)
		return r.Body
	}
	var ans riverAnswer
	apptest.MustUnmarshal(t, get("/v1/river-levels", `"readings":[]`), &ans)
	if ans.Source.Status != "no_data" || !strings.Contains(ans.Source.Message, "no recorded answer") || len(ans.Alerts) != 0 {
		t.Fatalf("before any fetch: %+v", ans)
	}

	expect(do(a, "PUT", "/v1/watchlist/ports/new-orleans", ""), 200, "")
	rcv := &receiver{}
	hook := httptest.NewServer(rcv)
	defer hook.Close()
	r := do(a, "POST", "/v1/webhooks", `{"url":"`+hook.URL+`","event_types":["river_level"]}`)
	expect(r, 201, `"river_level"`)
	var created write.CreatedWebhook
	apptest.MustUnmarshal(t, r.Body, &struct{ Webhook *write.CreatedWebhook }{&created})

	stub := &usgsStub{}
	usgs := httptest.NewServer(stub)
	defer usgs.Close()
	job := jobstest.RefreshJob(t, jobs.Sources{RiverLevels: app.RiverSources(riversource.Config{URL: usgs.URL + "/nwis/iv/?format=json&parameterCd=00065,00060&period=P2D", Every: 15 * time.Minute}, s.Ch)})
	alerts := jobs.Alerts(s.Pg, testclock.Now, jobs.RiverAlerts{Store: s.Ch, Resolver: s.Pg})
	poster := app.NewWebhookPoster(outbound.New(outbound.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AllowHTTP: true}))
	step := func(levels []sourcetest.Level) {
		t.Helper()
		stub.set(sourcetest.RiverIVAnswer(t, levels), 0)
		if _, err := job.Run(ctx, jobs.State{}); err != nil {
			t.Fatal(err)
		}
		for range 2 { // a re-run raises nothing new
			if _, err := alerts(ctx, jobs.State{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := jobs.DeliverDue(ctx, s.Pg, poster, time.Now, 100); err != nil {
			t.Fatal(err)
		}
	}
	myRiverAlerts := func() []read.Alert {
		var l struct{ Alerts []read.Alert }
		apptest.MustUnmarshal(t, get("/v1/alerts?type=river_level", ""), &l)
		return l.Alerts
	}

	// A day of normal levels at St. Louis, hourly, falling to 0.5 ft.
	now := testclock.Now().UTC().Truncate(time.Minute)
	var levels []sourcetest.Level
	for h := 29; h >= 2; h-- {
		levels = append(levels, sourcetest.Level{At: now.Add(-time.Duration(h) * time.Hour), Ft: 0.5 + float64(h-2)*0.1})
	}
	step(levels)
	if !strings.Contains(stub.query, "sites=07010000%2C07020500") {
		t.Errorf("the request names no gauges: %s", stub.query)
	}
	if got := myRiverAlerts(); len(got) != 0 {
		t.Fatalf("alerts at normal levels: %+v", got)
	}
	apptest.MustUnmarshal(t, get("/v1/river-levels", `"gauge":"st-louis"`), &ans)
	if len(ans.Readings) != 1 || ans.Readings[0].Status != "normal" || ans.Readings[0].LevelFt != 0.5 || ans.Source.Status != "live" ||
		ans.Readings[0].Change24hFt == nil || *ans.Readings[0].Change24hFt != -2.4 || ans.Readings[0].Trend == nil || *ans.Readings[0].Trend != "falling" ||
		strings.Join(ans.Readings[0].Qualifiers, ",") != "P" || ans.Readings[0].CriticalLowFt == nil || *ans.Readings[0].CriticalLowFt != -5 {
		t.Fatalf("normal: %+v", ans)
	}

	// It drops through low water below its critical mark (-5.0 ft)
	// between two runs: one alert, critical, one signed delivery.
	levels = append(levels, sourcetest.Level{At: now.Add(-100 * time.Minute), Ft: -1.2}, sourcetest.Level{At: now.Add(-80 * time.Minute), Ft: -3.5}, sourcetest.Level{At: now.Add(-time.Hour), Ft: -5.4})
	step(levels)
	step(levels)
	got := myRiverAlerts()
	if len(got) != 1 || got[0].Severity != "critical" || got[0].Port == nil || *got[0].Port != "new-orleans" || !strings.Contains(got[0].Title, "St. Louis") {
		t.Fatalf("river alerts: %+v", got)
	}
	rcv.mu.Lock()
	if len(rcv.ok) != 1 || len(rcv.bodies) != 1 || !strings.Contains(string(rcv.bodies[0]), `"severity":"critical"`) {
		t.Errorf("deliveries: %d %s", len(rcv.ok), rcv.bodies)
	} else {
		h := rcv.headers[0]
		ts, _ := strconv.ParseInt(h.Get("webhook-timestamp"), 10, 64)
		if err := write.VerifyWebhook(created.Secret, h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature"),
			rcv.bodies[0], time.Unix(ts, 0)); err != nil {
			t.Errorf("signature: %v", err)
		}
	}
	rcv.mu.Unlock()
	apptest.MustUnmarshal(t, get("/v1/river-levels", ""), &ans)
	if len(ans.Readings) != 1 || ans.Readings[0].Status != "critical" || len(ans.Alerts) != 1 || ans.Alerts[0].Severity != "critical" ||
		ans.Alerts[0].Gauge != "st-louis" || ans.Alerts[0].Since != now.Add(-100*time.Minute).Format(time.RFC3339) {
		t.Fatalf("critical: %+v", ans)
	}

	// A failed fetch keeps the readings and says so.
	stub.set(nil, http.StatusServiceUnavailable)
	if _, err := job.Run(ctx, jobs.State{}); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("a 503 fetch: %v", err)
	}
	stub.set([]byte(`{"value":{"timeSeries":[]}}`), 0)
	if _, err := job.Run(ctx, jobs.State{}); err == nil || !strings.Contains(err.Error(), "empty series") {
		t.Errorf("an empty series: %v", err)
	}
	apptest.MustUnmarshal(t, get("/v1/river-levels", ""), &ans)
	if len(ans.Readings) != 1 || ans.Readings[0].LevelFt != -5.4 || ans.Source.Status != "stale" || ans.Source.FailuresSinceSuccess != 2 ||
		ans.Source.LastError == nil || ans.Source.LastSuccessAt == nil {
		t.Fatalf("after failures: %+v", ans.Source)
	}

	// It recovers: the alert is resolved, nothing more is delivered.
	levels = append(levels, sourcetest.Level{At: now.Add(-30 * time.Minute), Ft: -2.0}, sourcetest.Level{At: now.Add(-15 * time.Minute), Ft: 0.1})
	step(levels)
	got = myRiverAlerts()
	if len(got) != 1 {
		t.Fatalf("river alerts after recovery: %+v", got)
	}
	var feed struct{ Alerts []read.UnifiedAlert }
	apptest.MustUnmarshal(t, get("/v1/alerts/unified?state=resolved", ""), &feed)
	resolved := false
	for _, al := range feed.Alerts {
		resolved = resolved || al.AlertID == fmt.Sprintf("overwatch:%d", got[0].ID)
	}
	if !resolved {
		t.Errorf("the alert is not resolved: %+v", feed.Alerts)
	}
	apptest.MustUnmarshal(t, get("/v1/river-levels", ""), &ans)
	if ans.Readings[0].Status != "normal" || len(ans.Alerts) != 0 || ans.Source.Status != "live" {
		t.Fatalf("recovered: %+v", ans)
	}
	rcv.mu.Lock()
	if len(rcv.bodies) != 1 {
		t.Errorf("%d deliveries, want 1", len(rcv.bodies))
	}
	rcv.mu.Unlock()
}
