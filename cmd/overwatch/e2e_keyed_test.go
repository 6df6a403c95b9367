package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"overwatch/testclock"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
)

func uniqueEmail(t *testing.T) string {
	return fmt.Sprintf("%s-%d@example.com", strings.ToLower(t.Name()), time.Now().UnixNano())
}

func TestKeyedAuthentication(t *testing.T) {
	s := startServer(t, nil)
	key, account := s.newKey(t, uniqueEmail(t), overwatch.PlanStarter)
	ip := freshIP()

	expect := func(r response, status int, body string) {
		t.Helper()
		if r.StatusCode != status || string(r.body) != body {
			t.Errorf("got %d %s, want %d %s", r.StatusCode, r.body, status, body)
		}
	}
	expect(s.do(t, request{path: "/v1/keys", ip: ip}), 401, `{"error":"missing API key"}`)
	typo := key[:len(key)-1] + "x"
	if strings.HasSuffix(key, "x") {
		typo = key[:len(key)-1] + "y"
	}
	for _, bad := range []string{"garbage", "ow_" + strings.Repeat("A", 49), typo} {
		expect(s.do(t, request{path: "/v1/keys", ip: ip, key: bad}), 401, `{"error":"invalid API key"}`)
	}
	// A well-formed key that was never issued.
	never, _, _, _ := overwatch.NewAPIKey()
	expect(s.do(t, request{path: "/v1/keys", ip: ip, key: never}), 401, `{"error":"invalid API key"}`)
	expect(s.do(t, request{path: "/v1/keys", ip: ip, header: map[string]string{"Authorization": "Basic dXNlcjpwYXNz"}}), 401, `{"error":"invalid API key"}`)
	if r := s.do(t, request{path: "/v1/keys", ip: ip}); !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("401 without WWW-Authenticate: %v", r.Header)
	}

	// Both headers work, Bearer in any case.
	for _, h := range []map[string]string{{"X-API-Key": key}, {"Authorization": "Bearer " + key}, {"Authorization": "bearer " + key}} {
		if r := s.do(t, request{path: "/v1/keys", ip: ip, header: h}); r.StatusCode != 200 {
			t.Errorf("%v: %d %s", h, r.StatusCode, r.body)
		}
	}

	// POST /keys: a new key, shown once, on the same account and plan.
	r := s.do(t, request{method: http.MethodPost, path: "/v1/keys", ip: ip, key: key, body: `{"name":"ci"}`})
	if r.StatusCode != 201 {
		t.Fatalf("create: %d %s", r.StatusCode, r.body)
	}
	created := r.json(t)
	newKey := created["api_key"].(string)
	if created["warning"] == "" || created["name"] != "ci" || r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("create body %s", r.body)
	}
	if r := s.do(t, request{method: http.MethodPost, path: "/v1/keys", ip: ip, key: key}); r.StatusCode != 201 {
		t.Errorf("create without a body: %d %s", r.StatusCode, r.body)
	}
	for body, msg := range map[string]string{`{"name":`: "body must be a JSON object", `[1]`: "body must be a JSON object", `{"name":"` + strings.Repeat("x", 101) + `"}`: "name must be at most 100 characters"} {
		if r := s.do(t, request{method: http.MethodPost, path: "/v1/keys", ip: ip, key: key, body: body}); r.StatusCode != 400 || !strings.Contains(string(r.body), msg) {
			t.Errorf("create with %.20s: %d %s", body, r.StatusCode, r.body)
		}
	}
	r = s.do(t, request{path: "/v1/keys", ip: ip, key: newKey})
	if r.StatusCode != 200 {
		t.Fatalf("list with the new key: %d %s", r.StatusCode, r.body)
	}
	keys := r.json(t)["keys"].([]any)
	if len(keys) != 3 || strings.Contains(string(r.body), key[11:]) || strings.Contains(string(r.body), newKey[11:]) {
		t.Errorf("list: %d keys, or a secret leaked: %s", len(keys), r.body)
	}
	newest := keys[0].(map[string]any)
	if newest["plan"] != "starter" || newest["prefix"] != newKey[:11] && keys[1].(map[string]any)["prefix"] != newKey[:11] {
		t.Errorf("list entries: %s", r.body)
	}

	// A revoked key stops working at once.
	oldID := int64(keys[2].(map[string]any)["id"].(float64))
	if err := s.pg.RevokeKey(context.Background(), account, oldID); err != nil {
		t.Fatal(err)
	}
	expect(s.do(t, request{path: "/v1/keys", ip: ip, key: key}), 401, `{"error":"invalid API key"}`)

	// Another account sees only its own keys.
	other, _ := s.newKey(t, uniqueEmail(t), overwatch.PlanFree)
	if r := s.do(t, request{path: "/v1/keys", ip: ip, key: other}); len(r.json(t)["keys"].([]any)) != 1 {
		t.Errorf("other account's list: %s", r.body)
	}
}

func TestKeyedDailyCapAndPlanChange(t *testing.T) {
	s := startServer(t, nil)
	email := uniqueEmail(t)
	key, _ := s.newKey(t, email, overwatch.PlanFree)
	for i := 1; i <= 50; i++ {
		r := s.do(t, request{path: "/v1/billing/plans", ip: freshIP(), key: key})
		if r.StatusCode != 200 {
			t.Fatalf("request %d: %d %s", i, r.StatusCode, r.body)
		}
		if r.Header.Get("X-RateLimit-Limit-Day") != "50" || r.Header.Get("X-RateLimit-Remaining-Day") != strconv.Itoa(50-i) {
			t.Fatalf("request %d headers: %v", i, r.Header)
		}
	}
	// The cap is per account: a second key of the same account shares it.
	second, _ := s.newKey(t, email, overwatch.PlanFree)
	r := s.do(t, request{path: "/v1/billing/plans", ip: freshIP(), key: second})
	if r.StatusCode != 429 || string(r.body) != `{"error":"rate limit exceeded"}` {
		t.Fatalf("51st: %d %s", r.StatusCode, r.body)
	}
	now := testclock.Now().UTC()
	untilMidnight := now.Truncate(24 * time.Hour).Add(24 * time.Hour).Sub(now).Seconds()
	if retry, _ := strconv.Atoi(r.Header.Get("Retry-After")); math.Abs(float64(retry)-untilMidnight) > 3 {
		t.Errorf("Retry-After %s, want about %.0f", r.Header.Get("Retry-After"), untilMidnight)
	}
	if r.Header.Get("X-RateLimit-Remaining-Day") != "0" || r.Header.Get("X-RateLimit-Limit-Minute") != "60" {
		t.Errorf("429 headers: %v", r.Header)
	}
	// Upgrading the plan applies at once.
	s.newKey(t, email, overwatch.PlanStarter)
	r = s.do(t, request{path: "/v1/billing/plans", ip: freshIP(), key: key})
	if r.StatusCode != 200 || r.Header.Get("X-RateLimit-Limit-Day") != "1000" || r.Header.Get("X-RateLimit-Remaining-Day") != "949" {
		t.Fatalf("after upgrade: %d %v", r.StatusCode, r.Header)
	}
}

func TestKeyedPerIPMinuteLimit(t *testing.T) {
	s := startServer(t, nil)
	key, _ := s.newKey(t, uniqueEmail(t), overwatch.PlanPro)
	ip := freshIP()
	for i := 1; i <= 60; i++ {
		if r := s.do(t, request{path: "/v1/ports", ip: ip, key: key}); r.StatusCode != 200 {
			t.Fatalf("request %d: %d", i, r.StatusCode)
		}
	}
	r := s.do(t, request{path: "/v1/keys", ip: ip, key: key})
	retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.StatusCode != 429 || retry < 1 || retry > 60 || r.Header.Get("X-RateLimit-Remaining-Minute") != "0" {
		t.Fatalf("61st from one IP: %d %v %s", r.StatusCode, r.Header, r.body)
	}
	// Anonymous callers of the public keyed endpoints share the per-IP limit.
	if r := s.do(t, request{path: "/v1/ports", ip: ip}); r.StatusCode != 429 {
		t.Errorf("anonymous from a limited IP: %d", r.StatusCode)
	}
	if r := s.do(t, request{path: "/v1/ports", ip: freshIP()}); r.StatusCode != 200 || r.Header.Get("X-RateLimit-Limit-Day") != "" {
		t.Errorf("anonymous from a fresh IP: %d %v", r.StatusCode, r.Header)
	}
}

func TestPortsHealthPlans(t *testing.T) {
	s := startServer(t, nil)
	free, _ := s.newKey(t, uniqueEmail(t), overwatch.PlanFree)
	starter, _ := s.newKey(t, uniqueEmail(t), overwatch.PlanStarter)

	for name, key := range map[string]string{"anonymous": "", "free": free} {
		r := s.do(t, request{path: "/v1/ports", ip: freshIP(), key: key})
		ports := r.json(t)["ports"].([]any)
		if r.StatusCode != 200 || len(ports) != 40 {
			t.Fatalf("%s: %d, %d ports", name, r.StatusCode, len(ports))
		}
		for _, p := range ports {
			m := p.(map[string]any)
			for _, k := range []string{"latitude", "longitude", "area", "anchorages", "berths"} {
				if _, ok := m[k]; ok {
					t.Fatalf("%s sees %s of %s", name, k, m["slug"])
				}
			}
		}
	}
	r := s.do(t, request{path: "/v1/ports", ip: freshIP(), key: starter})
	ports := r.json(t)["ports"].([]any)
	slugs := make([]string, len(ports))
	for i, p := range ports {
		m := p.(map[string]any)
		slugs[i] = m["slug"].(string)
		if m["latitude"] == nil || m["area"] == nil || len(m["anchorages"].([]any)) == 0 || len(m["berths"].([]any)) == 0 {
			t.Fatalf("starter lacks coordinates or zones of %s", m["slug"])
		}
	}
	if !sort.StringsAreSorted(slugs) {
		t.Error("ports are not in slug order")
	}
	if r := s.do(t, request{path: "/v1/ports", ip: freshIP(), key: "bogus"}); r.StatusCode != 401 {
		t.Errorf("a bad key on a public endpoint is refused, not ignored: %d", r.StatusCode)
	}

	r = s.do(t, request{path: "/v1/health", ip: freshIP()})
	counts, err := s.ch.HealthCounts(context.Background(), testclock.Now())
	if err != nil {
		t.Fatal(err)
	}
	h := r.json(t)
	if r.StatusCode != 200 || h["status"] != "ok" || h["vessels"] != float64(counts.Vessels) || h["positions"] != float64(counts.Positions) {
		t.Errorf("health %d %s, store says %+v", r.StatusCode, r.body, counts)
	}

	r = s.do(t, request{path: "/v1/billing/plans", ip: freshIP()})
	plans := r.json(t)["plans"].([]any)
	if r.StatusCode != 200 || len(plans) != 4 {
		t.Fatalf("plans: %d %s", r.StatusCode, r.body)
	}
	want := []string{"free:0:50:20", "starter:49:1000:100", "pro:199:10000:500", "supply_chain_risk:499:10000:500"}
	for i, p := range plans {
		m := p.(map[string]any)
		if got := fmt.Sprintf("%s:%v:%v:%v", m["id"], m["price_usd_month"], m["requests_per_day"], m["results_per_call"]); got != want[i] {
			t.Errorf("plan %d = %s, want %s", i, got, want[i])
		}
	}
}

func TestUnknownRoutesAndOpenAPI(t *testing.T) {
	s := startServer(t, nil)
	for _, path := range []string{"/v1/nope", "/v2/ports", "/", "/v1/ais/aishub/9321483/location"} {
		r := s.do(t, request{path: path, ip: freshIP()})
		if r.StatusCode != 404 || string(r.body) != `{"error":"no such endpoint: GET `+path+`"}` {
			t.Errorf("%s: %d %s", path, r.StatusCode, r.body)
		}
	}
	if r := s.do(t, request{method: http.MethodDelete, path: "/v1/ports", ip: freshIP()}); r.StatusCode != 405 || r.Header.Get("Allow") != "GET, OPTIONS" {
		t.Errorf("DELETE /v1/ports: %d, Allow %q", r.StatusCode, r.Header.Get("Allow"))
	}
	if r := s.do(t, request{method: http.MethodOptions, path: "/v1/keys", ip: freshIP()}); r.StatusCode != 204 || !strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "X-API-Key") {
		t.Errorf("keyed preflight: %d %v", r.StatusCode, r.Header)
	}
	r := s.do(t, request{path: "/v1/openapi.json", ip: freshIP()})
	doc := r.json(t)
	paths := doc["paths"].(map[string]any)
	// Every route of routes.go is documented.
	for _, rt := range newApp(&deps{limits: limits{store: newMemoryRates()}}).GetRoutes(true) {
		if rt.Method == http.MethodHead || rt.Path == "/v1/*" || !strings.HasPrefix(rt.Path, "/v1/") {
			continue // HEAD mirrors GET; /metrics is operations, not the API
		}
		p := routeParam.ReplaceAllString(strings.TrimPrefix(rt.Path, "/v1"), "{$1}")
		op, ok := paths[p].(map[string]any)
		if !ok || op[strings.ToLower(rt.Method)] == nil {
			t.Errorf("%s %s is not documented in the OpenAPI document (cmd/overwatch/openapi)", rt.Method, rt.Path)
		}
	}
}

func TestKeysCommand(t *testing.T) {
	s := startServer(t, nil)
	_, pgURL := e2eStores(t)
	env := func(k string) string { return map[string]string{"DATABASE_URL": pgURL}[k] }
	var stdout, stderr strings.Builder
	email := uniqueEmail(t)
	if err := run(context.Background(), []string{"overwatch", "keys", "create", "--email", email, "--plan", "pro", "--name", "ops"}, clockEnv(env), &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	key := strings.TrimSpace(stdout.String())
	if strings.Count(stdout.String(), "\n") != 1 || !strings.HasPrefix(key, "ow_") || strings.Contains(stderr.String(), key) {
		t.Fatalf("stdout must be the key alone, and stderr must not repeat it:\nstdout %q\nstderr %q", stdout.String(), stderr.String())
	}
	r := s.do(t, request{path: "/v1/keys", ip: freshIP(), key: key})
	if r.StatusCode != 200 || r.Header.Get("X-RateLimit-Limit-Day") != "10000" {
		t.Fatalf("the new key: %d %v", r.StatusCode, r.Header)
	}
	id := strconv.Itoa(int(r.json(t)["keys"].([]any)[0].(map[string]any)["id"].(float64)))
	for _, args := range [][]string{
		{"keys", "create", "--plan", "pro"},
		{"keys", "create", "--email", email, "--plan", "gold"},
		{"keys", "revoke"},
		{"keys", "rotate"},
		{"frobnicate"},
	} {
		if err := run(context.Background(), append([]string{"overwatch"}, args...), clockEnv(env), io.Discard, io.Discard); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
	if err := run(context.Background(), []string{"overwatch", "keys", "revoke", "--id", id}, clockEnv(env), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if r := s.do(t, request{path: "/v1/keys", ip: freshIP(), key: key}); r.StatusCode != 401 {
		t.Errorf("revoked through the CLI, still %d", r.StatusCode)
	}
	if err := run(context.Background(), []string{"overwatch", "keys", "revoke", "--id", id}, clockEnv(env), io.Discard, io.Discard); err == nil {
		t.Error("revoking twice succeeded")
	}
}

// routeParam is a Fiber path parameter (":imo"), {imo} in OpenAPI.
var routeParam = regexp.MustCompile(`:(\w+)`)
