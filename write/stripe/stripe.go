// Package stripe is the Stripe implementation of the payment provider:
// Checkout Sessions over Stripe's REST API (form-encoded, a secret key as
// Bearer token) and the verification of Stripe's signed webhook events
// (the Stripe-Signature header: t=<unix time>,v1=<hex HMAC-SHA256 of
// "<t>.<payload>">). It uses net/http only: the two calls do not need the
// stripe-go SDK, and its tests run against stripe-mock, Stripe's own mock
// of the API.
package stripe

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"overwatch"
	"overwatch/write"
)

// DefaultAPI is Stripe's API base URL.
const DefaultAPI = "https://api.stripe.com"

// SignatureTolerance is how far an event's signed time may be from now.
const SignatureTolerance = 5 * time.Minute

// Config is what the client needs: the secret API key, the webhook
// endpoint's signing secret, the API base URL (stripe-mock in tests) and
// the Stripe price of each paid plan.
type Config struct {
	SecretKey     string
	WebhookSecret string
	API           string
	Prices        map[overwatch.Plan]string
}

// Client calls Stripe.
type Client struct {
	cfg  Config
	http *http.Client
}

// New returns a client; API defaults to DefaultAPI.
func New(cfg Config) *Client {
	if cfg.API == "" {
		cfg.API = DefaultAPI
	}
	cfg.API = strings.TrimSuffix(cfg.API, "/")
	return &Client{cfg: cfg, http: &http.Client{Timeout: 15 * time.Second}}
}

// ErrNotConfigured is returned when the client has no secret key or no
// price for the plan (or no webhook secret, for events).
var ErrNotConfigured = write.ErrBillingNotConfigured

var _ write.PaymentProvider = (*Client)(nil)

// CheckoutURL creates a subscription Checkout Session for the plan and
// returns the URL to send the customer to. The session carries the
// account as client_reference_id and the plan in its metadata, which the
// checkout.session.completed event brings back.
func (c *Client) CheckoutURL(ctx context.Context, r write.CheckoutRequest) (string, error) {
	price := c.cfg.Prices[r.Plan]
	if c.cfg.SecretKey == "" || price == "" {
		return "", ErrNotConfigured
	}
	form := url.Values{
		"mode":                    {"subscription"},
		"line_items[0][price]":    {price},
		"line_items[0][quantity]": {"1"},
		"success_url":             {r.SuccessURL},
		"cancel_url":              {r.CancelURL},
		"client_reference_id":     {strconv.FormatInt(r.AccountID, 10)},
		"metadata[plan]":          {string(r.Plan)},
		"metadata[account_id]":    {strconv.FormatInt(r.AccountID, 10)},
	}
	if r.Email != "" {
		form.Set("customer_email", r.Email)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.API+"/v1/checkout/sessions", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.SecretKey)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("stripe: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("stripe: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		_ = json.Unmarshal(body, &e)
		return "", fmt.Errorf("stripe: checkout session: %d %s", resp.StatusCode, e.Error.Message)
	}
	var s struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	if err := json.Unmarshal(body, &s); err != nil || s.URL == "" {
		return "", fmt.Errorf("stripe: checkout session without a URL (%v)", err)
	}
	return s.URL, nil
}

// ErrSignature is returned for an event whose signature does not verify.
var ErrSignature = errors.New("stripe: the event's signature does not verify")

// ParseEvent verifies the Stripe-Signature header of payload (any v1
// signature made with the webhook secret, over a time within
// SignatureTolerance of now) and decodes the event: AccountID from the
// session's client_reference_id (or metadata account_id), Plan from its
// metadata, Paid for payment_status paid or no_payment_required.
func (c *Client) ParseEvent(payload []byte, header string, now time.Time) (write.PaymentEvent, error) {
	if c.cfg.WebhookSecret == "" {
		return write.PaymentEvent{}, ErrNotConfigured
	}
	var ts int64 = -1
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				ts = n
			}
		case "v1":
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	if ts < 0 || len(sigs) == 0 {
		return write.PaymentEvent{}, ErrSignature
	}
	if d := now.Sub(time.Unix(ts, 0)); d > SignatureTolerance || d < -SignatureTolerance {
		return write.PaymentEvent{}, fmt.Errorf("%w: signed at %s, outside %s of now", ErrSignature, time.Unix(ts, 0).UTC().Format(time.RFC3339), SignatureTolerance)
	}
	want := Sign(c.cfg.WebhookSecret, ts, payload)
	ok := false
	for _, s := range sigs {
		ok = ok || hmac.Equal(s, want)
	}
	if !ok {
		return write.PaymentEvent{}, ErrSignature
	}
	var e struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		Data struct {
			Object struct {
				ClientReferenceID string            `json:"client_reference_id"`
				Metadata          map[string]string `json:"metadata"`
				PaymentStatus     string            `json:"payment_status"`
			} `json:"object"`
		} `json:"data"`
	}
	if err := json.NewDecoder(bytes.NewReader(payload)).Decode(&e); err != nil || e.ID == "" || e.Type == "" {
		return write.PaymentEvent{}, fmt.Errorf("stripe: %w", write.ErrMalformedEvent)
	}
	o := e.Data.Object
	out := write.PaymentEvent{ID: e.ID, Type: e.Type, Paid: o.PaymentStatus == "paid" || o.PaymentStatus == "no_payment_required"}
	ref := o.ClientReferenceID
	if ref == "" {
		ref = o.Metadata["account_id"]
	}
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil && n > 0 {
		out.AccountID = n
	}
	if p, ok := overwatch.ParsePlan(o.Metadata["plan"]); ok {
		out.Plan = p
	}
	return out, nil
}

// Sign is the v1 signature of payload at the Unix time t with secret:
// HMAC-SHA256 of "<t>.<payload>" (what Stripe sends, hex-encoded, and
// what tests sign events with).
func Sign(secret string, t int64, payload []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(t, 10)))
	m.Write([]byte("."))
	m.Write(payload)
	return m.Sum(nil)
}

// SignatureHeader is the Stripe-Signature header of payload signed at t.
func SignatureHeader(secret string, t time.Time, payload []byte) string {
	return fmt.Sprintf("t=%d,v1=%s", t.Unix(), hex.EncodeToString(Sign(secret, t.Unix(), payload)))
}
