package e2e

import (
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"strings"
	"testing"
	"time"
)

// `overwatch run`'s log is one a person can read: a 60-day demo backfill
// (20 chunks of 72 hours, which logged a line each) logs its progress at
// most once per tenth, and the webhook worker, with nothing due every 5
// seconds, logs no "job done" at info.
func TestRunLogIsReadable(t *testing.T) {
	t.Parallel() // its own databases
	s := apptest.StartCommand(t, "run", map[string]string{
		"CLICKHOUSE_URL":         chtest.URL(t, "e2e_run_logs"),
		"DATABASE_URL":           pgtest.URL(t, "e2e_run_logs"),
		"OVERWATCH_DATA_DIR":     t.TempDir(),
		"OVERWATCH_SPOOL_DIR":    t.TempDir(),
		"OVERWATCH_DEMO_DAYS":    "60",
		"OVERWATCH_DEMO_VESSELS": "20",
	})
	apptest.Eventually(t, 240*time.Second, "the backfill done", func() bool {
		return strings.Contains(s.Logs.String(), "demo: history ready")
	})
	// Two more ticks of the webhook worker.
	time.Sleep(11 * time.Second)
	log := s.Logs.String()
	progress := strings.Count(log, `msg="demo: backfill"`)
	if progress < 5 || progress > 10 || !strings.Contains(log, `msg="demo: backfill" done=100%`) {
		t.Errorf("%d backfill lines:\n%s", progress, log)
	}
	if strings.Contains(log, `msg="job done" job=webhook_delivery`) {
		t.Errorf("the idle webhook worker logs at info:\n%s", log)
	}
	if !strings.Contains(log, `msg="job done" job=port_calls`) {
		t.Errorf("the port calls' run is not logged:\n%s", log)
	}
}
