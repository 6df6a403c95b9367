package apptest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"overwatch/app"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/risk"
	"overwatch/postgres/pgtest"
	"overwatch/write/sim"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// EvalRun is a seeded simulation stored through the real pipeline into
// fresh databases, with its ground truth, for the accuracy tests.
type EvalRun struct {
	ChURL, PgURL string
	TruthPath    string
	Start, End   time.Time
	Env          map[string]string
}

// SimulateForEval simulates vessels for days (seed, fixed start) into the
// databases ow_test_<name>, the truth to a temporary file.
func SimulateForEval(t *testing.T, name string, seed uint64, vessels, days int) *EvalRun {
	t.Helper()
	r := &EvalRun{ChURL: chtest.URL(t, name), PgURL: pgtest.URL(t, name)}
	r.Start = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	r.End = r.Start.Add(time.Duration(days) * 24 * time.Hour)
	r.TruthPath = filepath.Join(t.TempDir(), "truth.jsonl")
	r.Env = map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	if err := app.Run(context.Background(), []string{"overwatch", "simulate", "--seed", strconv.FormatUint(seed, 10), "--vessels", strconv.Itoa(vessels),
		"--days", strconv.Itoa(days), "--start", r.Start.Format(time.RFC3339), "--truth", r.TruthPath}, r.Getenv, io.Discard, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return r
}

// Getenv is the run's environment on the tests' clock (clockEnv), the
// external sources off unless set.
func (r *EvalRun) Getenv(k string) string {
	return ClockEnv(func(k string) string {
		if v, ok := r.Env[k]; ok {
			return v
		}
		return OfflineSources[k]
	})(k)
}

// Command runs an overwatch command on the run's databases.
func (r *EvalRun) Command(t *testing.T, stdout io.Writer, args ...string) {
	t.Helper()
	if err := app.Run(context.Background(), append([]string{"overwatch"}, args...), r.Getenv, stdout, os.Stderr); err != nil {
		t.Fatal(err)
	}
}

// ReadTruth reads every line of the ground truth.
func ReadTruth(t *testing.T, path string) []sim.Truth {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sim.Truth
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tr sim.Truth
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// StoredRiskEvents runs the risk_events job (after port_calls, whose calls
// the mismatch detector reads) through the jobs command and returns every
// event it stored, as the API serves them.
func (r *EvalRun) StoredRiskEvents(t *testing.T) []risk.Event {
	t.Helper()
	r.Command(t, io.Discard, "jobs", "--job", "port_calls")
	r.Command(t, io.Discard, "jobs", "--job", "risk_events")
	db, err := clickhouse.Open(r.ChURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	events, err := db.RiskEvents(context.Background(), r.Start.Add(-30*24*time.Hour), r.End.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return events
}
