package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
	"overwatch/postgres"
)

var client = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// apis are the API instances behind a load balancer of the test's own:
// requests go round-robin to the instances not marked down, and a request
// that gets no answer at all (connection refused or reset: an instance
// being killed) is sent again to the next one, as a load balancer does.
type apis struct {
	mu    sync.Mutex
	bases []string
	down  map[string]bool
	next  int
}

func (a *apis) markDown(base string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.down[base] = true
}

func (a *apis) pick() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var up []string
	for i := range a.bases {
		b := a.bases[(a.next+i)%len(a.bases)]
		if !a.down[b] {
			up = append(up, b)
		}
	}
	a.next++
	return up
}

// get sends GET path from the client address ip; err is set only when no
// instance answered.
func (a *apis) get(path, ip string) (status int, body []byte, err error) {
	for _, base := range a.pick() {
		if status, body, err = getFrom(base, path, ip); err == nil {
			return status, body, nil
		}
	}
	if err == nil {
		err = fmt.Errorf("no API instance up")
	}
	return 0, nil, err
}

// getFrom sends GET path to the instance at base from the client address
// ip.
func getFrom(base, path, ip string) (int, []byte, error) {
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	req.Header.Set("X-Forwarded-For", ip)
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode, body, nil
}

// lookupPoller calls the public lookup of the source's vessels throughout
// the test and sorts the answers: 200, the documented 500 `lookup failed`, and
// anything else (which fails the test).
type lookupPoller struct {
	ok, lookupFailed, noAnswer atomic.Int64
	mu                         sync.Mutex
	other                      map[string]int // "status body" -> count
	phase                      atomic.Value   // string: the fault under way
	byPhase                    map[string]*[3]int64
}

// poll runs until ctx ends: every interval, one lookup from a client
// address that changes every 20 requests (below the per-minute limit).
func (lp *lookupPoller) poll(ctx context.Context, a *apis, imos []overwatch.IMO, interval time.Duration) {
	lp.other, lp.byPhase = map[string]int{}, map[string]*[3]int64{}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		ip := fmt.Sprintf("10.77.%d.%d", (i/20/250)%250, (i/20)%250+1)
		path := fmt.Sprintf("/v1/ais/any/%s/location/latest", imos[i%len(imos)])
		status, body, err := a.get(path, ip)
		phase, _ := lp.phase.Load().(string)
		lp.mu.Lock()
		counts := lp.byPhase[phase]
		if counts == nil {
			counts = &[3]int64{}
			lp.byPhase[phase] = counts
		}
		switch {
		case err != nil:
			lp.noAnswer.Add(1)
			lp.other["no answer: "+err.Error()]++
			counts[2]++
		case status == 200:
			lp.ok.Add(1)
			counts[0]++
		case status == 500 && errorMessage(body) == "lookup failed":
			lp.lookupFailed.Add(1)
			counts[1]++
		default:
			lp.other[fmt.Sprintf("%d %s", status, strings.TrimSpace(string(body)))]++
			counts[2]++
		}
		lp.mu.Unlock()
	}
}

// summary lists the answers by phase and the unexpected ones.
func (lp *lookupPoller) summary() (string, int) {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	var b strings.Builder
	var phases []string
	for p := range lp.byPhase {
		phases = append(phases, p)
	}
	sort.Strings(phases)
	for _, p := range phases {
		c := lp.byPhase[p]
		fmt.Fprintf(&b, "  %-28s 200: %5d  lookup failed: %4d  other: %d\n", p, c[0], c[1], c[2])
	}
	bad := 0
	for k, n := range lp.other {
		fmt.Fprintf(&b, "  unexpected x%d: %.300s\n", n, k)
		bad += n
	}
	return b.String(), bad
}

func errorMessage(body []byte) string {
	var e struct{ Error string }
	json.Unmarshal(body, &e) //nolint:errcheck // no message then
	return e.Error
}

// burst sends n public lookups from one fresh client address, spread
// round-robin over the API instances, and counts those the limiter let
// through (any answer but 429) and those it refused.
func burst(a *apis, path, ip string, n int) (passed, limited int, other []string) {
	for i := 0; i < n; i++ {
		status, body, err := a.get(path, ip)
		switch {
		case err != nil:
			other = append(other, err.Error())
		case status == 429:
			limited++
		case status == 200 || status == 500 && errorMessage(body) == "lookup failed":
			passed++
		default:
			other = append(other, fmt.Sprintf("%d %s", status, body))
		}
	}
	return passed, limited, other
}

// receiver is the webhook endpoint: it answers 200 to every delivery and
// counts them by webhook-id (the event).
type receiver struct {
	mu    sync.Mutex
	calls map[string]int
	first map[string]time.Time // when each event was first delivered
	seen  map[string][]string  // each delivery of an event: when, its webhook-timestamp and sender
	total int
	srv   *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{calls: map[string]int{}, first: map[string]time.Time{}, seen: map[string][]string{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body) //nolint:errcheck
		r.mu.Lock()
		id := req.Header.Get("webhook-id")
		if r.calls[id] == 0 {
			r.first[id] = time.Now()
		}
		r.calls[id]++
		r.total++
		r.seen[id] = append(r.seen[id], fmt.Sprintf("received %s (webhook-timestamp %s) from %s",
			time.Now().UTC().Format("15:04:05.000"), req.Header.Get("webhook-timestamp"), req.RemoteAddr))
		r.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// enqueuer raises webhook events (as the alerting jobs do) every interval
// while it runs; an event counts as raised when PostgreSQL acknowledged it.
type enqueuer struct {
	mu     sync.Mutex
	acked  []string
	at     map[string]time.Time // when each acknowledged event was raised
	failed map[string]bool      // not acknowledged: may or may not be stored
}

func (e *enqueuer) run(ctx context.Context, pg *postgres.DB, account int64, interval time.Duration) {
	e.failed, e.at = map[string]bool{}, map[string]time.Time{}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		id := fmt.Sprintf("evt_chaos_%d_%d", time.Now().Unix(), i)
		qctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		n, err := pg.EnqueueEvent(qctx, account, "dark_fleet", id, []byte(`{"event":"`+id+`"}`))
		cancel()
		e.mu.Lock()
		if err == nil && n == 1 {
			e.acked = append(e.acked, id)
			e.at[id] = time.Now()
		} else {
			e.failed[id] = true
		}
		e.mu.Unlock()
	}
}

// slowest is the acknowledged event that waited longest for its first
// delivery, and how long.
func (e *enqueuer) slowest(r *receiver) (string, time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	var id string
	var worst time.Duration
	for _, ev := range e.acked {
		if d := r.first[ev].Sub(e.at[ev]); !r.first[ev].IsZero() && d > worst {
			id, worst = ev, d
		}
	}
	return id, worst
}

// check compares the deliveries with the events: each acknowledged event
// delivered exactly once, no other delivery but of an event whose enqueue
// failed, and none twice.
func (e *enqueuer) check(r *receiver) (missing, twice, unknown []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	acked := map[string]bool{}
	for _, id := range e.acked {
		acked[id] = true
		if r.calls[id] == 0 {
			missing = append(missing, id)
		}
	}
	for id, n := range r.calls {
		if n > 1 {
			twice = append(twice, fmt.Sprintf("%s x%d", id, n))
		}
		if !acked[id] && !e.failed[id] {
			unknown = append(unknown, id)
		}
	}
	return missing, twice, unknown
}
