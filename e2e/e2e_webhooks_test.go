package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/read"
	"overwatch/testclock"
	"overwatch/write"
	"overwatch/write/outbound"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// receiver is a webhook endpoint that fails its first fail requests.
type receiver struct {
	mu      sync.Mutex
	fail    int
	calls   int
	ok      []string // webhook-id of the deliveries it accepted
	headers []http.Header
	bodies  [][]byte
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	r.headers, r.bodies = append(r.headers, req.Header.Clone()), append(r.bodies, body)
	if r.calls <= r.fail {
		http.Error(w, "down", http.StatusInternalServerError)
		return
	}
	r.ok = append(r.ok, req.Header.Get("webhook-id"))
}

// Webhooks end to end: registration (Pro only, answered in the documented
// {"webhook": ...}; across accounts 404), signed deliveries retried after
// failures and received once, the delivery log, disabling after repeated
// failure, the chat test.
func TestWebhooksEndToEnd(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"})
	a, accountA := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	b, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	ip := apptest.FreshIP()
	do, expect := s.Caller(t, ip), apptest.Expecter(t)
	rcv := &receiver{fail: 2}
	srv := httptest.NewServer(rcv)
	defer srv.Close()

	expect(do(starter, "GET", "/v1/webhooks", ""), 200, `{"webhooks":[]}`) // listing: every plan
	expect(do(starter, "POST", "/v1/webhooks", `{"url":"`+srv.URL+`","event_types":["dark_fleet"]}`), 403,
		"the Pro plan or higher is needed for real-time webhooks; this key's plan is Starter")
	expect(do(a, "POST", "/v1/webhooks", `{"url":"https://10.0.0.7/hook","event_types":["dark_fleet"]}`), 400, "private")
	expect(do(a, "POST", "/v1/webhooks", `{"url":"ftp://example.com/","event_types":["dark_fleet"]}`), 400, "url")
	expect(do(a, "POST", "/v1/webhooks", `{"url":"`+srv.URL+`","event_types":["weather"]}`), 400, "event_types")
	r := do(a, "POST", "/v1/webhooks", `{"url":"`+srv.URL+`","event_types":["dark_fleet","dark_fleet"]}`)
	expect(r, 201, `{"webhook":{"id":`) // the documented root key
	var created write.CreatedWebhook
	apptest.MustUnmarshal(t, r.Body, &struct{ Webhook *write.CreatedWebhook }{&created})
	if created.ID == 0 || !strings.HasPrefix(created.Secret, "whsec_") || created.URL != srv.URL ||
		len(created.EventTypes) != 1 || created.Warning == "" {
		t.Fatalf("registered: %s", r.Body)
	}
	path := "/v1/webhooks/" + strconv.FormatInt(created.ID, 10)
	expect(do(a, "GET", "/v1/webhooks", ""), 200, `"event_types":["dark_fleet"]`)
	if strings.Contains(string(do(a, "GET", "/v1/webhooks", "").Body), "whsec_") {
		t.Error("the secret is listed")
	}
	expect(do(b, "GET", "/v1/webhooks", ""), 200, `{"webhooks":[]}`)
	expect(do(b, "DELETE", path, ""), 404, "no webhook")
	expect(do(b, "POST", path+"/pause", ""), 404, "no webhook")
	expect(do(b, "GET", path+"/deliveries", ""), 404, "no webhook")

	// An event, queued twice (one delivery), delivered after two failures.
	ctx := context.Background()
	payload := []byte(`{"type":"dark_fleet","alert":{"alert_id":"overwatch:1"}}`)
	eventID := fmt.Sprintf("evt_%d", time.Now().UnixNano())
	for range 2 {
		if _, err := s.Pg.EnqueueEvent(ctx, accountA, "dark_fleet", eventID, payload); err != nil {
			t.Fatal(err)
		}
	}
	client := outbound.New(outbound.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AllowHTTP: true})
	poster := app.NewWebhookPoster(client)
	clock := time.Now()
	now := func() time.Time { return clock }
	for attempt := 1; attempt <= 3; attempt++ {
		if _, err := jobs.DeliverDue(ctx, s.Pg, poster, now, 100); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(6 * time.Minute) // past the 5 s, then the 5 min backoff
	}
	if _, err := jobs.DeliverDue(ctx, s.Pg, poster, now, 100); err != nil { // nothing left
		t.Fatal(err)
	}
	rcv.mu.Lock()
	if rcv.calls != 3 || len(rcv.ok) != 1 || rcv.ok[0] != eventID {
		t.Errorf("receiver: %d calls, accepted %v", rcv.calls, rcv.ok)
	}
	for i, h := range rcv.headers {
		if h.Get("webhook-id") != eventID {
			t.Errorf("attempt %d: webhook-id %q", i+1, h.Get("webhook-id"))
		}
		// Verified as a receiver would, at the time it was signed.
		ts, _ := strconv.ParseInt(h.Get("webhook-timestamp"), 10, 64)
		if err := write.VerifyWebhook(created.Secret, h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature"),
			rcv.bodies[i], time.Unix(ts, 0)); err != nil || string(rcv.bodies[i]) != string(payload) {
			t.Errorf("attempt %d: %v", i+1, err)
		}
	}
	rcv.mu.Unlock()
	var log struct{ Deliveries []read.DeliveryView }
	apptest.MustUnmarshal(t, do(a, "GET", path+"/deliveries", "").Body, &log)
	if len(log.Deliveries) != 1 || log.Deliveries[0].Status != "delivered" || log.Deliveries[0].Attempts != 3 {
		t.Fatalf("delivery log: %+v", log)
	}
	var attempts []map[string]any
	_ = json.Unmarshal(log.Deliveries[0].AttemptList, &attempts)
	if len(attempts) != 3 || attempts[0]["status_code"] != 500.0 || attempts[2]["status_code"] != 200.0 {
		t.Errorf("attempts: %s", log.Deliveries[0].AttemptList)
	}

	// A webhook whose endpoint always fails: its deliveries die after the
	// whole schedule, and after three dead ones in a row it is disabled.
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) }))
	defer down.Close()
	expect(do(a, "DELETE", path, ""), 200, `"deleted":true`)
	r = do(a, "POST", "/v1/webhooks", `{"url":"`+down.URL+`","event_types":["sanctions_match"]}`)
	apptest.MustUnmarshal(t, r.Body, &struct{ Webhook *write.CreatedWebhook }{&created})
	for i := range jobs.WebhookDisableAfter {
		if _, err := s.Pg.EnqueueEvent(ctx, accountA, "sanctions_match", fmt.Sprintf("%s-dead-%d", eventID, i), payload); err != nil {
			t.Fatal(err)
		}
	}
	for range len(jobs.WebhookBackoff) + 2 {
		if _, err := jobs.DeliverDue(ctx, s.Pg, poster, now, 100); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(25 * time.Hour)
	}
	var hooks struct{ Webhooks []read.Webhook }
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/webhooks", "").Body, &hooks)
	if len(hooks.Webhooks) != 1 || hooks.Webhooks[0].DisabledAt == nil || !strings.Contains(hooks.Webhooks[0].DisabledReason, "failed every attempt") {
		t.Errorf("not disabled: %+v", hooks)
	}
	expect(do(a, "GET", "/v1/alerts?type=webhook_disabled", ""), 200, fmt.Sprintf(`"title":"Webhook %d disabled"`, created.ID))
	expect(do(b, "POST", "/v1/webhooks/"+strconv.FormatInt(created.ID, 10)+"/resume", ""), 404, "no webhook")
	expect(do(a, "POST", "/v1/webhooks/"+strconv.FormatInt(created.ID, 10)+"/resume", ""), 200, `"paused":false`)
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/webhooks", "").Body, &hooks)
	if hooks.Webhooks[0].DisabledAt != nil || hooks.Webhooks[0].ConsecutiveFailures != 0 {
		t.Errorf("resumed: %+v", hooks)
	}

	// A new alert is queued for the webhooks subscribed to its type, in the
	// transaction that raises it.
	key := fmt.Sprintf("webhook-e2e/%d", time.Now().UnixNano())
	if n, err := s.Pg.RaiseAlerts(ctx, []jobs.Alert{{AccountID: accountA, Type: jobs.AlertSanctions, Severity: jobs.SeverityCritical,
		Title: "t", Message: "m", IMO: "9187629", EventKey: key, EventAt: testclock.Now()}}); err != nil || n != 1 {
		t.Fatalf("raise: %d %v", n, err)
	}
	apptest.MustUnmarshal(t, do(a, "GET", "/v1/webhooks/"+strconv.FormatInt(created.ID, 10)+"/deliveries", "").Body, &log)
	if len(log.Deliveries) == 0 || !strings.HasPrefix(log.Deliveries[0].EventID, "alert_") || log.Deliveries[0].Status != "pending" {
		t.Errorf("the alert's delivery: %+v", log.Deliveries)
	}

	// The chat test.
	chat := &receiver{}
	chatSrv := httptest.NewServer(chat)
	defer chatSrv.Close()
	expect(do(starter, "POST", "/v1/webhooks/slack-test", `{"url":"`+chatSrv.URL+`","message":"hello"}`), 200, `"success":true`)
	if len(chat.bodies) != 1 || string(chat.bodies[0]) != `{"text":"hello"}` {
		t.Errorf("chat message: %q", chat.bodies)
	}
	expect(do(starter, "POST", "/v1/webhooks/slack-test", `{"url":"https://169.254.169.254/latest"}`), 200, `"success":false`)
	expect(do(starter, "POST", "/v1/webhooks/slack-test", `{}`), 400, "body must be")
}
