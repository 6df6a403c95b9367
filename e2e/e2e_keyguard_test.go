package e2e

import (
	"overwatch"
	"overwatch/apptest"
	"strconv"
	"strings"
	"testing"
)

// Invented keys are limited: a client address may present 20 keys that do
// not authenticate in a minute; then every request with a key gets 429
// with Retry-After, without a lookup, until the minute ends. Other
// addresses are not affected.
func TestFailedKeysAreLimited(t *testing.T) {
	s := apptest.StartServer(t, nil)
	valid, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ip := apptest.FreshIP()
	for i := 1; i <= 20; i++ {
		invented, _, _, _ := overwatch.NewAPIKey() // well formed: costs a lookup
		bad := invented
		if i%4 == 0 {
			bad = "garbage-" + strconv.Itoa(i) // malformed: counts as well
		}
		r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: bad})
		if r.StatusCode != 401 || string(r.Body) != `{"error":"invalid API key"}` {
			t.Fatalf("invalid key %d: %d %s", i, r.StatusCode, r.Body)
		}
	}
	invented, _, _, _ := overwatch.NewAPIKey()
	for _, key := range []string{invented, valid} {
		r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: key})
		retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
		if r.StatusCode != 429 || retry < 1 || retry > 60 || !strings.Contains(string(r.Body), "too many invalid API keys") {
			t.Errorf("after 20 invalid keys: %d Retry-After %q %s", r.StatusCode, r.Header.Get("Retry-After"), r.Body)
		}
	}
	// The public keyed endpoints refuse keys from that address too, but
	// answer without one.
	if r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: ip, Key: invented}); r.StatusCode != 429 {
		t.Errorf("a key on /v1/ports from the limited address: %d", r.StatusCode)
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: ip}); r.StatusCode != 200 {
		t.Errorf("no key on /v1/ports from the limited address: %d", r.StatusCode)
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: apptest.FreshIP(), Key: valid}); r.StatusCode != 200 {
		t.Errorf("another address: %d %s", r.StatusCode, r.Body)
	}
}

// The per-IP minute is drawn before the key is looked up: invalid keys
// spend it like any request.
func TestKeyedMinuteCountsInvalidKeys(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_KEYED_LIMIT_PER_MINUTE": "10", "OVERWATCH_FAILED_KEY_LIMIT_PER_MINUTE": "1000"})
	ip := apptest.FreshIP()
	for i := 1; i <= 10; i++ {
		invented, _, _, _ := overwatch.NewAPIKey()
		r := s.Do(t, apptest.Request{Path: "/v1/risk/stats", IP: ip, Key: invented})
		if r.StatusCode != 401 || r.Header.Get("X-RateLimit-Remaining-Minute") != strconv.Itoa(10-i) {
			t.Fatalf("invalid key %d: %d %v", i, r.StatusCode, r.Header)
		}
	}
	invented, _, _, _ := overwatch.NewAPIKey()
	r := s.Do(t, apptest.Request{Path: "/v1/risk/stats", IP: ip, Key: invented})
	if r.StatusCode != 429 || r.Header.Get("Retry-After") == "" || string(r.Body) != `{"error":"rate limit exceeded"}` {
		t.Errorf("11th: %d %v %s", r.StatusCode, r.Header, r.Body)
	}
}
