package stripe

import (
	"context"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/write"
	"overwatch/write/stripe/stripetest"
)

// The Checkout Session request against stripe-mock, which validates it
// against Stripe's OpenAPI specification.
func TestCheckoutURLAgainstStripeMock(t *testing.T) {
	t.Parallel()
	api := stripetest.Start(t)
	c := New(Config{SecretKey: stripetest.SecretKey, API: api, Prices: map[overwatch.Plan]string{overwatch.PlanPro: "price_pro"}})
	url, err := c.CheckoutURL(context.Background(), write.CheckoutRequest{AccountID: 42, Email: "a@example.com", Plan: overwatch.PlanPro,
		SuccessURL: "https://overwatch.test/billing/success?session_id={CHECKOUT_SESSION_ID}", CancelURL: "https://overwatch.test/billing/cancel"})
	if err != nil || !strings.HasPrefix(url, "https://checkout.stripe.com/") {
		t.Fatalf("checkout: %q %v", url, err)
	}
	// No price for the plan, or no key: not configured.
	if _, err := c.CheckoutURL(context.Background(), write.CheckoutRequest{AccountID: 42, Plan: overwatch.PlanStarter}); !errors.Is(err, write.ErrBillingNotConfigured) {
		t.Errorf("no price: %v", err)
	}
	bad := New(Config{SecretKey: "not-a-key", API: api, Prices: map[overwatch.Plan]string{overwatch.PlanPro: "price_pro"}})
	if _, err := bad.CheckoutURL(context.Background(), write.CheckoutRequest{AccountID: 42, Plan: overwatch.PlanPro,
		SuccessURL: "https://x.test/ok", CancelURL: "https://x.test/no"}); err == nil || errors.Is(err, write.ErrBillingNotConfigured) {
		t.Errorf("a key Stripe refuses: %v", err)
	}
}

func TestParseEventSignature(t *testing.T) {
	t.Parallel()
	const secret = "whsec_test_secret"
	c := New(Config{WebhookSecret: secret})
	now := time.Unix(1_780_000_000, 0)
	payload := stripetest.Event("evt_1", 42, "pro")
	ev, err := c.ParseEvent(payload, SignatureHeader(secret, now, payload), now)
	if err != nil || ev.ID != "evt_1" || ev.Type != write.CheckoutCompleted || ev.AccountID != 42 || ev.Plan != overwatch.PlanPro || !ev.Paid {
		t.Fatalf("valid event: %+v %v", ev, err)
	}
	good := SignatureHeader(secret, now, payload)
	for name, c2 := range map[string]struct {
		header string
		at     time.Time
		body   []byte
	}{
		"wrong secret":     {SignatureHeader("whsec_other", now, payload), now, payload},
		"stale":            {good, now.Add(6 * time.Minute), payload},
		"from the future":  {good, now.Add(-6 * time.Minute), payload},
		"tampered payload": {good, now, append([]byte(nil), strings.Replace(string(payload), `"pro"`, `"supply_chain_risk"`, 1)...)},
		"no header":        {"", now, payload},
		"malformed":        {"t=abc,v1=zz", now, payload},
		"no v1":            {strings.Replace(good, "v1=", "v0=", 1), now, payload},
	} {
		if _, err := c.ParseEvent(c2.body, c2.header, c2.at); !errors.Is(err, ErrSignature) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Several v1 signatures (a secret being rolled): any one verifies.
	multi := "t=" + strings.TrimPrefix(strings.Split(good, ",")[0], "t=") + ",v1=00ff," + strings.Split(good, ",")[1]
	if _, err := c.ParseEvent(payload, multi, now); err != nil {
		t.Errorf("several signatures: %v", err)
	}
	// Not an event, though signed.
	junk := []byte(`[1,2]`)
	if _, err := c.ParseEvent(junk, SignatureHeader(secret, now, junk), now); err == nil {
		t.Error("a signed non-event was accepted")
	}
	if _, err := New(Config{}).ParseEvent(payload, good, now); !errors.Is(err, write.ErrBillingNotConfigured) {
		t.Errorf("no webhook secret: %v", err)
	}
}

// FuzzParseEvent: any header and payload give an event or an error, never
// a panic, and nothing unsigned is accepted.
func FuzzParseEvent(f *testing.F) {
	now := time.Unix(1_780_000_000, 0)
	p := stripetest.Event("evt_1", 42, "pro")
	f.Add(p, SignatureHeader("whsec_x", now, p))
	f.Add([]byte(`{}`), "t=1,v1=00")
	c := New(Config{WebhookSecret: "whsec_x"})
	f.Fuzz(func(t *testing.T, payload []byte, header string) {
		ev, err := c.ParseEvent(payload, header, now)
		if err != nil {
			return
		}
		// Accepted: the header holds the true signature of its time.
		signed := false
		for _, part := range strings.Split(header, ",") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(part), "t="); ok {
				if ts, err := strconv.ParseInt(v, 10, 64); err == nil {
					signed = signed || strings.Contains(strings.ToLower(header), hex.EncodeToString(Sign("whsec_x", ts, payload)))
				}
			}
		}
		if !signed {
			t.Fatalf("accepted %q with header %q: %+v", payload, header, ev)
		}
	})
}
