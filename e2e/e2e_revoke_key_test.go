package e2e

import (
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"overwatch/write"
	"strconv"
	"strings"
	"testing"
)

// DELETE /v1/keys/{id}: a key revokes its account's keys, itself included,
// at once; another account's key is a 404 and stays usable.
func TestRevokeKey(t *testing.T) {
	s := apptest.StartServer(t, nil)
	a, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	b, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ip := apptest.FreshIP()
	create := func(key string) (string, int64) {
		t.Helper()
		r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/keys", IP: ip, Key: key, Body: `{"name":"second"}`})
		if r.StatusCode != 201 {
			t.Fatalf("create: %d %s", r.StatusCode, r.Body)
		}
		var k write.CreatedKey
		apptest.MustUnmarshal(t, r.Body, &k)
		return k.APIKey, k.ID
	}
	status := func(key, method, path string) (int, string) {
		t.Helper()
		r := s.Do(t, apptest.Request{Method: method, Path: path, IP: ip, Key: key})
		return r.StatusCode, string(r.Body)
	}

	a2, a2ID := create(a)
	path := "/v1/keys/" + strconv.FormatInt(a2ID, 10)
	if code, body := status(b, http.MethodDelete, path); code != 404 || !strings.Contains(body, "no active key") {
		t.Errorf("another account's key: %d %s", code, body)
	}
	if code, _ := status(a2, http.MethodGet, "/v1/keys"); code != 200 {
		t.Errorf("the key survives another account's attempt: %d", code)
	}
	for _, bad := range []string{"0", "-3", "x", "99999999999999999999"} {
		if code, body := status(a, http.MethodDelete, "/v1/keys/"+bad); code != 400 || !strings.Contains(body, "id must be") {
			t.Errorf("id %s: %d %s", bad, code, body)
		}
	}
	code, body := status(a, http.MethodDelete, path)
	if code != 200 || !strings.Contains(body, `"revoked":true`) {
		t.Fatalf("revoke: %d %s", code, body)
	}
	if code, _ := status(a2, http.MethodGet, "/v1/keys"); code != 401 {
		t.Errorf("a revoked key still works: %d", code)
	}
	if code, _ := status(a, http.MethodDelete, path); code != 404 {
		t.Errorf("revoked twice: %d", code)
	}
	// A key revokes itself; the account's other keys are untouched.
	a3, _ := create(a)
	r := s.Do(t, apptest.Request{Path: "/v1/keys", IP: ip, Key: a})
	var list struct {
		Keys []struct {
			ID      int64  `json:"id"`
			Prefix  string `json:"prefix"`
			Revoked bool   `json:"revoked"`
		} `json:"keys"`
	}
	apptest.MustUnmarshal(t, r.Body, &list)
	var self int64
	for _, k := range list.Keys {
		if strings.HasPrefix(a, k.Prefix) {
			self = k.ID
		}
	}
	if self == 0 {
		t.Fatalf("the key making the request is not listed: %s", r.Body)
	}
	if code, body := status(a, http.MethodDelete, "/v1/keys/"+strconv.FormatInt(self, 10)); code != 200 {
		t.Fatalf("self-revocation: %d %s", code, body)
	}
	if code, _ := status(a, http.MethodGet, "/v1/keys"); code != 401 {
		t.Errorf("the self-revoked key still works: %d", code)
	}
	if code, _ := status(a3, http.MethodGet, "/v1/keys"); code != 200 {
		t.Errorf("the account's other key: %d", code)
	}
	if code, _ := status(b, http.MethodGet, "/v1/keys"); code != 200 {
		t.Errorf("the other account's key: %d", code)
	}
}
