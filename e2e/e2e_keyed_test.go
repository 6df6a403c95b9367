package e2e

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	owhttp "overwatch/http"
	"overwatch/postgres"
	"overwatch/testclock"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestKeyedAuthentication(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	ip := apptest.FreshIP()

	expect := func(r apptest.Response, status int, body string) {
		t.Helper()
		if r.StatusCode != status || string(r.Body) != body {
			t.Errorf("got %d %s, want %d %s", r.StatusCode, r.Body, status, body)
		}
	}
	expect(s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip}), 401, `{"error":"missing API key"}`)
	typo := key[:len(key)-1] + "x"
	if strings.HasSuffix(key, "x") {
		typo = key[:len(key)-1] + "y"
	}
	for _, bad := range []string{"garbage", "ow_" + strings.Repeat("A", 49), typo} {
		expect(s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: bad}), 401, `{"error":"invalid API key"}`)
	}
	// A well-formed key that was never issued.
	never, _, _, _ := overwatch.NewAPIKey()
	expect(s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: never}), 401, `{"error":"invalid API key"}`)
	expect(s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Header: map[string]string{"Authorization": "Basic dXNlcjpwYXNz"}}), 401, `{"error":"invalid API key"}`)
	if r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip}); !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("401 without WWW-Authenticate: %v", r.Header)
	}

	// Both headers work, Bearer in any case.
	for _, h := range []map[string]string{{"X-API-Key": key}, {"Authorization": "Bearer " + key}, {"Authorization": "bearer " + key}} {
		if r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Header: h}); r.StatusCode != 200 {
			t.Errorf("%v: %d %s", h, r.StatusCode, r.Body)
		}
	}

	// POST /keys: a new key, shown once, on the same account and plan.
	r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/keys", IP: ip, Key: key, Body: `{"name":"ci"}`})
	if r.StatusCode != 201 {
		t.Fatalf("create: %d %s", r.StatusCode, r.Body)
	}
	created := r.JSON(t)
	newKey := created["api_key"].(string)
	if created["warning"] == "" || created["name"] != "ci" || r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("create body %s", r.Body)
	}
	if r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/keys", IP: ip, Key: key}); r.StatusCode != 201 {
		t.Errorf("create without a body: %d %s", r.StatusCode, r.Body)
	}
	for body, msg := range map[string]string{`{"name":`: "body must be a JSON object", `[1]`: "body must be a JSON object", `{"name":"` + strings.Repeat("x", 101) + `"}`: "name must be at most 100 characters"} {
		if r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/keys", IP: ip, Key: key, Body: body}); r.StatusCode != 400 || !strings.Contains(string(r.Body), msg) {
			t.Errorf("create with %.20s: %d %s", body, r.StatusCode, r.Body)
		}
	}
	r = s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: newKey})
	if r.StatusCode != 200 {
		t.Fatalf("list with the new key: %d %s", r.StatusCode, r.Body)
	}
	keys := r.JSON(t)["keys"].([]any)
	if len(keys) != 3 || strings.Contains(string(r.Body), key[11:]) || strings.Contains(string(r.Body), newKey[11:]) {
		t.Errorf("list: %d keys, or a secret leaked: %s", len(keys), r.Body)
	}
	newest := keys[0].(map[string]any)
	if newest["plan"] != "starter" || newest["prefix"] != newKey[:11] && keys[1].(map[string]any)["prefix"] != newKey[:11] {
		t.Errorf("list entries: %s", r.Body)
	}

	// A revoked key stops working at once.
	oldID := int64(keys[2].(map[string]any)["id"].(float64))
	if err := s.Pg.RevokeKey(context.Background(), account, oldID); err != nil {
		t.Fatal(err)
	}
	expect(s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: key}), 401, `{"error":"invalid API key"}`)

	// Another account sees only its own keys.
	other, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	if r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: other}); len(r.JSON(t)["keys"].([]any)) != 1 {
		t.Errorf("other account's list: %s", r.Body)
	}
}

func TestKeyedDailyCapAndPlanChange(t *testing.T) {
	s := apptest.StartServer(t, nil)
	email := apptest.UniqueEmail(t)
	key, _ := s.NewKey(t, email, overwatch.PlanFree)
	for i := 1; i <= 50; i++ {
		r := s.Do(t, apptest.Request{Path: "/v1/billing/plans", IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 200 {
			t.Fatalf("request %d: %d %s", i, r.StatusCode, r.Body)
		}
		if r.Header.Get("X-RateLimit-Limit-Day") != "50" || r.Header.Get("X-RateLimit-Remaining-Day") != strconv.Itoa(50-i) {
			t.Fatalf("request %d headers: %v", i, r.Header)
		}
	}
	// The cap is per account: a second key of the same account shares it.
	second, _ := s.NewKey(t, email, overwatch.PlanFree)
	r := s.Do(t, apptest.Request{Path: "/v1/billing/plans", IP: apptest.FreshIP(), Key: second})
	if r.StatusCode != 429 || string(r.Body) != `{"error":"rate limit exceeded"}` {
		t.Fatalf("51st: %d %s", r.StatusCode, r.Body)
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
	s.NewKey(t, email, overwatch.PlanStarter)
	r = s.Do(t, apptest.Request{Path: "/v1/billing/plans", IP: apptest.FreshIP(), Key: key})
	if r.StatusCode != 200 || r.Header.Get("X-RateLimit-Limit-Day") != "1000" || r.Header.Get("X-RateLimit-Remaining-Day") != "949" {
		t.Fatalf("after upgrade: %d %v", r.StatusCode, r.Header)
	}
}

func TestKeyedPerIPMinuteLimit(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ip := apptest.FreshIP()
	for i := 1; i <= 60; i++ {
		if r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: ip, Key: key}); r.StatusCode != 200 {
			t.Fatalf("request %d: %d", i, r.StatusCode)
		}
	}
	r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: key})
	retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.StatusCode != 429 || retry < 1 || retry > 60 || r.Header.Get("X-RateLimit-Remaining-Minute") != "0" {
		t.Fatalf("61st from one IP: %d %v %s", r.StatusCode, r.Header, r.Body)
	}
	// Anonymous callers of the public keyed endpoints share the per-IP limit.
	if r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: ip}); r.StatusCode != 429 {
		t.Errorf("anonymous from a limited IP: %d", r.StatusCode)
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: apptest.FreshIP()}); r.StatusCode != 200 || r.Header.Get("X-RateLimit-Limit-Day") != "" {
		t.Errorf("anonymous from a fresh IP: %d %v", r.StatusCode, r.Header)
	}
}

func TestPortsHealthPlans(t *testing.T) {
	s := apptest.StartServer(t, nil)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)

	for name, key := range map[string]string{"anonymous": "", "free": free} {
		r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: apptest.FreshIP(), Key: key})
		ports := r.JSON(t)["ports"].([]any)
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
	r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: apptest.FreshIP(), Key: starter})
	ports := r.JSON(t)["ports"].([]any)
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
	if r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: apptest.FreshIP(), Key: "bogus"}); r.StatusCode != 401 {
		t.Errorf("a bad key on a public endpoint is refused, not ignored: %d", r.StatusCode)
	}

	r = s.Do(t, apptest.Request{Path: "/v1/health", IP: apptest.FreshIP()})
	counts, err := s.Ch.HealthCounts(context.Background(), testclock.Now())
	if err != nil {
		t.Fatal(err)
	}
	h := r.JSON(t)
	if r.StatusCode != 200 || h["status"] != "ok" || h["vessels"] != float64(counts.Vessels) || h["positions"] != float64(counts.Positions) {
		t.Errorf("health %d %s, store says %+v", r.StatusCode, r.Body, counts)
	}

	r = s.Do(t, apptest.Request{Path: "/v1/billing/plans", IP: apptest.FreshIP()})
	plans := r.JSON(t)["plans"].([]any)
	if r.StatusCode != 200 || len(plans) != 4 {
		t.Fatalf("plans: %d %s", r.StatusCode, r.Body)
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
	s := apptest.StartServer(t, nil)
	for _, path := range []string{"/v1/nope", "/v2/ports", "/", "/v1/ais/aishub/9321483/location"} {
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP()})
		if r.StatusCode != 404 || string(r.Body) != `{"error":"no such endpoint: GET `+path+`"}` {
			t.Errorf("%s: %d %s", path, r.StatusCode, r.Body)
		}
	}
	if r := s.Do(t, apptest.Request{Method: http.MethodDelete, Path: "/v1/ports", IP: apptest.FreshIP()}); r.StatusCode != 405 || r.Header.Get("Allow") != "GET, OPTIONS" {
		t.Errorf("DELETE /v1/ports: %d, Allow %q", r.StatusCode, r.Header.Get("Allow"))
	}
	if r := s.Do(t, apptest.Request{Method: http.MethodOptions, Path: "/v1/keys", IP: apptest.FreshIP()}); r.StatusCode != 204 || !strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "X-API-Key") {
		t.Errorf("keyed preflight: %d %v", r.StatusCode, r.Header)
	}
	r := s.Do(t, apptest.Request{Path: "/v1/openapi.json", IP: apptest.FreshIP()})
	doc := r.JSON(t)
	paths := doc["paths"].(map[string]any)
	// Every route of routes.go is documented.
	for _, rt := range owhttp.NewApp(&owhttp.Deps{Analytics: (*clickhouse.DB)(nil), Accounts: (*postgres.DB)(nil), Limits: owhttp.Limits{Store: owhttp.NewMemoryRates()}}).GetRoutes(true) {
		if rt.Method == http.MethodHead || rt.Path == "/v1/*" || !strings.HasPrefix(rt.Path, "/v1/") {
			continue // HEAD mirrors GET; /metrics is operations, not the API
		}
		p := routeParam.ReplaceAllString(strings.TrimPrefix(rt.Path, "/v1"), "{$1}")
		op, ok := paths[p].(map[string]any)
		if !ok || op[strings.ToLower(rt.Method)] == nil {
			t.Errorf("%s %s is not documented in the OpenAPI document (http/openapi)", rt.Method, rt.Path)
		}
	}
}

func TestKeysCommand(t *testing.T) {
	s := apptest.StartServer(t, nil)
	_, pgURL := apptest.Stores(t)
	env := func(k string) string { return map[string]string{"DATABASE_URL": pgURL}[k] }
	var stdout, stderr strings.Builder
	email := apptest.UniqueEmail(t)
	if err := app.Run(context.Background(), []string{"overwatch", "keys", "create", "--email", email, "--plan", "pro", "--name", "ops"}, apptest.ClockEnv(env), &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	key := strings.TrimSpace(stdout.String())
	if strings.Count(stdout.String(), "\n") != 1 || !strings.HasPrefix(key, "ow_") || strings.Contains(stderr.String(), key) {
		t.Fatalf("stdout must be the key alone, and stderr must not repeat it:\nstdout %q\nstderr %q", stdout.String(), stderr.String())
	}
	r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: apptest.FreshIP(), Key: key})
	if r.StatusCode != 200 || r.Header.Get("X-RateLimit-Limit-Day") != "10000" {
		t.Fatalf("the new key: %d %v", r.StatusCode, r.Header)
	}
	id := strconv.Itoa(int(r.JSON(t)["keys"].([]any)[0].(map[string]any)["id"].(float64)))
	for _, args := range [][]string{
		{"keys", "create", "--plan", "pro"},
		{"keys", "create", "--email", email, "--plan", "gold"},
		{"keys", "revoke"},
		{"keys", "rotate"},
		{"frobnicate"},
	} {
		if err := app.Run(context.Background(), append([]string{"overwatch"}, args...), apptest.ClockEnv(env), io.Discard, io.Discard); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
	if err := app.Run(context.Background(), []string{"overwatch", "keys", "revoke", "--id", id}, apptest.ClockEnv(env), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: apptest.FreshIP(), Key: key}); r.StatusCode != 401 {
		t.Errorf("revoked through the CLI, still %d", r.StatusCode)
	}
	if err := app.Run(context.Background(), []string{"overwatch", "keys", "revoke", "--id", id}, apptest.ClockEnv(env), io.Discard, io.Discard); err == nil {
		t.Error("revoking twice succeeded")
	}
}

// routeParam is a Fiber path parameter (":imo"), {imo} in OpenAPI.
var routeParam = regexp.MustCompile(`:(\w+)`)
