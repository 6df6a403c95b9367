package chaos

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"overwatch/clickhouse"
	"overwatch/postgres"
)

// reply is a response with its body read.
type reply struct {
	status int
	body   []byte
}

func newRequest(method, url string, body io.Reader, key string) (reply, error) {
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", "10.66.0.1")
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, body: b}, err
}

// checkStored: every report the source sent is stored exactly once, by the
// schema's dedup semantics (README, "AIS feeds"): positions claimed later
// by a static report are copied under its IMO with the same dedup key, so
// reports are counted by key and rows by (IMO, key) after FINAL; static
// reports by FINAL. In cluster mode the two replicas of each shard hold the
// same rows. complete is false when an ingest instance kept batches in its
// spool: then the count is not waited for.
func checkStored(t *testing.T, ctx context.Context, tp *topology, src *source, complete bool) {
	t.Helper()
	db, err := clickhouse.Open(tp.nodeURL(1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d := tp.database
	count := func(q string) uint64 {
		n, err := db.Count(ctx, fmt.Sprintf(q, d))
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	var reports uint64
	start := time.Now()
	wait := 2 * time.Minute // the replicas and the last inserts settle
	if !complete {
		wait = 5 * time.Second // an ingest kept batches: the count will not grow
	}
	err = waitFor(ctx, wait, func() error {
		n, err := db.Count(ctx, fmt.Sprintf("SELECT uniqExact(dedup_key) FROM %s.positions", d))
		if err != nil {
			return err
		}
		if reports = n; n != src.positions {
			return fmt.Errorf("%d distinct position reports stored, the source sent %d", n, src.positions)
		}
		return nil
	})
	if err != nil {
		t.Errorf("positions: %v", err)
	}
	keyed := count("SELECT uniqExact(imo, dedup_key) FROM %s.positions")
	final := count("SELECT count() FROM %s.positions FINAL")
	raw := count("SELECT count() FROM %s.positions")
	statics := count("SELECT count() FROM %s.static_reports FINAL")
	t.Logf("stored: %d distinct position reports (source %d) as %d rows after FINAL (%d (IMO, report) pairs, %d rows before merging); %d static reports after FINAL (source %d); all counted %v after the ingest stopped",
		reports, src.positions, final, keyed, raw, statics, src.statics, time.Since(start).Round(time.Millisecond))
	if final != keyed {
		t.Errorf("positions after FINAL: %d rows, want one per (IMO, report): %d", final, keyed)
	}
	if statics != src.statics {
		t.Errorf("static reports after FINAL: %d, the source sent %d", statics, src.statics)
	}
	if count("SELECT count() FROM system.tables WHERE database = '%s' AND name = 'positions_local'") == 0 {
		t.Log("no positions_local table: single-node schema, no replica check")
		return
	}
	// Replicas: each shard's two copies agree once their queues are done.
	syncStart := time.Now()
	var perNode [5]uint64
	for n := 1; n <= 4; n++ {
		node, err := clickhouse.Open(tp.nodeURL(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"positions_local", "static_reports_local"} {
			sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			if err := node.Exec(sctx, fmt.Sprintf("SYSTEM SYNC REPLICA %s.%s", d, table)); err != nil {
				t.Errorf("node%d: SYSTEM SYNC REPLICA %s: %v", n, table, err)
			}
			cancel()
		}
		if perNode[n], err = node.Count(ctx, fmt.Sprintf("SELECT uniqExact(imo, dedup_key) FROM %s.positions_local", d)); err != nil {
			t.Error(err)
		}
		node.Close()
	}
	t.Logf("replicas: shard 01 holds %d (node1) and %d (node3) position rows, shard 02 %d (node2) and %d (node4) (synced in %v)",
		perNode[1], perNode[3], perNode[2], perNode[4], time.Since(syncStart).Round(time.Millisecond))
	if perNode[1] != perNode[3] || perNode[2] != perNode[4] || perNode[1]+perNode[2] != keyed {
		t.Errorf("replicas disagree or miss rows: %v, want shard sums of %d", perNode[1:], keyed)
	}
}

// jobIntervals are the schedules of the jobs whose runs are checked
// (jobs/jobs.go); other jobs are checked against the smallest interval of
// the rest, which only allows more runs.
var jobIntervals = map[string]time.Duration{
	"webhook_delivery": 5 * time.Second, "rate_window_purge": 5 * time.Minute, "alerts": 5 * time.Minute,
	"port_calls": 10 * time.Minute, "congestion": 15 * time.Minute,
}

// checkJobs: with two jobs instances, each job ran at most once per tick of
// its schedule (plus the start-up catch-up), counted in job_state over both.
func checkJobs(t *testing.T, ctx context.Context, store *postgres.DB, since time.Time) {
	t.Helper()
	states, err := store.JobStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, st := range states {
		every, ok := jobIntervals[st.Name]
		if !ok {
			every = 5 * time.Minute
		}
		ticks := now.Truncate(every).Sub(since.Truncate(every))/every + 1 // + the catch-up at start
		if st.Name == "webhook_delivery" {
			t.Logf("jobs: webhook_delivery ran %d times over both instances in %v (%d ticks of 5 s, %d failures)",
				st.Runs, now.Sub(since).Round(time.Second), ticks, st.Failures)
			if st.Runs < int64(ticks)/3 {
				t.Errorf("webhook_delivery ran %d times for %d ticks: the schedule stalled", st.Runs, ticks)
			}
		}
		if st.Runs > int64(ticks) {
			t.Errorf("job %s ran %d times over both instances, more than its %d ticks", st.Name, st.Runs, ticks)
		}
	}
}
