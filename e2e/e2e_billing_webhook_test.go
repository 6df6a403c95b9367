package e2e

import (
	"fmt"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"overwatch/write/stripe"
	"overwatch/write/stripe/stripetest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Stripe's events have their own budget, drawn once the signature
// verifies: a client that spent the public per-IP limit does not starve
// them, unsigned requests do not spend it, and a verified payload that is
// not an event says so.
func TestBillingWebhookOwnLimit(t *testing.T) {
	const secret = "whsec_limit"
	s := apptest.StartServer(t, map[string]string{"STRIPE_WEBHOOK_SECRET": secret,
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "2", "OVERWATCH_BILLING_WEBHOOK_LIMIT_PER_MINUTE": "3"})
	_, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	ip := apptest.FreshIP()
	// The public surface's limit, spent from the same address.
	for i := 0; i < 3; i++ {
		s.Do(t, apptest.Request{Path: "/v1/ais/any/9321483/location/latest", IP: ip})
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/ais/any/9321483/location/latest", IP: ip}); r.StatusCode != 429 {
		t.Fatalf("the public limit: %d", r.StatusCode)
	}
	post := func(payload []byte, signature string) apptest.Response {
		t.Helper()
		return s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/billing/webhook", IP: ip, Body: string(payload),
			Header: map[string]string{"Stripe-Signature": signature}})
	}
	for i := 0; i < 5; i++ {
		p := stripetest.Event(fmt.Sprintf("evt_forged_%d_%d", i, time.Now().UnixNano()), account, "pro")
		if r := post(p, stripe.SignatureHeader("whsec_other", time.Now(), p)); r.StatusCode != 400 || !strings.Contains(string(r.Body), "signature does not verify") {
			t.Fatalf("forged event %d: %d %s", i, r.StatusCode, r.Body)
		}
	}
	malformed := []byte(`{"object":"event"}`)
	if r := post(malformed, stripe.SignatureHeader(secret, time.Now(), malformed)); r.StatusCode != 400 ||
		string(r.Body) != `{"error":"the event is not a JSON event object with an id and a type"}` {
		t.Errorf("a signed payload that is not an event: %d %s", r.StatusCode, r.Body)
	}
	for i := 2; i <= 3; i++ {
		p := stripetest.Event(fmt.Sprintf("evt_ok_%d_%d", i, time.Now().UnixNano()), account, "pro")
		if r := post(p, stripe.SignatureHeader(secret, time.Now(), p)); r.StatusCode != 200 {
			t.Fatalf("signed event %d: %d %s", i, r.StatusCode, r.Body)
		}
	}
	p := stripetest.Event(fmt.Sprintf("evt_over_%d", time.Now().UnixNano()), account, "starter")
	r := post(p, stripe.SignatureHeader(secret, time.Now(), p))
	if retry, _ := strconv.Atoi(r.Header.Get("Retry-After")); r.StatusCode != 429 || retry < 1 || retry > 60 {
		t.Errorf("the fourth signed event in a minute: %d %v %s", r.StatusCode, r.Header, r.Body)
	}
	// The budget is the endpoint's, whatever the sender's address.
	if r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/billing/webhook", IP: apptest.FreshIP(), Body: string(p),
		Header: map[string]string{"Stripe-Signature": stripe.SignatureHeader(secret, time.Now(), p)}}); r.StatusCode != 429 {
		t.Errorf("from another address: %d %s", r.StatusCode, r.Body)
	}
}
