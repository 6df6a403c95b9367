package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// dedupReceiver counts the deliveries it gets by webhook-id, a little
// slowly (like a real endpoint).
type dedupReceiver struct {
	mu    sync.Mutex
	seen  map[string]int
	total *int64
	all   *sync.Mutex
	delay time.Duration
}

func (r *dedupReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	_, _ = io.Copy(io.Discard, req.Body)
	time.Sleep(r.delay)
	r.mu.Lock()
	r.seen[req.Header.Get("webhook-id")]++
	r.mu.Unlock()
	r.all.Lock()
	*r.total++
	r.all.Unlock()
}

// webhookFleet is endpoints Pro accounts, each with a webhook to its own
// receiver (answering after delay) and perEndpoint events queued.
type webhookFleet struct {
	receivers   []*dedupReceiver
	perEndpoint int
	total       int64
	all         sync.Mutex
}

func newWebhookFleet(t *testing.T, s *apptest.TestServer, endpoints, perEndpoint int, delay time.Duration) *webhookFleet {
	t.Helper()
	f := &webhookFleet{receivers: make([]*dedupReceiver, endpoints), perEndpoint: perEndpoint}
	ctx := context.Background()
	for i := range f.receivers {
		f.receivers[i] = &dedupReceiver{seen: map[string]int{}, total: &f.total, all: &f.all, delay: delay}
		srv := httptest.NewServer(f.receivers[i])
		t.Cleanup(srv.Close)
		key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
		r := s.Do(t, apptest.Request{Method: "POST", Path: "/v1/webhooks", IP: apptest.FreshIP(), Key: key,
			Body: `{"url":"` + srv.URL + `","event_types":["dark_fleet"]}`})
		if r.StatusCode != 201 {
			t.Fatalf("webhook %d: %d %s", i, r.StatusCode, r.Body)
		}
		for e := range perEndpoint {
			if _, err := s.Pg.EnqueueEvent(ctx, account, "dark_fleet", fmt.Sprintf("evt_restart_%d_%d_%d", account, e, time.Now().UnixNano()),
				[]byte(`{"type":"dark_fleet","n":`+strconv.Itoa(e)+`}`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

// count is how many deliveries the receivers answered, duplicates too.
func (f *webhookFleet) count() int64 { f.all.Lock(); defer f.all.Unlock(); return f.total }

// missing is how many events have not arrived yet.
func (f *webhookFleet) missing() int {
	n := 0
	for _, r := range f.receivers {
		r.mu.Lock()
		n += f.perEndpoint - len(r.seen)
		r.mu.Unlock()
	}
	return n
}

// check fails the test for an event that did not arrive or for more than
// maxDups duplicates, and returns the duplicates.
func (f *webhookFleet) check(t *testing.T, maxDups int) int {
	t.Helper()
	dups := 0
	for i, r := range f.receivers {
		r.mu.Lock()
		if len(r.seen) != f.perEndpoint {
			t.Errorf("endpoint %d received %d of %d events", i, len(r.seen), f.perEndpoint)
		}
		for _, n := range r.seen {
			dups += n - 1
		}
		r.mu.Unlock()
	}
	if dups > maxDups {
		t.Errorf("%d duplicates, more than the %d attempts in flight", dups, maxDups)
	}
	return dups
}

// 1,000 events to 10 endpoints, the delivery worker (`overwatch jobs --job
// webhook_delivery`, the service's own job) stopped in the middle of
// delivery and started again: every event arrives, and the only
// duplicates are the attempts in flight when it stopped (at least once:
// receivers de-duplicate by webhook-id).
func TestWebhookDeliveryAcrossRestart(t *testing.T) {
	const endpoints, perEndpoint = 10, 100
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"})
	chURL, pgURL := apptest.Stores(t)
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8",
		"OVERWATCH_LOG_LEVEL": "warn", "OVERWATCH_SPOOL_DIR": t.TempDir()}
	f := newWebhookFleet(t, s, endpoints, perEndpoint, 3*time.Millisecond)
	ctx := context.Background()

	// The worker, stopped after about a third of the deliveries.
	first, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- app.Run(first, []string{"overwatch", "jobs", "--job", "webhook_delivery"}, func(k string) string { return env[k] }, io.Discard, os.Stderr)
	}()
	for f.count() < endpoints*perEndpoint/3 {
		select {
		case err := <-done:
			t.Fatalf("the worker ended before the stop (%d delivered): %v", f.count(), err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	stop()
	<-done
	atStop := f.count()
	// Started again, it delivers the rest.
	for round := 0; round < 10 && f.missing() > 0; round++ {
		if err := app.Run(ctx, []string{"overwatch", "jobs", "--job", "webhook_delivery"}, apptest.ClockEnv(func(k string) string { return env[k] }), io.Discard, os.Stderr); err != nil {
			t.Fatal(err)
		}
	}
	dups := f.check(t, 8)
	t.Logf("%d events to %d endpoints: %d received before the stop, %d in all, %d duplicates", endpoints*perEndpoint, endpoints, atStop, f.count(), dups)
}

// The same with the worker process killed (SIGKILL: no release of its
// claims) in the middle of delivery: the deliveries it had claimed come
// due again once their lease (OVERWATCH_WEBHOOK_LEASE, 3 s here) ends, and
// a new worker process sends them; nothing is lost and the only
// duplicates are the attempts in flight when it died.
func TestWebhookDeliveryAcrossCrash(t *testing.T) {
	const endpoints, perEndpoint = 10, 100
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"})
	chURL, pgURL := apptest.Stores(t)
	f := newWebhookFleet(t, s, endpoints, perEndpoint, 15*time.Millisecond)
	worker := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "OVERWATCH_TEST_COMMAND=jobs --job webhook_delivery", "CLICKHOUSE_URL="+chURL, "DATABASE_URL="+pgURL,
			"OVERWATCH_OUTBOUND_ALLOW=127.0.0.0/8", "OVERWATCH_LOG_LEVEL=warn", "OVERWATCH_SPOOL_DIR="+t.TempDir(), "OVERWATCH_WEBHOOK_LEASE=3s")
		return cmd
	}
	first := worker()
	first.Stderr = os.Stderr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	deadline := time.Now().Add(time.Minute)
	for f.count() < endpoints*perEndpoint/3 {
		select {
		case err := <-exited:
			t.Fatalf("the worker ended before the kill (%d delivered): %v", f.count(), err)
		case <-time.After(2 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d delivered in a minute", f.count())
		}
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	killed := time.Now()
	atKill := f.count()
	for round := 0; f.missing() > 0; round++ {
		if time.Since(killed) > time.Minute {
			t.Fatalf("%d events still missing a minute after the kill", f.missing())
		}
		if out, err := worker().CombinedOutput(); err != nil {
			t.Fatalf("worker %d: %v %s", round, err, out)
		}
		time.Sleep(500 * time.Millisecond)
	}
	recovered := time.Since(killed)
	dups := f.check(t, 8)
	t.Logf("%d events to %d endpoints: %d received before the kill, %d in all, %d duplicates, all delivered %.1f s after the kill",
		endpoints*perEndpoint, endpoints, atKill, f.count(), dups, recovered.Seconds())
}
