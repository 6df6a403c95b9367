package e2e

import (
	"encoding/json"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"testing"
)

// NUL bytes and invalid UTF-8 in a query parameter, a path parameter or a
// JSON string are a 400 naming the parameter, never a 500 from the store.
func TestNULAndInvalidUTF8AreRefused(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ip := apptest.FreshIP()
	cases := []struct {
		method, path, body, parameter string
	}{
		{"GET", "/v1/alerts/unified?portfolio=%00", "", "portfolio"},
		{"GET", "/v1/alerts/unified?portfolio=%ff", "", "portfolio"},
		{"GET", "/v1/alerts/unified?state=open&portfolio=a%00b", "", "portfolio"},
		{"GET", "/v1/vessels?type=%C3%28", "", "type"},
		{"GET", "/v1/risk/events?%00=1", "", "parameter name"},
		{"GET", "/v1/portfolios/%00", "", "id"},
		{"GET", "/v1/portfolios/%ff%fe", "", "id"},
		{"DELETE", "/v1/portfolios/x%00", "", "id"},
		{"PUT", "/v1/watchlist/ports/%00", "", "slug"},
		{"PUT", "/v1/watchlist/vessels/%ff", "", "imo"},
		{"POST", "/v1/alerts/unified/state?alert_id=%00&action=read", "", "alert_id"},
		{"POST", "/v1/keys", `{"name":"a\u0000b"}`, "name"},
		{"POST", "/v1/keys", "{\"name\":\"\xff\xfe\"}", "name"},
		{"POST", "/v1/portfolios", `{"name":"\u0000","vessels":[],"ports":[]}`, "name"},
		{"POST", "/v1/portfolios", `{"name":"ok","vessels":[],"ports":["rotterdam","x\u0000"]}`, "ports[1]"},
		{"POST", "/v1/alerts/unified/state", `{"alert_id":"risk:1","action":"read\u0000"}`, "action"},
		{"PUT", "/v1/watchlist", `{"vessels":[],"ports":["\u0000"]}`, "ports[0]"},
		{"POST", "/v1/webhooks", `{"url":"https://example.com/\u0000","event_types":["test"]}`, "url"},
		{"POST", "/v1/webhooks/slack-test", `{"url":"https://hooks.slack.com/x","message":"\u0000"}`, "message"},
		{"POST", "/v1/billing/checkout", `{"plan":"pro\u0000"}`, "plan"},
		{"POST", "/v1/keys", `{"na\u0000me":"x"}`, "body"},
	}
	for _, c := range cases {
		r := s.Do(t, apptest.Request{Method: c.method, Path: c.path, IP: ip, Key: key, Body: c.body})
		var e struct {
			Error     string `json:"error"`
			Parameter string `json:"parameter"`
		}
		if err := json.Unmarshal(r.Body, &e); err != nil || r.StatusCode != 400 || e.Parameter != c.parameter {
			t.Errorf("%s %s %s: %d %s, want 400 naming %q", c.method, c.path, c.body, r.StatusCode, r.Body, c.parameter)
		}
	}
	// Raw bytes that no client library would send unescaped (a raw NUL in
	// the request target is refused by the HTTP server: no route gets it).
	for target, want := range map[string]int{"/v1/portfolios/\xff": 400, "/v1/alerts/unified?portfolio=\xff\xfe": 400, "/v1/watchlist/ports/a\x00b": 400} {
		status, _, body := rawExchange(t, s, "GET "+target+" HTTP/1.1\r\nHost: x\r\nX-API-Key: "+key+"\r\n\r\n", 0)
		if status != want || !isErrorJSON(body) {
			t.Errorf("raw %q: %d %s, want %d", target, status, body, want)
		}
	}
	// Text that is valid passes.
	if r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/keys", IP: ip, Key: key, Body: `{"name":"Zürich ✓ \u00e9"}`}); r.StatusCode != 201 {
		t.Errorf("a valid non-ASCII name: %d %s", r.StatusCode, r.Body)
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/alerts/unified?portfolio=S%C3%A3o", IP: ip, Key: key}); r.StatusCode >= 500 || r.StatusCode == 400 {
		t.Errorf("a valid non-ASCII portfolio: %d %s", r.StatusCode, r.Body)
	}
}
