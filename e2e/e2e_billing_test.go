package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/write"
	"overwatch/write/outbound"
	"overwatch/write/stripe"
	"overwatch/write/stripe/stripetest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Billing end to end: entitlements, a Checkout Session created on
// stripe-mock, and Stripe's signed event changing the plan, which applies
// to the account's limits at its next request.
func TestBilling(t *testing.T) {
	api := stripetest.Start(t)
	const secret = "whsec_e2e"
	s := apptest.StartServer(t, map[string]string{"STRIPE_SECRET_KEY": stripetest.SecretKey, "STRIPE_WEBHOOK_SECRET": secret,
		"STRIPE_API_URL": api, "STRIPE_PRICES": "starter=price_starter, pro=price_pro,supply_chain_risk=price_scr"})
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	ip := apptest.FreshIP()
	entitlements := func() write.Entitlement {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/billing/entitlements", IP: ip, Key: key})
		if r.StatusCode != 200 {
			t.Fatalf("entitlements: %d %s", r.StatusCode, r.Body)
		}
		var e write.Entitlements
		apptest.MustUnmarshal(t, r.Body, &e)
		return e.Entitlements
	}
	if e := entitlements(); e != (write.Entitlement{Plan: "free", Product: "overwatch", CanAccessOverwatch: true}) {
		t.Errorf("free: %+v", e)
	}
	checkout := func(body string) apptest.Response {
		return s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/billing/checkout", IP: ip, Key: key, Body: body})
	}
	if r := checkout(`{"plan":"pro"}`); r.StatusCode != 200 || !strings.Contains(string(r.Body), `"url":"https://checkout.stripe.com/`) {
		t.Errorf("checkout: %d %s", r.StatusCode, r.Body)
	}
	for body, want := range map[string]string{`{"plan":"free"}`: "needs no checkout", `{"plan":"gold"}`: "plan must be one of",
		`{}`: "plan is required", `nonsense`: "body must be"} {
		if r := checkout(body); r.StatusCode != 400 || !strings.Contains(string(r.Body), want) {
			t.Errorf("checkout %s: %d %s", body, r.StatusCode, r.Body)
		}
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/export?type=visits", IP: ip, Key: key}); r.StatusCode != 403 {
		t.Errorf("free export: %d", r.StatusCode)
	}

	event := func(id string, acct int64, plan string, sign func([]byte) string) apptest.Response {
		t.Helper()
		payload := stripetest.Event(id, acct, plan)
		return s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/billing/webhook", IP: ip, Body: string(payload),
			Header: map[string]string{"Stripe-Signature": sign(payload)}})
	}
	signed := func(p []byte) string { return stripe.SignatureHeader(secret, time.Now(), p) }
	id := fmt.Sprintf("evt_%d", time.Now().UnixNano())
	if r := event(id, account, "pro", signed); r.StatusCode != 200 || string(r.Body) != `{"received":true,"applied":true}` {
		t.Fatalf("payment: %d %s", r.StatusCode, r.Body)
	}
	if e := entitlements(); e.Plan != "pro" || e.HasBundle {
		t.Errorf("after the payment: %+v", e)
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/export?type=visits", IP: ip, Key: key}); r.StatusCode != 200 {
		t.Errorf("the Pro plan's export right away: %d %s", r.StatusCode, r.Body)
	}
	if r := event(id, account, "pro", signed); r.StatusCode != 200 || string(r.Body) != `{"received":true,"applied":false}` {
		t.Errorf("a retried event: %d %s", r.StatusCode, r.Body)
	}
	if r := checkout(`{"plan":"pro"}`); r.StatusCode != 409 {
		t.Errorf("checkout of the current plan: %d %s", r.StatusCode, r.Body)
	}
	for name, sign := range map[string]func([]byte) string{
		"wrong secret": func(p []byte) string { return stripe.SignatureHeader("whsec_other", time.Now(), p) },
		"stale":        func(p []byte) string { return stripe.SignatureHeader(secret, time.Now().Add(-time.Hour), p) },
		"unsigned":     func([]byte) string { return "" },
	} {
		if r := event(id+"x", account, "supply_chain_risk", sign); r.StatusCode != 400 {
			t.Errorf("%s: %d %s", name, r.StatusCode, r.Body)
		}
	}
	if e := entitlements(); e.Plan != "pro" {
		t.Errorf("a refused event changed the plan: %+v", e)
	}
	if r := event(id+"-scr", account, "supply_chain_risk", signed); r.StatusCode != 200 || !strings.Contains(string(r.Body), `"applied":true`) {
		t.Errorf("bundle: %d %s", r.StatusCode, r.Body)
	}
	if e := entitlements(); e != (write.Entitlement{Plan: "supply_chain_risk", Product: "supply_chain_risk", HasBundle: true,
		CanAccessOverwatch: true, CanAccessLocus: true}) {
		t.Errorf("bundle: %+v", e)
	}
	if r := event(id+"-ghost", 999_999_999, "pro", signed); r.StatusCode != 200 || !strings.Contains(string(r.Body), `"applied":false`) {
		t.Errorf("unknown account: %d %s", r.StatusCode, r.Body)
	}

	// A delayed payment: the checkout completes unpaid (no change), then
	// the payment succeeds (the plan changes).
	key2, account2 := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	session := func(id, typ, status string) apptest.Response {
		t.Helper()
		payload := stripetest.SessionEvent(id, typ, account2, "starter", status)
		return s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/billing/webhook", IP: ip, Body: string(payload),
			Header: map[string]string{"Stripe-Signature": signed(payload)}})
	}
	plan2 := func() string {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/billing/entitlements", IP: ip, Key: key2})
		var e write.Entitlements
		apptest.MustUnmarshal(t, r.Body, &e)
		return string(e.Entitlements.Plan)
	}
	if r := session(id+"-unpaid", write.CheckoutCompleted, "unpaid"); r.StatusCode != 200 || string(r.Body) != `{"received":true,"applied":false}` || plan2() != "free" {
		t.Errorf("an unpaid completed checkout: %d %s, plan %s", r.StatusCode, r.Body, plan2())
	}
	if r := session(id+"-async", write.CheckoutAsyncSucceeded, "paid"); r.StatusCode != 200 || string(r.Body) != `{"received":true,"applied":true}` || plan2() != "starter" {
		t.Errorf("a delayed payment that succeeded: %d %s, plan %s", r.StatusCode, r.Body, plan2())
	}
}

// Without Stripe keys, checkout and the provider's events are 503.
func TestBillingNotConfigured(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	ip := apptest.FreshIP()
	if r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/billing/checkout", IP: ip, Key: key, Body: `{"plan":"pro"}`}); r.StatusCode != 503 {
		t.Errorf("checkout: %d %s", r.StatusCode, r.Body)
	}
	p := stripetest.Event("evt_nc", account, "pro")
	if r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/billing/webhook", IP: ip, Body: string(p),
		Header: map[string]string{"Stripe-Signature": stripe.SignatureHeader("whsec_x", time.Now(), p)}}); r.StatusCode != 503 {
		t.Errorf("webhook: %d %s", r.StatusCode, r.Body)
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/billing/entitlements", IP: ip, Key: key}); r.StatusCode != 200 || !strings.Contains(string(r.Body), `"plan":"starter"`) {
		t.Errorf("entitlements: %d %s", r.StatusCode, r.Body)
	}
}

// An account moved from Pro to a plan without webhooks (a Starter payment)
// keeps its webhooks: it lists them (paused_by_plan), reads their
// deliveries, pauses and deletes them, but cannot resume or add one; its
// queued delivery waits and nothing new is queued. Back on Pro, the queued
// delivery goes out.
func TestDowngradePausesWebhooks(t *testing.T) {
	const secret = "whsec_e2e_downgrade"
	s := apptest.StartServer(t, map[string]string{"STRIPE_WEBHOOK_SECRET": secret, "OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"})
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	do, expect := s.Caller(t, apptest.FreshIP()), apptest.Expecter(t)
	rcv := &receiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	var hooks [2]write.CreatedWebhook
	for i := range hooks {
		r := do(key, "POST", "/v1/webhooks", `{"url":"`+srv.URL+`","event_types":["dark_fleet"]}`)
		apptest.MustUnmarshal(t, r.Body, &struct{ Webhook *write.CreatedWebhook }{&hooks[i]})
	}
	path := "/v1/webhooks/" + strconv.FormatInt(hooks[0].ID, 10)
	id := fmt.Sprintf("evt_downgrade_%d", time.Now().UnixNano())
	ctx := context.Background()
	if n, err := s.Pg.EnqueueEvent(ctx, account, "dark_fleet", id, []byte(`{"n":1}`)); err != nil || n != 2 {
		t.Fatalf("queued on Pro: %d %v", n, err)
	}
	move := func(plan string) {
		t.Helper()
		payload := stripetest.Event(id+"-"+plan+strconv.Itoa(len(rcv.ok)), account, plan)
		r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/billing/webhook", IP: apptest.FreshIP(), Body: string(payload),
			Header: map[string]string{"Stripe-Signature": stripe.SignatureHeader(secret, time.Now(), payload)}})
		if r.StatusCode != 200 || !strings.Contains(string(r.Body), `"applied":true`) {
			t.Fatalf("to %s: %d %s", plan, r.StatusCode, r.Body)
		}
	}
	poster := app.NewWebhookPoster(outbound.New(outbound.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AllowHTTP: true}))
	deliver := func() {
		t.Helper()
		if _, err := jobs.DeliverDue(ctx, s.Pg, poster, time.Now, 100); err != nil {
			t.Fatal(err)
		}
	}

	move("starter")
	expect(do(key, "GET", "/v1/webhooks", ""), 200, `"paused_by_plan":true`)
	expect(do(key, "GET", path+"/deliveries", ""), 200, `"status":"pending"`)
	if n, err := s.Pg.EnqueueEvent(ctx, account, "dark_fleet", id+"-starter", []byte(`{"n":2}`)); err != nil || n != 0 {
		t.Errorf("queued on Starter: %d %v", n, err)
	}
	deliver()
	rcv.mu.Lock()
	if rcv.calls != 0 {
		t.Fatalf("delivered on Starter: %d", rcv.calls)
	}
	rcv.mu.Unlock()
	expect(do(key, "POST", path+"/resume", ""), 403, "Pro plan")
	expect(do(key, "POST", "/v1/webhooks", `{"url":"`+srv.URL+`","event_types":["dark_fleet"]}`), 403, "Pro plan")
	expect(do(key, "POST", path+"/pause", ""), 200, `"paused":true`)
	expect(do(key, "DELETE", "/v1/webhooks/"+strconv.FormatInt(hooks[1].ID, 10), ""), 200, `"deleted":true`)

	move("pro")
	expect(do(key, "GET", "/v1/webhooks", ""), 200, `"paused_by_plan":false`)
	expect(do(key, "POST", path+"/resume", ""), 200, `"paused":false`)
	deliver()
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if len(rcv.ok) != 1 || rcv.ok[0] != id || string(rcv.bodies[0]) != `{"n":1}` {
		t.Errorf("after the upgrade the receiver got %v %q, want the delivery queued before the downgrade", rcv.ok, rcv.bodies)
	}
}
