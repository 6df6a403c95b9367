package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	owhttp "overwatch/http"
	"overwatch/route"
	"strings"
	"testing"
	"time"
)

// Every response says nosniff; keyed answers, errors included, are never
// stored by caches; the keyed preflight names every method the keyed
// surface uses.
func TestEdgeHeaders(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	for _, r := range []apptest.Request{
		{Path: "/v1/keys", Key: key},
		{Path: "/v1/keys"},
		{Path: "/v1/keys", Key: "ow_bogus"},
		{Path: "/v1/ports"},
		{Path: "/v1/health"},
		{Path: "/v1/billing/plans", Key: key},
		{Path: "/v1/risk/vessel/1234567", Key: key},
		{Method: http.MethodPost, Path: "/v1/keys", Key: key, Body: `{"name":`},
	} {
		r.IP = apptest.FreshIP()
		resp := s.Do(t, r)
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s %s (%d): X-Content-Type-Options %q, Cache-Control %q", r.Method, r.Path, resp.StatusCode,
				resp.Header.Get("X-Content-Type-Options"), resp.Header.Get("Cache-Control"))
		}
	}
	for _, r := range []apptest.Request{
		{Path: "/v1/ais/any/9321483/location/latest"},
		{Path: "/v1/ais/nope/9321483/location/latest"},
		{Path: "/v1/openapi.json"},
		{Path: "/v1/nope"},
		{Method: http.MethodOptions, Path: "/v1/ais/any/9321483/location/latest"},
		{Method: http.MethodOptions, Path: "/v1/keys"},
		{Method: http.MethodDelete, Path: "/v1/ports"},
	} {
		r.IP = apptest.FreshIP()
		if resp := s.Do(t, r); resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s (%d) without nosniff", r.Method, r.Path, resp.StatusCode)
		}
	}
	r := s.Do(t, apptest.Request{Method: http.MethodOptions, Path: "/v1/watchlist", IP: apptest.FreshIP()})
	if got := r.Header.Get("Access-Control-Allow-Methods"); r.StatusCode != 204 || got != "GET, POST, PUT, DELETE, OPTIONS" {
		t.Errorf("keyed preflight: %d, Access-Control-Allow-Methods %q", r.StatusCode, got)
	}
}

// A known path with a wrong method is a 405 naming the methods it takes;
// a method nobody knows is answered in JSON like any other error.
func TestEdgeMethods(t *testing.T) {
	s := apptest.StartServer(t, nil)
	for _, c := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodDelete, "/v1/ports", 405, "GET, OPTIONS"},
		{http.MethodPatch, "/v1/watchlist", 405, "GET, PUT, OPTIONS"},
		{http.MethodGet, "/v1/billing/webhook", 405, "POST, OPTIONS"},
		{http.MethodPost, "/v1/keys/12", 405, "DELETE, OPTIONS"},
		{"FROBNICATE", "/v1/ports", 405, "GET, OPTIONS"},
		{"PROPFIND", "/v1/risk/vessel/9321483", 405, "GET, OPTIONS"},
		{"FROBNICATE", "/v1/nope", 404, ""},
		{http.MethodPut, "/v1/nope", 404, ""},
		{http.MethodPut, "/", 404, ""},
	} {
		r := s.Do(t, apptest.Request{Method: c.method, Path: c.path, IP: apptest.FreshIP()})
		if r.StatusCode != c.status || r.Header.Get("Allow") != c.allow || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s %s: %d Allow %q %s, want %d Allow %q", c.method, c.path, r.StatusCode, r.Header.Get("Allow"), r.Body, c.status, c.allow)
		}
	}
	// Methods with characters no client library sends, over a raw connection.
	for _, method := range []string{"G\x01T", "BREW", "get"} {
		status, _, body := rawExchange(t, s, method+" /v1/ports HTTP/1.1\r\nHost: x\r\n\r\n", 0)
		if status != 405 && status != 404 && status != 400 || !isErrorJSON(body) {
			t.Errorf("%q: %d %s", method, status, body)
		}
	}
}

// What the HTTP server refuses before any route runs is answered in JSON
// too: a body over the limit (413), headers over the limit (431), a
// client too slow to send its request (408), and a request framed both by
// Content-Length and Transfer-Encoding (400).
func TestEdgeServerLimitsOverTCP(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_READ_TIMEOUT": "1s"})
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	big := fmt.Sprintf("POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", key, route.SmallBody+1)
	cases := []struct {
		name, request string
		wait          time.Duration
		status        int
		message       string
	}{
		{"body too large", big, 0, 413, "request body too large"},
		{"headers too large", "GET /v1/ports HTTP/1.1\r\nHost: x\r\nX-Padding: " + strings.Repeat("a", owhttp.HeaderLimit) + "\r\n\r\n", 0, 431, "request line and headers too large"},
		{"URL too long", "GET /v1/ports?q=" + strings.Repeat("a", owhttp.HeaderLimit) + " HTTP/1.1\r\nHost: x\r\n\r\n", 0, 431, "too large"},
		{"slow headers", "GET /v1/ports HTTP/1.1\r\nHost: x\r\n", 3 * time.Second, 408, "not received in time"},
		{"slow body", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\nContent-Length: 100\r\n\r\n{", 3 * time.Second, 408, "not received in time"},
		{"silent", "", 3 * time.Second, 408, "not received in time"},
		{"both framings", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 0, 400, "both Content-Length and Transfer-Encoding"},
		{"both framings, other order", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\ncontent-length: 4\r\nX-API-Key: " + key + "\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 0, 400, "both Content-Length and Transfer-Encoding"},
	}
	for _, c := range cases {
		status, header, body := rawExchange(t, s, c.request, c.wait)
		if status != c.status || !isErrorJSON(body) || !strings.Contains(string(body), c.message) {
			t.Errorf("%s: %d %s, want %d with %q", c.name, status, body, c.status, c.message)
		}
		if header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: headers %v", c.name, header)
		}
	}
	// The server still serves after all this.
	if r := s.Do(t, apptest.Request{Path: "/v1/ports", IP: apptest.FreshIP()}); r.StatusCode != 200 {
		t.Errorf("after the refusals: %d", r.StatusCode)
	}
}

// rawExchange writes request on a new connection to the server (after
// wait, with the connection open, when wait is set) and reads one
// response.
func rawExchange(t *testing.T, s *apptest.TestServer, request string, wait time.Duration) (int, http.Header, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.Base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second)) //nolint:errcheck
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	time.Sleep(wait)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%.60q: %v", request, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body
}

// isErrorJSON reports whether body is a JSON object with a non-empty
// string "error".
func isErrorJSON(body []byte) bool {
	var e map[string]any
	if json.Unmarshal(body, &e) != nil {
		return false
	}
	msg, ok := e["error"].(string)
	return ok && msg != ""
}
