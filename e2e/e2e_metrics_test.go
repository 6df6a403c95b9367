package e2e

import (
	"io"
	"net/http"
	"overwatch/app"
	"overwatch/apptest"
	"strings"
	"testing"
)

// /metrics is not on the API's address: it has its own (loopback by
// default), unless OVERWATCH_METRICS_TOKEN lets it share the API's, for
// that bearer token only.
func TestMetricsAddress(t *testing.T) {
	get := func(url, authorization string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if authorization != "" {
			req.Header.Set("Authorization", authorization)
		}
		resp, err := apptest.HTTPClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	s := apptest.StartServer(t, nil)
	if status, body := get(s.Base+"/metrics", ""); status != 404 || !isErrorJSON([]byte(body)) {
		t.Errorf("/metrics on the API address: %d %.200s", status, body)
	}
	if status, body := get(s.Metrics+"/metrics", ""); status != 200 || !strings.Contains(body, "go_goroutines") {
		t.Errorf("/metrics on its own address: %d %.200s", status, body)
	}

	const token = "metrics-token-0123456789abcdef"
	s = apptest.StartServer(t, map[string]string{"OVERWATCH_METRICS_TOKEN": token})
	for _, auth := range []string{"", "Bearer wrong", "Basic " + token, token} {
		if status, body := get(s.Base+"/metrics", auth); status != 401 || !isErrorJSON([]byte(body)) {
			t.Errorf("/metrics on the API address with %q: %d %.200s", auth, status, body)
		}
	}
	if status, body := get(s.Base+"/metrics", "Bearer "+token); status != 200 || !strings.Contains(body, "go_goroutines") {
		t.Errorf("/metrics on the API address with the token: %d %.200s", status, body)
	}
	if status, _ := get(s.Metrics+"/metrics", ""); status != 200 {
		t.Errorf("/metrics on its own address: %d", status)
	}
}

// serve and run listen for /metrics on loopback unless told otherwise.
func TestMetricsAddressDefault(t *testing.T) {
	cfg, err := app.LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MetricsAddr != "127.0.0.1:9464" || cfg.MetricsToken != "" {
		t.Errorf("metrics address %q, token %q", cfg.MetricsAddr, cfg.MetricsToken)
	}
}
