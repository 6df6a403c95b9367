package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"overwatch"
)

// dedupReceiver counts the deliveries it gets by webhook-id, a little
// slowly (like a real endpoint).
type dedupReceiver struct {
	mu    sync.Mutex
	seen  map[string]int
	total *int64
	all   *sync.Mutex
}

func (r *dedupReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	_, _ = io.Copy(io.Discard, req.Body)
	time.Sleep(3 * time.Millisecond)
	r.mu.Lock()
	r.seen[req.Header.Get("webhook-id")]++
	r.mu.Unlock()
	r.all.Lock()
	*r.total++
	r.all.Unlock()
}

// 1,000 events to 10 endpoints, the delivery worker (`overwatch jobs --job
// webhook_delivery`, the service's own job) stopped in the middle of
// delivery and started again: every event arrives, and the only
// duplicates are the attempts in flight when it stopped (at least once:
// receivers de-duplicate by webhook-id).
func TestWebhookDeliveryAcrossRestart(t *testing.T) {
	const endpoints, perEndpoint = 10, 100
	s := startServer(t, map[string]string{"OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"})
	chURL, pgURL := e2eStores(t)
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8",
		"OVERWATCH_LOG_LEVEL": "warn", "OVERWATCH_SPOOL_DIR": t.TempDir()}
	var (
		total int64
		all   sync.Mutex
	)
	ctx := context.Background()
	receivers := make([]*dedupReceiver, endpoints)
	for i := range receivers {
		receivers[i] = &dedupReceiver{seen: map[string]int{}, total: &total, all: &all}
		srv := httptest.NewServer(receivers[i])
		defer srv.Close()
		key, account := s.newKey(t, uniqueEmail(t), overwatch.PlanPro)
		r := s.do(t, request{method: "POST", path: "/v1/webhooks", ip: freshIP(), key: key,
			body: `{"url":"` + srv.URL + `","event_types":["dark_fleet"]}`})
		if r.StatusCode != 201 {
			t.Fatalf("webhook %d: %d %s", i, r.StatusCode, r.body)
		}
		for e := range perEndpoint {
			if _, err := s.pg.EnqueueEvent(ctx, account, "dark_fleet", fmt.Sprintf("evt_restart_%d_%d_%d", account, e, time.Now().UnixNano()),
				[]byte(`{"type":"dark_fleet","n":`+strconv.Itoa(e)+`}`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	count := func() int64 { all.Lock(); defer all.Unlock(); return total }

	// The worker, stopped after about a third of the deliveries.
	first, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- run(first, []string{"overwatch", "jobs", "--job", "webhook_delivery"}, func(k string) string { return env[k] }, io.Discard, os.Stderr)
	}()
	for count() < endpoints*perEndpoint/3 {
		select {
		case err := <-done:
			t.Fatalf("the worker ended before the stop (%d delivered): %v", count(), err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	stop()
	<-done
	atStop := count()
	// Started again, it delivers the rest.
	for round := 0; round < 10; round++ {
		if err := run(ctx, []string{"overwatch", "jobs", "--job", "webhook_delivery"}, func(k string) string { return env[k] }, io.Discard, os.Stderr); err != nil {
			t.Fatal(err)
		}
		missing := 0
		for _, r := range receivers {
			r.mu.Lock()
			missing += perEndpoint - len(r.seen)
			r.mu.Unlock()
		}
		if missing == 0 {
			break
		}
	}
	dups := 0
	for i, r := range receivers {
		r.mu.Lock()
		if len(r.seen) != perEndpoint {
			t.Errorf("endpoint %d received %d of %d events", i, len(r.seen), perEndpoint)
		}
		for _, n := range r.seen {
			dups += n - 1
		}
		r.mu.Unlock()
	}
	t.Logf("%d events to %d endpoints: %d received before the stop, %d in all, %d duplicates", endpoints*perEndpoint, endpoints, atStop, count(), dups)
	if dups > 8 { // at most the attempts in flight when the worker stopped
		t.Errorf("%d duplicates, more than the 8 attempts in flight", dups)
	}
}
