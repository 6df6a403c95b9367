package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	owhttp "overwatch/http"
	"overwatch/postgres"
	"overwatch/postgres/pgtest"
	"overwatch/testclock"
	"overwatch/write"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// TestServer is the real service started through run() on a free port,
// with its own view of both stores for arranging data.
type TestServer struct {
	Base    string
	Metrics string // the base URL of /metrics (OVERWATCH_METRICS_ADDR)
	Ch      *clickhouse.DB
	Fx      *chtest.Fixtures // rows written straight into the server's ClickHouse
	Pg      *postgres.DB
	Router  routers.Router
	Logs    *syncBuffer
	Stop    func()
}

// syncBuffer keeps a server's log, written from its goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Stores are the databases of the suite's servers, shared by every server
// a test of the suite starts: named after the suite (e2e, accuracy,
// browser), so that suites running at the same time, each in its own
// process, never share (nor recreate) each other's databases.
func Stores(t *testing.T) (chURL, pgURL string) {
	return chtest.URL(t, suite), pgtest.URL(t, suite)
}

// suite is the name of the test binary's package ("e2e" for e2e.test).
var suite = func() string {
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".test")
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, strings.ToLower(name))
	if name == "" {
		return "e2e"
	}
	return name
}()

// OfflineSources turn off the external sources configured by default:
// they are on the internet, which tests do not reach (their refreshes are
// tested against local servers).
var OfflineSources = map[string]string{
	"OVERWATCH_FRED_URL":        "off",
	"OVERWATCH_WORLDBANK_URL":   "off",
	"OVERWATCH_AGTRANSPORT_URL": "off",
	"OVERWATCH_RIVER_URL":       "off",
	"OVERWATCH_GDELT_URL":       "off",
	"OVERWATCH_SAR_URL":         "off",
}

// StartServer runs `overwatch serve` with the test stores and env on top of
// fast test defaults, waits until it listens, and stops it at cleanup.
func StartServer(t *testing.T, env map[string]string) *TestServer {
	t.Helper()
	return StartCommand(t, "serve", env)
}

// StartCommand is startServer for any command that serves the API (serve,
// run).
func StartCommand(t *testing.T, command string, env map[string]string) *TestServer {
	t.Helper()
	return startCommandOut(t, command, env, io.Discard)
}

// startCommandOut is startCommand with the command's standard output.
func startCommandOut(t *testing.T, command string, env map[string]string, stdout io.Writer) *TestServer {
	t.Helper()
	chURL, pgURL := Stores(t)
	vars := map[string]string{
		"OVERWATCH_ADDR":                 "127.0.0.1:0",
		"CLICKHOUSE_URL":                 chURL,
		"DATABASE_URL":                   pgURL,
		"OVERWATCH_PUBLIC_NAME":          "Overwatch Test",
		"OVERWATCH_PUBLIC_URL":           "https://overwatch.test",
		"OVERWATCH_TRUSTED_PROXIES":      "127.0.0.1/32",
		"OVERWATCH_LATEST_SYNC_INTERVAL": "50ms",
		// The server's files (exports, the demo's) in the test's own
		// directory, not under the package's source.
		"OVERWATCH_DATA_DIR": t.TempDir(),
	}
	for k, v := range OfflineSources {
		vars[k] = v
	}
	// The server runs on the tests' clock: the data a test lays out from
	// testclock.Now() is as old to the server as to the test.
	if testclock.Set() {
		vars["OVERWATCH_CLOCK_START"] = testclock.Now().Format(time.RFC3339Nano)
	}
	for k, v := range env {
		vars[k] = v
	}
	// The test opens the server's listener itself, on a free port, and
	// knows its address from it; the server serves on it once it is ready.
	ln, err := net.Listen("tcp", vars["OVERWATCH_ADDR"])
	if err != nil {
		t.Fatal(err)
	}
	// /metrics has its own listener, on a free loopback port unless the
	// test names an address.
	var mln net.Listener
	if _, named := env["OVERWATCH_METRICS_ADDR"]; !named {
		if mln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		vars["OVERWATCH_METRICS_ADDR"] = mln.Addr().String()
	}
	serving := make(chan struct{})
	metricsOpen := false // serve opens /metrics first, then the API
	listen := func(network, addr string) (net.Listener, error) {
		if addr == vars["OVERWATCH_METRICS_ADDR"] && !metricsOpen {
			metricsOpen = true
			if mln != nil {
				return mln, nil
			}
			return net.Listen(network, addr)
		}
		close(serving)
		return ln, nil
	}
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- app.RunWith(ctx, []string{"overwatch", command}, func(k string) string { return vars[k] }, stdout, logs, listen)
	}()
	s := &TestServer{Logs: logs, Base: "http://" + ln.Addr().String(), Metrics: "http://" + vars["OVERWATCH_METRICS_ADDR"]}
	select {
	case <-serving:
	case err := <-done:
		cancel()
		ln.Close()
		if mln != nil {
			mln.Close()
		}
		t.Fatalf("server exited: %v\n%s", err, logs.String())
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatalf("server did not listen within 60 s\n%s", logs.String())
	}
	stopped := false
	s.Stop = func() {
		if stopped {
			return
		}
		stopped = true
		// Unused keep-alive connections would hold the graceful shutdown
		// for its whole timeout; a well-behaved client closes them.
		HTTPClient.CloseIdleConnections()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server stopped with %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("server did not stop within 15 s")
		}
	}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	if s.Ch, err = clickhouse.Open(vars["CLICKHOUSE_URL"]); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Ch.Close() })
	s.Fx = chtest.Open(t, vars["CLICKHOUSE_URL"])
	if s.Pg, err = postgres.Open(context.Background(), vars["DATABASE_URL"]); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Pg.Close)
	strict, err := strictDoc()
	if err != nil {
		t.Fatal(err)
	}
	doc := *strict // the same document, served from this server's address
	doc.Servers = openapi3.Servers{{URL: s.Base + "/v1"}}
	if s.Router, err = legacy.NewRouter(&doc); err != nil {
		t.Fatal(err)
	}
	return s
}

// strictDoc is the OpenAPI document with strictResponses applied, built
// once per test binary (every server a test starts validates against it;
// building it is a few hundred milliseconds) and only read afterwards.
var strictDoc = sync.OnceValues(func() (*openapi3.T, error) {
	doc, _, err := owhttp.LoadOpenAPI()
	if err != nil {
		return nil, err
	}
	strictResponses(doc) // an undocumented response field fails
	return doc, nil
})

// Response is a received response with its body read.
type Response struct {
	*http.Response
	Body []byte
}

// JSON is the body decoded as a JSON object, or fails the test.
func (r Response) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Request is what a test sends.
type Request struct {
	Method string
	Path   string
	IP     string // sent as X-Forwarded-For (the test proxy is trusted)
	Key    string // sent as X-API-Key
	Header map[string]string
	Body   string
}

// HTTPClient is the client the kit sends requests with: keep-alive
// connections, closed before a server stops.
var HTTPClient = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}

// Do sends the request and validates the response against the OpenAPI
// document: every documented route must answer with a documented status,
// headers and body.
func (s *TestServer) Do(t *testing.T, r Request) Response {
	t.Helper()
	if r.Method == "" {
		r.Method = http.MethodGet
	}
	req, err := http.NewRequest(r.Method, s.Base+r.Path, strings.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	if r.IP != "" {
		req.Header.Set("X-Forwarded-For", r.IP)
	}
	if r.Key != "" {
		req.Header.Set("X-API-Key", r.Key)
	}
	if r.Body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	resp, err := HTTPClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("%s %s: %d without Access-Control-Allow-Origin: * (got %q)", r.Method, r.Path, resp.StatusCode, got)
	}
	if resp.StatusCode >= 400 && resp.StatusCode != 503 || resp.StatusCode == 503 && !strings.HasSuffix(r.Path, "/health") {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(body, &e) != nil || e.Error == "" {
			t.Errorf("%s %s: error %d without an {\"error\": ...} body: %s", r.Method, r.Path, resp.StatusCode, body)
		}
	}
	s.Validate(t, req, resp, body)
	return Response{Response: resp, Body: body}
}

// Validate checks a response against the OpenAPI document: a documented
// route answers with a documented status, headers and body.
func (s *TestServer) Validate(t *testing.T, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	route, params, err := s.Router.FindRoute(req)
	if err != nil {
		if req.Method == http.MethodOptions && resp.StatusCode == http.StatusNoContent {
			return // the keyed preflight, documented in the API description
		}
		// A wrong method on a documented path is a 405 naming the methods.
		wrongMethod := resp.StatusCode == http.StatusMethodNotAllowed && resp.Header.Get("Allow") != ""
		if resp.StatusCode != http.StatusNotFound && !wrongMethod {
			t.Errorf("%s %s answered %d but is not in the OpenAPI document: %v", req.Method, req.URL.Path, resp.StatusCode, err)
		}
		return
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}
	// A 206 carries a byte range of the document, and an event stream
	// (the live stream's SSE) a sequence of messages, not a document: their
	// status and headers are checked, their body cannot be parsed.
	opts.ExcludeResponseBody = resp.StatusCode == http.StatusPartialContent ||
		strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts},
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                opts,
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s: response %d does not match the OpenAPI document: %v\nbody: %s", req.Method, req.URL.Path, resp.StatusCode, err, body)
	}
}

var ipCounter atomic.Uint32

// FreshIP returns a client address no other test has used, so each test
// starts with fresh rate-limit windows.
func FreshIP() string {
	n := ipCounter.Add(1) + uint32(time.Now().UnixNano()%1000)*65536
	return fmt.Sprintf("10.%d.%d.%d", (n>>16)&255, (n>>8)&255, n&255)
}

// NewKey creates an account with the plan (or reuses the email's) and
// returns a fresh key for it.
func (s *TestServer) NewKey(t *testing.T, email string, plan overwatch.Plan) (key string, accountID int64) {
	t.Helper()
	key, prefix, hash, err := overwatch.NewAPIKey()
	if err != nil {
		t.Fatal(err)
	}
	accountID, _, err = s.Pg.CreateAccountKey(context.Background(), email, plan, write.NewKey{Prefix: prefix, Hash: hash}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return key, accountID
}

// Eventually retries fn until it returns true or the timeout passes.
func Eventually(t *testing.T, timeout time.Duration, what string, fn func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !fn() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Caller sends requests from the client address ip with a key.
func (s *TestServer) Caller(t *testing.T, ip string) func(key, method, path, body string) Response {
	return func(key, method, path, body string) Response {
		t.Helper()
		return s.Do(t, Request{Method: method, Path: path, IP: ip, Key: key, Body: body})
	}
}

// Expecter checks that a response has the status and its body holds the
// text.
func Expecter(t *testing.T) func(r Response, status int, contains string) {
	return func(r Response, status int, contains string) {
		t.Helper()
		if r.StatusCode != status || !strings.Contains(string(r.Body), contains) {
			t.Errorf("got %d %s, want %d with %q", r.StatusCode, r.Body, status, contains)
		}
	}
}

// ClockEnv is the environment of a command a test runs in process (run):
// get's variables, and the tests' clock as OVERWATCH_CLOCK_START when
// OVERWATCH_TEST_NOW sets it and get does not, so that the command's
// "now" (a simulation's default start, the receive time of replayed
// messages, the jobs' windows) is the test's.
func ClockEnv(get func(string) string) func(string) string {
	if !testclock.Set() {
		return get
	}
	start := testclock.Now().Format(time.RFC3339Nano)
	return func(k string) string {
		if v := get(k); v != "" || k != "OVERWATCH_CLOCK_START" {
			return v
		}
		return start
	}
}
