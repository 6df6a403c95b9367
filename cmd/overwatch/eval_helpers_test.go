package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/risk"
	"overwatch/postgres/pgtest"
	"overwatch/write/sim"
)

// evalRun is a seeded simulation stored through the real pipeline into
// fresh databases, with its ground truth, for the accuracy tests.
type evalRun struct {
	chURL, pgURL string
	truthPath    string
	start, end   time.Time
	env          map[string]string
}

// simulateForEval simulates vessels for days (seed, fixed start) into the
// databases ow_test_<name>, the truth to a temporary file.
func simulateForEval(t *testing.T, name string, seed uint64, vessels, days int) *evalRun {
	t.Helper()
	r := &evalRun{chURL: chtest.URL(t, name), pgURL: pgtest.URL(t, name)}
	r.start = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	r.end = r.start.Add(time.Duration(days) * 24 * time.Hour)
	r.truthPath = filepath.Join(t.TempDir(), "truth.jsonl")
	r.env = map[string]string{"CLICKHOUSE_URL": r.chURL, "DATABASE_URL": r.pgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	if err := run(context.Background(), []string{"overwatch", "simulate", "--seed", strconv.FormatUint(seed, 10), "--vessels", strconv.Itoa(vessels),
		"--days", strconv.Itoa(days), "--start", r.start.Format(time.RFC3339), "--truth", r.truthPath}, r.getenv, io.Discard, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return r
}

// getenv is the run's environment on the tests' clock (clockEnv), the
// external sources off unless set.
func (r *evalRun) getenv(k string) string {
	return clockEnv(func(k string) string {
		if v, ok := r.env[k]; ok {
			return v
		}
		return offlineSources[k]
	})(k)
}

// command runs an overwatch command on the run's databases.
func (r *evalRun) command(t *testing.T, stdout io.Writer, args ...string) {
	t.Helper()
	if err := run(context.Background(), append([]string{"overwatch"}, args...), r.getenv, stdout, os.Stderr); err != nil {
		t.Fatal(err)
	}
}

// readTruth reads every line of the ground truth.
func readTruth(t *testing.T, path string) []sim.Truth {
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

// storedRiskEvents runs the risk_events job (after port_calls, whose calls
// the mismatch detector reads) through the jobs command and returns every
// event it stored, as the API serves them.
func (r *evalRun) storedRiskEvents(t *testing.T) []risk.Event {
	t.Helper()
	r.command(t, io.Discard, "jobs", "--job", "port_calls")
	r.command(t, io.Discard, "jobs", "--job", "risk_events")
	db, err := clickhouse.Open(r.chURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	events, err := db.RiskEvents(context.Background(), r.start.Add(-30*24*time.Hour), r.end.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return events
}
