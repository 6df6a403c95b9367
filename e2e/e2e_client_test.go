package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/client"
	owhttp "overwatch/http"
	"overwatch/write/stripe"
	"overwatch/write/stripe/stripetest"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The generated Go client (client/) against the real service: `overwatch
// run` with a small simulated fleet, and every operation of the OpenAPI
// document called through the client with real parameters from the
// simulated data (the account's keys, watchlist, portfolios, webhooks,
// freight rates and alert states created, read and removed), each answer
// decoded by the client into its types, checked, and validated against the
// document with undocumented fields refused. The test fails when an
// operation of the document was not called with a success.
func TestClientCallsEveryOperation(t *testing.T) {
	api := stripetest.Start(t)
	const secret = "whsec_client"
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(hooks.Close)
	// A small fleet keeps the test short; the examples' run (see
	// recordingDoer.examples) takes the history every table needs.
	days, vessels, wait := "2", "60", 180*time.Second
	if os.Getenv("OVERWATCH_CLIENT_EXAMPLES") != "" {
		days, vessels, wait = "500", "150", 15*time.Minute
	}
	env := map[string]string{
		"CLICKHOUSE_URL": chtest.URL(t, "e2e_client"), "OVERWATCH_DATA_DIR": t.TempDir(), "OVERWATCH_SPOOL_DIR": t.TempDir(),
		"OVERWATCH_DEMO_DAYS": days, "OVERWATCH_DEMO_VESSELS": vessels,
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000", "OVERWATCH_PUBLIC_LIMIT_PER_DAY": "1000000",
		"OVERWATCH_KEYED_LIMIT_PER_MINUTE": "100000", "OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8",
		"STRIPE_SECRET_KEY": stripetest.SecretKey, "STRIPE_WEBHOOK_SECRET": secret, "STRIPE_API_URL": api,
		"STRIPE_PRICES": "starter=price_starter,pro=price_pro,supply_chain_risk=price_scr",
	}
	out := &apptest.SyncWriter{}
	s := apptest.StartDemo(t, env, out)
	apptest.Eventually(t, wait, "the demo's backfill and derivations", func() bool {
		return strings.Contains(s.Logs.String(), "derivations done after the backfill")
	})
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	// Two platform alerts for the account, as the alerts job raises them
	// (it runs every 5 minutes), for the alert feeds and state change.
	raiseFor(t, s, account, 2)
	rec := &recordingDoer{t: t, s: s, ok: map[string]int{}, longest: map[string]int{}, examples: map[string]any{}}
	c, err := client.NewClientWithResponses(s.Base+"/v1", client.WithHTTPClient(rec),
		client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("X-API-Key", key)
			r.Header.Set("X-Forwarded-For", apptest.FreshIP())
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	callClientErrors(ctx, t, s, rec)
	fleetSize, _ := strconv.Atoi(vessels)
	imo, port := callClientReads(ctx, t, c, fleetSize)
	callClientTracks(ctx, t, c, imo)
	callClientExports(ctx, t, c, imo)
	callClientStream(ctx, t, c)
	callClientPredictions(ctx, t, c)
	callClientAccount(ctx, t, c, hooks.URL, imo, port)
	callClientBilling(ctx, t, c, secret, account)

	// Every operation of the document was called with a success.
	doc, _, err := owhttp.LoadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	total := 0
	for _, path := range doc.Paths.InMatchingOrder() {
		for method := range doc.Paths.Find(path).Operations() {
			total++
			if rec.calls(method+" "+path) == 0 {
				missing = append(missing, method+" "+path)
			}
		}
	}
	sort.Strings(missing)
	var empty []string
	for op, n := range rec.longest {
		if n == 0 {
			empty = append(empty, op)
		}
	}
	sort.Strings(empty)
	t.Logf("operations whose answers held no array element to validate: %s", strings.Join(empty, ", "))
	if dir := os.Getenv("OVERWATCH_CLIENT_EXAMPLES"); dir != "" {
		for id, v := range rec.examples {
			b, _ := json.MarshalIndent(v, "", "  ") // decoded from JSON: it encodes
			if err := os.WriteFile(filepath.Join(dir, id+".json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of %d operations were not called through the client with a success:\n%s", len(missing), total, strings.Join(missing, "\n"))
	}
	t.Logf("%d operations called through the generated client", total-len(missing))
}

// recordingDoer is the client's HTTP doer: it sends each request, validates
// the answer against the document (the end-to-end tests' strict
// validation) and counts the documented operations answered with a 2xx.
type recordingDoer struct {
	t       *testing.T
	s       *apptest.TestServer
	mu      sync.Mutex
	ok      map[string]int
	longest map[string]int // the longest array of an operation's JSON answers
	// The answers with the longest arrays, by operation id: with
	// OVERWATCH_CLIENT_EXAMPLES set to a folder, the test runs a 500-day
	// demo and writes them there, one <operationId>.json each: the
	// response examples of the document are these answers, their arrays
	// cut to 3 elements.
	examples map[string]any
}

// Do sends req and returns its response with the body read and kept.
func (d *recordingDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := apptest.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	var body []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// The live stream does not end: its first block (the retry
		// line) is the answer validated.
		body, err = bufio.NewReader(resp.Body).ReadBytes('\n')
		if err == nil {
			body = append(body, '\n')
		}
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		d.s.Validate(d.t, req, resp, body)
		if route, _, err := d.s.Router.FindRoute(req); err == nil && resp.StatusCode == 200 {
			d.mu.Lock()
			d.ok[route.Method+" "+route.Path]++
			d.mu.Unlock()
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		return resp, nil
	}
	body, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	d.s.Validate(d.t, req, resp, body)
	if route, _, err := d.s.Router.FindRoute(req); err == nil && resp.StatusCode/100 == 2 {
		op := route.Method + " " + route.Path
		var v any
		n := -1
		if json.Unmarshal(body, &v) == nil {
			n = longestArray(v)
		}
		d.mu.Lock()
		d.ok[op]++
		if prev, seen := d.longest[op]; n >= 0 && (!seen || n > prev) {
			d.longest[op] = n
			d.examples[route.Operation.OperationID] = v
		}
		d.mu.Unlock()
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

func (d *recordingDoer) calls(op string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ok[op]
}

// clientStatus is what every generated response has.
type clientStatus interface{ StatusCode() int }

// wantStatus checks that a call through the client succeeded with status
// and, where the document gives that status a JSON body, that the client
// decoded it (its JSON<status> field is set).
func wantStatus(t *testing.T, name string, r clientStatus, err error, status int) bool {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	if r.StatusCode() != status {
		body := reflect.ValueOf(r).Elem().FieldByName("Body").Bytes()
		t.Errorf("%s: status %d, want %d: %s", name, r.StatusCode(), status, body)
		return false
	}
	if f := reflect.ValueOf(r).Elem().FieldByName(fmt.Sprintf("JSON%d", status)); f.IsValid() && f.IsNil() {
		t.Errorf("%s: the client did not decode the %d answer", name, status)
		return false
	}
	return true
}

// wantCSV reports whether an operation answered 200 with a CSV file (its
// JSON form is not decoded then), failing the test otherwise.
func wantCSV(t *testing.T, name string, r interface {
	clientStatus
	ContentType() string
}, err error) bool {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	if r.StatusCode() != 200 || !strings.HasPrefix(r.ContentType(), "text/csv") {
		t.Errorf("%s: status %d, %s, want 200 text/csv", name, r.StatusCode(), r.ContentType())
		return false
	}
	return true
}

// callClientBilling calls the billing operations: plans, entitlements, a
// Checkout Session on stripe-mock and Stripe's signed event.
func callClientBilling(ctx context.Context, t *testing.T, c *client.ClientWithResponses, secret string, account int64) {
	plans, err := c.ListPlansWithResponse(ctx)
	if wantStatus(t, "plans", plans, err, 200) && len(plans.JSON200.Plans) != 4 {
		t.Errorf("plans: %d", len(plans.JSON200.Plans))
	}
	ent, err := c.BillingEntitlementsWithResponse(ctx)
	if wantStatus(t, "entitlements", ent, err, 200) && ent.JSON200.Entitlements.Plan != "pro" {
		t.Errorf("entitlements: %+v", ent.JSON200.Entitlements)
	}
	co, err := c.BillingCheckoutWithResponse(ctx, client.BillingCheckoutJSONRequestBody{Plan: "supply_chain_risk"})
	if wantStatus(t, "checkout", co, err, 200) && !strings.HasPrefix(co.JSON200.Url, "https://checkout.stripe.com/") {
		t.Errorf("checkout: %s", co.Body)
	}
	payload := stripetest.Event(fmt.Sprintf("evt_client_%d", time.Now().UnixNano()), account, "supply_chain_risk")
	wh, err := c.BillingWebhookWithBodyWithResponse(ctx,
		&client.BillingWebhookParams{StripeSignature: stripe.SignatureHeader(secret, time.Now(), payload)},
		"application/json", bytes.NewReader(payload))
	if wantStatus(t, "billing webhook", wh, err, 200) && (!wh.JSON200.Received || !wh.JSON200.Applied) {
		t.Errorf("billing webhook: %s", wh.Body)
	}
}

// callClientErrors: the client decodes the one error path's answers into
// the document's Error type: a missing key (401), a bad parameter (400
// naming it), an unknown resource (404).
func callClientErrors(ctx context.Context, t *testing.T, s *apptest.TestServer, rec *recordingDoer) {
	anon, err := client.NewClientWithResponses(s.Base+"/v1", client.WithHTTPClient(rec),
		client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("X-Forwarded-For", apptest.FreshIP())
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := anon.ListKeysWithResponse(ctx)
	if wantStatus(t, "keys without a key", keys, err, 401) && keys.JSON401.Error != "missing API key" {
		t.Errorf("keys without a key: %s", keys.Body)
	}
	c, err := client.NewClientWithResponses(s.Base+"/v1", client.WithHTTPClient(rec),
		client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("X-API-Key", "ow_"+strings.Repeat("x", 49))
			r.Header.Set("X-Forwarded-For", apptest.FreshIP())
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := c.ListVesselsWithResponse(ctx, &client.ListVesselsParams{})
	if wantStatus(t, "a malformed key", bad, err, 401) && bad.JSON401.Error != "invalid API key" {
		t.Errorf("a malformed key: %s", bad.Body)
	}
	public, err := anon.GetLatestPositionWithResponse(ctx, "nowhere", "9074729")
	if wantStatus(t, "an unknown provider", public, err, 400) && (public.JSON400.Allowed == nil || len(*public.JSON400.Allowed) != 5) {
		t.Errorf("an unknown provider: %s", public.Body)
	}
	ports, err := anon.ListPortsWithResponse(ctx)
	wantStatus(t, "ports without a key", ports, err, 200)
}
