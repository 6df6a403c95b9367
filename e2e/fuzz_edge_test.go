package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	owhttp "overwatch/http"
	"overwatch/postgres"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
	"overwatch/write"
	"overwatch/write/outbound"
	"overwatch/write/stripe"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The HTTP fuzz targets drive the real app, on a real listener, over the
// real stores, with fuzzed request lines, paths, query strings, headers
// and bodies for every route of the OpenAPI document. Whatever comes in,
// the answer is no 5xx (but the documented 500 `lookup failed` of the public
// lookup and the 503 of billing, which the fuzzed server has no keys for),
// every error is a JSON object with "error", every answer says nosniff,
// and nothing panics.

// fuzzServer is the app under fuzzing, one per process: the fuzz
// engine's workers are processes that share its databases, which are
// created once and never dropped (ow_test_<prefix>fuzz_http).
type fuzzServer struct {
	addr string
	keys [6]string // none, free, starter, pro, an invented key, garbage
	logs *panicLog
	ops  []fuzzOp
}

// panicLog is the fuzzed server's error log: it counts the panics the
// recover middleware logs and keeps the last one.
type panicLog struct {
	panics atomic.Int64
	mu     sync.Mutex
	last   string
}

func (l *panicLog) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("msg=panic")) {
		l.mu.Lock()
		l.last = string(p)
		l.mu.Unlock()
		l.panics.Add(1)
	}
	return len(p), nil
}

// fuzzOp is an operation of the OpenAPI document.
type fuzzOp struct{ method, path string }

var (
	fuzzOnce   sync.Once
	fuzzShared *fuzzServer
	fuzzErr    error
	fuzzSkip   string
)

// startFuzzServer starts the process's fuzzed server, or skips when the
// stores do not answer (outside CI).
func startFuzzServer(f *testing.F) *fuzzServer {
	f.Helper()
	fuzzOnce.Do(func() { fuzzShared, fuzzErr, fuzzSkip = newFuzzServer() })
	if fuzzSkip != "" {
		if os.Getenv("CI") == "true" {
			f.Fatal(fuzzSkip)
		}
		f.Skip(fuzzSkip)
	}
	if fuzzErr != nil {
		f.Fatal(fuzzErr)
	}
	return fuzzShared
}

func newFuzzServer() (*fuzzServer, error, string) {
	ctx := context.Background()
	prefix := os.Getenv("OVERWATCH_TEST_DB_PREFIX")
	if !regexp.MustCompile(`^[a-z0-9_]*$`).MatchString(prefix) {
		prefix = ""
	}
	name := "ow_test_" + prefix + "fuzz_http"
	ch, err := clickhouse.Open(chtest.Server() + "/" + name)
	if err == nil {
		_, err = ch.Migrate(ctx)
	}
	if err != nil {
		return nil, nil, fmt.Sprintf("ClickHouse does not answer at %s: %v", chtest.Server(), err)
	}
	pg, err := postgres.Open(ctx, pgtest.Server()+"/"+name+"?sslmode=disable")
	if err == nil {
		_, err = pg.Migrate(ctx)
	}
	if err != nil {
		return nil, nil, fmt.Sprintf("PostgreSQL does not answer at %s: %v", pgtest.Server(), err)
	}
	if err := seedFuzzData(ctx, ch, chtest.Server()+"/"+name, pgtest.Server()+"/"+name+"?sslmode=disable"); err != nil {
		return nil, err, ""
	}
	doc, openapi, err := owhttp.LoadOpenAPI()
	if err != nil {
		return nil, err, ""
	}
	s := &fuzzServer{logs: &panicLog{}}
	log := slog.New(slog.NewTextHandler(s.logs, &slog.HandlerOptions{Level: slog.LevelError}))
	latest := read.NewLatestReplica(ch, time.Hour, time.Now, log)
	if err := latest.Sync(ctx); err != nil {
		return nil, err, ""
	}
	lim := owhttp.Limits{Store: unlimitedRates{}, Now: testclock.Now, PublicPerMinute: 1 << 30, PublicPerDay: 1 << 30,
		KeyedPerMinute: 1 << 30, EventsPerMinute: 1 << 30}
	d := &owhttp.Deps{
		Log: log, Now: testclock.Now, Analytics: ch, Accounts: pg, Latest: latest, Cache: read.NewCache(ch, read.CacheOptions{}),
		Limits: lim, Publisher: read.Publisher{Name: "Overwatch Fuzz", URL: "https://overwatch.test"},
		OpenAPI: openapi, Metrics: app.NewMetrics(), Refresh: fuzzRefresher{},
		Billing:   stripe.New(stripe.Config{WebhookSecret: "whsec_fuzz"}),
		Outbound:  outbound.New(outbound.Options{ConnectTimeout: 100 * time.Millisecond, Timeout: 300 * time.Millisecond}),
		PublicURL: "https://overwatch.test", Keys: owhttp.NewKeyGuard(lim, 1<<30, time.Minute), ReadTimeout: 2 * time.Second,
	}
	app := owhttp.NewApp(d)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err, ""
	}
	go app.Listener(ln) //nolint:errcheck // for the life of the process
	s.addr = ln.Addr().String()
	stamp := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	for i, plan := range []overwatch.Plan{overwatch.PlanFree, overwatch.PlanStarter, overwatch.PlanPro} {
		key, prefix, hash, err := overwatch.NewAPIKey()
		if err != nil {
			return nil, err, ""
		}
		if _, _, err := pg.CreateAccountKey(ctx, fmt.Sprintf("fuzz-%s-%s@example.com", plan, stamp), plan,
			write.NewKey{Prefix: prefix, Hash: hash}, 1000); err != nil {
			return nil, err, ""
		}
		s.keys[i+1] = key
	}
	s.keys[4], _, _, _ = overwatch.NewAPIKey()
	s.keys[5] = "ow_garbage"
	for _, path := range doc.Paths.InMatchingOrder() {
		for method := range doc.Paths.Find(path).Operations() {
			s.ops = append(s.ops, fuzzOp{method: method, path: path})
		}
	}
	sort.Slice(s.ops, func(i, j int) bool { return s.ops[i].path+s.ops[i].method < s.ops[j].path+s.ops[j].method })
	return s, nil, ""
}

// seedFuzzData fills the fuzzed server's empty databases, once, with a
// small simulated fleet and its derivations, so that the handlers have
// rows to compute over.
func seedFuzzData(ctx context.Context, ch *clickhouse.DB, chURL, pgURL string) error {
	counts, err := ch.HealthCounts(ctx, testclock.Now())
	if err != nil || counts.Vessels > 0 {
		return err
	}
	spool, err := os.MkdirTemp("", "fuzz-spool")
	if err != nil {
		return err
	}
	defer os.RemoveAll(spool)
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_SPOOL_DIR": spool, "OVERWATCH_LOG_LEVEL": "error"}
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return apptest.OfflineSources[k]
	}
	start := testclock.Today().Add(-4 * 24 * time.Hour).Format(time.RFC3339)
	if err := app.Run(ctx, []string{"overwatch", "simulate", "--seed", "5", "--vessels", "80", "--days", "4", "--start", start}, apptest.ClockEnv(getenv), io.Discard, io.Discard); err != nil {
		return err
	}
	return app.Run(ctx, []string{"overwatch", "jobs", "--once"}, apptest.ClockEnv(getenv), io.Discard, io.Discard)
}

// unlimitedRates admits every request: the fuzzers reach the handlers,
// not the limits (which have their own tests).
type unlimitedRates struct{}

func (unlimitedRates) TakeRate(_ context.Context, now time.Time, b []overwatch.RateBucket) ([]overwatch.RateCount, bool, error) {
	return make([]overwatch.RateCount, len(b)), true, nil
}

// fuzzRefresher stands in for the scheduler's refresh (seconds of work).
type fuzzRefresher struct{}

func (fuzzRefresher) RefreshCongestion(context.Context) (any, error) {
	return map[string]any{"recomputed": []any{}}, nil
}

// op is the operation the fuzzer's index picks among those of method
// (any method when empty) or not of it (exclude).
func (s *fuzzServer) op(i uint8, get bool) fuzzOp {
	var ops []fuzzOp
	for _, o := range s.ops {
		if (o.method == http.MethodGet) == get && o.method != http.MethodOptions {
			ops = append(ops, o)
		}
	}
	return ops[int(i)%len(ops)]
}

// target fills the path's parameters with param and appends the query
// pairs of q ("a=1&b=2"), each escaped.
func target(path, param, q string) string {
	path = "/v1" + regexp.MustCompile(`\{[^}]*\}`).ReplaceAllLiteralString(path, url.PathEscape(param))
	if q == "" {
		return path
	}
	var pairs []string
	for _, pair := range strings.Split(q, "&") {
		k, v, _ := strings.Cut(pair, "=")
		pairs = append(pairs, url.QueryEscape(k)+"="+url.QueryEscape(v))
	}
	return path + "?" + strings.Join(pairs, "&")
}

// send writes a raw request on a new connection and checks the answer.
func (s *fuzzServer) send(t *testing.T, raw []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second)) //nolint:errcheck
	before := s.logs.panics.Load()
	go func() {
		conn.Write(raw)                  //nolint:errcheck
		conn.(*net.TCPConn).CloseWrite() //nolint:errcheck // the request ends here
	}()
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	for err == nil && resp.StatusCode >= 100 && resp.StatusCode < 200 {
		resp, err = http.ReadResponse(br, nil) // after 100 Continue, the answer
	}
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
			return // nothing sent, or the request never ended: no answer is owed
		}
		t.Fatalf("%q: reading the answer: %v", raw, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	checkAnswer(t, raw, resp, body)
	if s.logs.panics.Load() != before {
		s.logs.mu.Lock()
		defer s.logs.mu.Unlock()
		t.Fatalf("%q: a panic: %s", raw, s.logs.last)
	}
}

// checkAnswer holds the invariants of every answer.
func checkAnswer(t *testing.T, raw []byte, resp *http.Response, body []byte) {
	t.Helper()
	status := resp.StatusCode
	switch {
	case status == 500 && string(body) == `{"error":"lookup failed"}`:
	case status == 503 && strings.Contains(string(body), "billing is not configured"):
	case status == 503 && strings.Contains(string(body), "the live stream is served by the processes that run ingest"):
		// the fuzzed edge serves without ingest, as `overwatch serve` does
	case status >= 500:
		t.Fatalf("%q: %d %s", raw, status, body)
	}
	if status >= 400 {
		var e map[string]any
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatalf("%q: %d, not a JSON object: %s", raw, status, body)
		}
		if msg, ok := e["error"].(string); !ok || msg == "" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("%q: %d without a JSON error: %s", raw, status, body)
		}
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("%q: %d without nosniff", raw, status)
	}
}

// request builds a raw request with the key of kind k and a body.
func (s *fuzzServer) request(method, target string, k uint8, header string, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: overwatch.test\r\nConnection: close\r\n", method, target)
	if key := s.keys[int(k)%len(s.keys)]; key != "" {
		fmt.Fprintf(&b, "X-API-Key: %s\r\n", key)
	}
	b.WriteString(header)
	if body != nil || method != http.MethodGet {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// FuzzHTTPRead: every GET operation with a fuzzed path parameter, query
// string and key.
func FuzzHTTPRead(f *testing.F) {
	s := startFuzzServer(f)
	for i := range s.ops {
		f.Add(uint8(i), "9321483", "limit=500&port=rotterdam", uint8(3))
		f.Add(uint8(i), "%00", "portfolio=\x00&state=\xff", uint8(1))
	}
	f.Add(uint8(0), "x", "cursor=2026-01-01T00:00:00Z|abc&limit=-1", uint8(2))
	f.Add(uint8(0), "any", "format=csv&group_by=imo&start=2026-13-01", uint8(3))
	f.Fuzz(func(t *testing.T, op uint8, param, query string, key uint8) {
		o := s.op(op, true)
		s.send(t, s.request(o.method, target(o.path, param, query), key, "", nil))
	})
}

// FuzzHTTPWrite: every other operation (POST, PUT, DELETE) with a fuzzed
// path parameter, query string, body, content type and key.
func FuzzHTTPWrite(f *testing.F) {
	s := startFuzzServer(f)
	bodies := []string{`{"name":"ci"}`, `{"vessels":["9321483"],"ports":["rotterdam"]}`, `{"name":"p","vessels":[],"ports":[]}`,
		`{"alert_id":"overwatch:1","action":"snooze","snooze_until":"2030-01-01T00:00:00Z"}`, `{"url":"https://example.com/h","event_types":["test"]}`,
		`{"url":"https://hooks.slack.com/services/x","message":"hi"}`, `{"plan":"pro"}`, `{"id":"evt_1","type":"checkout.session.completed","data":{"object":{}}}`,
		"port,week,commodity,tonnes\nrotterdam,2026-01-05,wheat,1000\n",
		`{"vessel_type":"panamax","origin":"new-orleans","destination":"rotterdam","rate":45.5,"unit":"usd_per_tonne","date":"2026-01-05","notes":"x"}`,
		`{"name":"\u0000"}`, "{\"name\":\"\xff\"}", `[1,[2,[3]]]`, ``}
	for i := range s.ops {
		for _, b := range bodies {
			f.Add(uint8(i), "1", "", []byte(b), uint8(0), uint8(3))
		}
	}
	f.Fuzz(func(t *testing.T, op uint8, param, query string, body []byte, contentType, key uint8) {
		o := s.op(op, false)
		types := []string{"application/json", "text/csv", "", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}
		header := ""
		if ct := types[int(contentType)%len(types)]; ct != "" {
			header = "Content-Type: " + ct + "\r\n"
		}
		if o.path == "/billing/webhook" {
			header += "Stripe-Signature: " + stripe.SignatureHeader("whsec_fuzz", time.Now(), body) + "\r\n"
		}
		s.send(t, s.request(o.method, target(o.path, param, query), key, header, body))
	})
}

// FuzzHTTPHeaders: any operation with one fuzzed header (the key headers,
// X-Forwarded-For, Content-Type, Stripe-Signature, Origin, ...).
func FuzzHTTPHeaders(f *testing.F) {
	s := startFuzzServer(f)
	for i, h := range [][2]string{{"X-API-Key", "ow_x"}, {"Authorization", "Bearer ow_x"}, {"Authorization", "Basic dXNlcjpwYXNz"},
		{"X-Forwarded-For", "1.2.3.4, ::1, garbage"}, {"Content-Type", "application/json; charset=latin1"}, {"Stripe-Signature", "t=1,v1=zz"},
		{"Origin", "https://evil.example"}, {"Transfer-Encoding", "chunked"}, {"Content-Length", "-1"}, {"Expect", "100-continue"}} {
		f.Add(uint8(i), h[0], h[1], uint8(i))
	}
	f.Fuzz(func(t *testing.T, op uint8, name, value string, key uint8) {
		o := s.ops[int(op)%len(s.ops)]
		s.send(t, s.request(o.method, target(o.path, "9321483", ""), key, name+": "+value+"\r\n", nil))
	})
}

// FuzzHTTPRaw: whole requests as bytes; "{key}" becomes a Pro key.
func FuzzHTTPRaw(f *testing.F) {
	s := startFuzzServer(f)
	for _, seed := range []string{
		"GET /v1/ais/any/9321483/location/latest HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: {key}\r\n\r\n",
		"POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: {key}\r\nContent-Length: 13\r\n\r\n{\"name\":\"ci\"}",
		"FROB /v1/ports HTTP/1.1\r\nHost: x\r\n\r\n",
		"OPTIONS /v1/keys HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /v1/portfolios/\xff HTTP/1.1\r\nHost: x\r\nX-API-Key: {key}\r\n\r\n",
		"POST /v1/portfolios HTTP/1.1\r\nHost: x\r\nX-API-Key: {key}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n0\r\n\r\n",
		"GET /v1/../v1/ports HTTP/1.0\r\n\r\n",
		"GET http://x/v1/ports HTTP/1.1\r\n\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s.send(t, bytes.ReplaceAll(raw, []byte("{key}"), []byte(s.keys[3])))
	})
}
