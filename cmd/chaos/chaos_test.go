package chaos

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/postgres"
	"overwatch/testclock"
	"overwatch/write"
)

// plan is how long each part of the chaos run lasts.
type plan struct {
	copies                                  int     // of the 85,182-sentence sample
	rate                                    float64 // sentences per second, both feeds together
	settle                                  time.Duration
	replicaDown, writerDown, zkDown, pgDown time.Duration
	lease                                   time.Duration // OVERWATCH_WEBHOOK_LEASE: longer than pgDown and a restart, so that a delivery sent just before PostgreSQL went is recorded when it is back, not sent twice
	portOffset                              int           // the private cluster's CLUSTER_PORT_OFFSET
	spoolWait                               time.Duration // for the ingest spools to empty after the faults
}

var plans = map[string]plan{
	// make chaos: the outages of the issue, minutes of sustained ingest.
	"full": {copies: 3, rate: 1000, settle: 10 * time.Second, replicaDown: 10 * time.Second,
		writerDown: 10 * time.Second, zkDown: 30 * time.Second, pgDown: 30 * time.Second, lease: 45 * time.Second,
		portOffset: 300, spoolWait: 60 * time.Second},
	// make test: a few seconds of each fault.
	"smoke": {copies: 1, rate: 1500, settle: 2 * time.Second, replicaDown: 3 * time.Second,
		writerDown: 3 * time.Second, zkDown: 5 * time.Second, pgDown: 5 * time.Second, lease: 16 * time.Second,
		portOffset: 400, spoolWait: 60 * time.Second}, // ports apart from a full run's: both may run at once; the drain bound as the full run's (18.16 can stay read-only ~15 s after ZooKeeper is back)
}

const publicPerMinute = 60

// TestChaos: sustained ingest through two ingest instances into a private
// 2x2 cluster, two API instances and two jobs instances on a private
// PostgreSQL (limits in PostgreSQL), while a ClickHouse replica, the node
// the writers talk to (node1, the first of CLICKHOUSE_URL), ZooKeeper,
// PostgreSQL and one API instance are killed in turn. See doc.go.
func TestChaos(t *testing.T) {
	mode := os.Getenv("OVERWATCH_CHAOS")
	if mode == "" {
		t.Skip("the chaos test runs with OVERWATCH_CHAOS=full (make chaos) or smoke")
	}
	pl, ok := plans[mode]
	if !ok {
		t.Fatalf("OVERWATCH_CHAOS=%q: want full or smoke", mode)
	}
	began := time.Now()
	dir := t.TempDir()
	bin := binary(t, dir)
	offset := pl.portOffset
	if v := os.Getenv("OVERWATCH_CHAOS_PORT_OFFSET"); v != "" {
		offset, _ = strconv.Atoi(v)
	}
	tp := startTopology(t, offset, "overwatch")
	pg := startPG(t)
	t.Logf("private cluster in %s (ports +%d), PostgreSQL on :%d, set up in %v", tp.dir, offset, pg.port, time.Since(began).Round(time.Millisecond))

	src := newSource(t, pl.copies, testclock.Now().Add(-2*time.Minute))
	total := float64(len(src.parts[0]) + len(src.parts[1]))
	feeds := [2]*feedServer{}
	for i := range feeds {
		feeds[i] = newFeedServer(t, src.parts[i], pl.rate*float64(len(src.parts[i]))/total)
	}
	t.Logf("source: %d sentences in two halves (%d + %d): %d positions and %d static reports; lookups of %d vessels",
		int(total), len(src.parts[0]), len(src.parts[1]), src.positions, src.statics, len(src.imos))

	ps := &procs{bin: bin, dir: dir, tail: 12, env: map[string]string{
		"CLICKHOUSE_URL":                 tp.url(),
		"OVERWATCH_CLICKHOUSE_CLUSTER":   "overwatch", // the cluster of clickhouse/local/cluster.sh
		"DATABASE_URL":                   pg.url("overwatch"),
		"OVERWATCH_RATE_LIMIT_STORE":     "postgres",
		"OVERWATCH_TRUSTED_PROXIES":      "127.0.0.1/32",
		"OVERWATCH_LATEST_SYNC_INTERVAL": "200ms",
		"OVERWATCH_OUTBOUND_ALLOW":       "127.0.0.0/8",
		"OVERWATCH_WEBHOOK_LEASE":        pl.lease.String(),
		"OVERWATCH_LOG_LEVEL":            "warn",
		"OVERWATCH_DATA_DIR":             dir,
		"OVERWATCH_FRED_URL":             "off", "OVERWATCH_WORLDBANK_URL": "off", "OVERWATCH_AGTRANSPORT_URL": "off",
		"OVERWATCH_RIVER_URL": "off", "OVERWATCH_GDELT_URL": "off", "OVERWATCH_SAR_URL": "off",
	}}
	serveA := ps.start(t, "serve-a", "serve", nil) // migrates both stores first
	serveB := ps.start(t, "serve-b", "serve", nil)
	jobsStarted := time.Now()
	jobsA := ps.start(t, "jobs-a", "jobs", nil)
	jobsB := ps.start(t, "jobs-b", "jobs", nil)
	var ingests [2]*proc
	for i, name := range []string{"ingest-a", "ingest-b"} {
		ingests[i] = ps.start(t, name, "ingest", map[string]string{
			"OVERWATCH_FEEDS": "aishub=" + feeds[i].url(), "OVERWATCH_SPOOL_DIR": filepath.Join(dir, name+"-spool"),
			"OVERWATCH_ATTRIBUTION_WINDOW": "1h",
		})
	}
	t.Logf("processes up after %v", time.Since(began).Round(time.Millisecond))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := postgres.Open(ctx, pg.url("overwatch"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rcv := newReceiver(t)
	account := registerWebhook(t, store, serveA.base, rcv)

	lb := &apis{bases: []string{serveA.base, serveB.base}, down: map[string]bool{}}
	lookup := func(imo overwatch.IMO) string { return fmt.Sprintf("/v1/ais/any/%s/location/latest", imo) }
	attempt := 0
	if err := waitFor(ctx, 90*time.Second, func() error {
		// Every vessel on every instance: each syncs its own replica
		// (OVERWATCH_LATEST_SYNC_INTERVAL), one may lag the other.
		for _, base := range lb.bases {
			attempt++ // a fresh client address each time: under the per-minute limit
			for _, imo := range src.imos {
				if status, body, err := getFrom(base, lookup(imo), fmt.Sprintf("10.99.%d.%d", attempt/250, attempt%250+1)); err != nil || status != 200 {
					return fmt.Errorf("%s on %s: %d %s %v", imo, base, status, body, err)
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatalf("the first positions are not served: %v", err)
	}

	poller := &lookupPoller{}
	poller.phase.Store("0 steady")
	events := &enqueuer{}
	probes, stopProbes := context.WithCancel(ctx)
	pollDone, enqDone := make(chan struct{}), make(chan struct{})
	go func() { defer close(pollDone); poller.poll(probes, lb, src.imos, 50*time.Millisecond) }()
	go func() { defer close(enqDone); events.run(probes, store, account, 250*time.Millisecond) }()

	limitCheck := func(label, ip string) {
		passed, limited, other := burst(lb, lookup(src.imos[0]), ip, 2*publicPerMinute)
		t.Logf("limits %s: %d requests from one address over %d instances: %d let through, %d refused (429)",
			label, 2*publicPerMinute, len(lb.pick()), passed, limited)
		if passed != publicPerMinute || limited != publicPerMinute || len(other) > 0 {
			t.Errorf("limits %s: %d let through, %d refused, other %v; want exactly %d and %d",
				label, passed, limited, other, publicPerMinute, publicPerMinute)
		}
	}
	t.Logf("the first positions are served (at %v)", time.Since(began).Round(time.Second))
	limitCheck("before the faults", "10.88.0.1")
	time.Sleep(pl.settle)

	var faultTimes []string // when each fault began and ended (UTC), for the webhooks' report
	step := func(phase string, fault func(), down time.Duration, recover func()) {
		poller.phase.Store(phase)
		start := time.Now()
		fault()
		time.Sleep(down)
		recover()
		faultTimes = append(faultTimes, fmt.Sprintf("%s %s–%s", phase, start.UTC().Format("15:04:05.000"), time.Now().UTC().Format("15:04:05.000")))
		t.Logf("%s: down %v, back after %v (at %v)", phase, down, time.Since(start).Round(time.Millisecond), time.Since(began).Round(time.Second))
		poller.phase.Store(phase + " (after)")
		time.Sleep(pl.settle)
	}
	step("1 kill -9 replica node2", func() { tp.kill(t, "node2") }, pl.replicaDown, func() { tp.up(t) })
	step("2 kill -9 writer's node1", func() { tp.kill(t, "node1") }, pl.writerDown, func() { tp.up(t) })
	step("3 ZooKeeper down", func() { tp.kill(t, "zk") }, pl.zkDown, func() { tp.up(t) })
	var pgBack time.Time
	step("4 PostgreSQL down", func() { pg.crash(t) }, pl.pgDown, func() { pg.start(t); pgBack = time.Now() })
	limitCheck("after the PostgreSQL outage", "10.88.0.2")
	step("5 kill -9 API serve-b", func() { serveB.kill(); lb.markDown(serveB.base) }, 0, func() {})

	// Drain: the rest of the source at once, then a graceful stop of
	// both ingest instances (their last batches and spools written).
	poller.phase.Store("6 drain")
	drain := time.Now()
	for _, f := range feeds {
		f.hurry()
	}
	for i, f := range feeds {
		if err := waitFor(ctx, 2*time.Minute, func() error {
			if n := f.sent.Load(); int(n) < len(f.lines) {
				return fmt.Errorf("%d of %d sent", n, len(f.lines))
			}
			return nil
		}); err != nil {
			t.Fatalf("feed %d: %v", i, err)
		}
	}
	t.Logf("drain: the feeds sent everything %v after the last fault", time.Since(drain).Round(time.Millisecond))
	stored := true
	for _, p := range ingests {
		if !p.running() {
			t.Fatalf("%s exited during the run: %v\n%s", p.name, p.err, lastLines(p.log, 5))
		}
	}
	// The store is back: the spools must empty while the ingests run,
	// under their steady inflow (the replay goes round until the spool is
	// empty); what a graceful stop drains is counted below either way.
	lastLog := time.Now()
	if err := waitFor(ctx, pl.spoolWait, func() error {
		var left []string
		for _, p := range ingests {
			files, err := p.metric("overwatch_ingest_spool_files")
			if err != nil {
				return err
			}
			if files > 0 {
				left = append(left, fmt.Sprintf("%s: %.0f batches", p.name, files))
			}
		}
		if len(left) > 0 {
			err := fmt.Errorf("still in the spools: %s", strings.Join(left, ", "))
			if time.Since(lastLog) >= 10*time.Second {
				t.Logf("drain: %v after the last fault, %v", time.Since(drain).Round(time.Second), err)
				lastLog = time.Now()
			}
			return err
		}
		return nil
	}); err != nil {
		t.Errorf("%v after the last fault: %v", pl.spoolWait, err)
	}
	for _, p := range ingests {
		var stats []string
		for _, m := range []string{"received", "written", "spooled", "replayed", "write_errors", "reattributed"} {
			v, _ := p.metric("overwatch_ingest_" + m + "_total")
			stats = append(stats, fmt.Sprintf("%s %.0f", m, v))
		}
		t.Logf("%s: %s", p.name, strings.Join(stats, ", "))
	}
	for _, p := range ingests {
		if err := p.stop(60 * time.Second); err != nil {
			t.Errorf("%s stop: %v: %s", p.name, err, lastLines(p.log, 1))
			stored = false
		}
	}
	t.Logf("drain: both ingest instances stopped %v after the last fault (at %v)", time.Since(drain).Round(time.Millisecond), time.Since(began).Round(time.Second))
	for _, p := range []*proc{serveA, jobsA, jobsB} {
		if !p.running() {
			t.Errorf("%s exited during the run: %v", p.name, p.err)
		}
	}
	stopProbes()
	<-pollDone
	<-enqDone
	probesStopped := time.Now()

	checkStored(t, ctx, tp, src, stored)
	checkJobs(t, ctx, store, jobsStarted)

	// Every acknowledged event delivered; then a lease more, so that a
	// delivery whose outcome PostgreSQL lost would be sent again by now.
	if err := waitFor(ctx, 90*time.Second, func() error {
		if missing, _, _ := events.check(rcv); len(missing) > 0 {
			return fmt.Errorf("%d of %d acknowledged events not delivered, e.g. %s", len(missing), len(events.acked), missing[0])
		}
		return nil
	}); err != nil {
		t.Error(err)
	}
	if wait := time.Until(pgBack.Add(pl.lease + 5*time.Second)); wait > 0 {
		time.Sleep(wait)
	}
	t.Logf("webhooks: every acknowledged event delivered %v after the probes stopped", time.Since(probesStopped).Round(time.Millisecond))
	if id, d := events.slowest(rcv); id != "" {
		t.Logf("webhooks: the slowest first delivery took %v (%s, raised at %v)", d.Round(time.Millisecond), id, events.at[id].Sub(began).Round(time.Second))
	}
	missing, twice, unknown := events.check(rcv)
	rcv.mu.Lock()
	t.Logf("webhooks: %d events acknowledged, %d enqueues failed (PostgreSQL down), %d deliveries received for %d events",
		len(events.acked), len(events.failed), rcv.total, len(rcv.calls))
	rcv.mu.Unlock()
	if len(missing) > 0 || len(twice) > 0 || len(unknown) > 0 {
		t.Errorf("webhooks: %d lost %v, %d sent twice %v, %d never raised %v", len(missing), head(missing), len(twice), head(twice), len(unknown), head(unknown))
		for _, id := range head(twice) {
			id, _, _ = strings.Cut(id, " ")
			rcv.mu.Lock()
			t.Logf("webhooks: %s raised at %v (acknowledged %v, enqueue failed %v); %s", id, events.at[id].UTC().Format("15:04:05.000"),
				!events.at[id].IsZero(), events.failed[id], strings.Join(rcv.seen[id], "; "))
			rcv.mu.Unlock()
			t.Logf("webhooks: %s in PostgreSQL:\n%s", id, pg.psql("overwatch",
				`SELECT d.id, d.status, d.attempts, d.created_at, d.next_attempt_at, d.delivered_at, a.attempt, a.at, a.status_code, a.error
				   FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id WHERE d.event_id = '`+id+`' ORDER BY a.attempt`))
		}
		t.Logf("webhooks: the faults' times: %s", strings.Join(faultTimes, "; "))
	}

	summary, bad := poller.summary()
	t.Logf("public lookups: %d answered 200, %d `lookup failed`, %d other\n%s", poller.ok.Load(), poller.lookupFailed.Load(), bad, summary)
	if bad > 0 {
		t.Errorf("the public lookup answered %d times with something else than 200 or `lookup failed`", bad)
	}
	t.Logf("chaos %s run took %v", mode, time.Since(began).Round(time.Second))
	ps.stopAll(10 * time.Second)
}

// registerWebhook creates a Pro account with a key and registers the
// receiver for dark_fleet events through the API; it returns the account.
func registerWebhook(t *testing.T, store *postgres.DB, base string, rcv *receiver) int64 {
	t.Helper()
	key, prefix, hash, err := overwatch.NewAPIKey()
	if err != nil {
		t.Fatal(err)
	}
	account, _, err := store.CreateAccountKey(context.Background(), "chaos@overwatch.test", overwatch.PlanPro, write.NewKey{Prefix: prefix, Hash: hash}, 10)
	if err != nil {
		t.Fatal(err)
	}
	req := strings.NewReader(`{"url":"` + rcv.srv.URL + `/hook","event_types":["dark_fleet"]}`)
	r, err := newRequest("POST", base+"/v1/webhooks", req, key)
	if err != nil {
		t.Fatal(err)
	}
	if r.status != 201 {
		t.Fatalf("register the webhook: %d %s", r.status, r.body)
	}
	return account
}

func head(s []string) []string {
	if len(s) > 5 {
		return s[:5]
	}
	return s
}
