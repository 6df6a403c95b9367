package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
)

// TestMain lets the test binary be the lookup's anchor too: the load
// test starts its own executable as `hello` (startHello).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "hello" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := runHello(ctx, os.Args[2:])
		stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "hello:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestLoadSmoke runs the whole load test briefly on a small store, so that
// `make test` proves the benchmark works; `make bench` runs it in full.
func TestLoadSmoke(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("wrk is required in CI (make test installs it)")
		}
		t.Skip("wrk is not installed")
	}
	chURL, pgURL := chtest.URL(t, "loadsmoke"), pgtest.URL(t, "loadsmoke") // skip, or fail in CI, without servers
	chServer, database, _ := strings.Cut(strings.TrimPrefix(chURL, "clickhouse://"), "/")
	database, _, _ = strings.Cut(database, "?") // cluster mode: OVERWATCH_CLICKHOUSE_CLUSTER reaches the children
	pgServer, _, _ := strings.Cut(strings.TrimPrefix(pgURL, "postgres://"), "/")
	bin := filepath.Join(t.TempDir(), "overwatch")
	if out, err := exec.Command("go", "build", "-o", bin, "../overwatch").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	aln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	anchorAddr := aln.Addr().String()
	aln.Close()
	var out bytes.Buffer
	err = run(context.Background(), []string{"-bin", bin, "-database", database, "-vessels", "2000",
		"-clickhouse", "clickhouse://" + chServer, "-postgres", "postgres://" + pgServer,
		"-duration", "2s", "-connections", "8", "-addr", addr, "-min-rps", "500", "-max-p99", "1s",
		"-anchor-rounds", "1", "-anchor-addr", anchorAddr}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "targets met") || !strings.Contains(out.String(), "round 1 anchor") || !strings.Contains(out.String(), "CPU/request") {
		t.Fatalf("unexpected output:\n%s", out.String())
	}
	t.Log(out.String())
}

// TestHistorySmoke runs the history import benchmark on a small file, so
// that `make test` proves it works; `make bench` runs it in full.
func TestHistorySmoke(t *testing.T) {
	if os.Getenv("OVERWATCH_CLICKHOUSE_CLUSTER") != "" {
		t.Skip("single server only: the history benchmark measures the import against clickhouse-client on one server")
	}
	chURL := chtest.URL(t, "historysmoke")
	chServer, database, _ := strings.Cut(strings.TrimPrefix(chURL, "clickhouse://"), "/")
	database, _, _ = strings.Cut(database, "?") // cluster mode: OVERWATCH_CLICKHOUSE_CLUSTER reaches the children
	bin := filepath.Join(t.TempDir(), "overwatch")
	if out, err := exec.Command("go", "build", "-o", bin, "../overwatch").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var out bytes.Buffer
	err := runHistory(context.Background(), []string{"-bin", bin, "-database", database, "-clickhouse", "clickhouse://" + chServer,
		"-rows", "20000", "-dir", t.TempDir(), "-min-ratio", "0.01",
		"-samples", "../../write/history/testdata/noaa_marinecadastre_2022-03-31_51rows.csv,../../write/history/testdata/noaa_marinecadastre_2024-01-01_499rows.csv"}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "targets met") || !strings.Contains(out.String(), "20000 positions stored") {
		t.Fatalf("unexpected output:\n%s", out.String())
	}
	t.Log(out.String())
}

// TestFleetSmoke runs the fleet benchmark (the predictions refresh, the
// prediction and area endpoints) on a small fleet, so that `make test`
// proves it works; `make bench-predictions` runs it on 20,000 vessels.
func TestFleetSmoke(t *testing.T) {
	if os.Getenv("OVERWATCH_CLICKHOUSE_CLUSTER") != "" {
		t.Skip("single server only: the fleet is copied with INSERT ... SELECT on one server")
	}
	bin, chServer, pgServer, database := smokeStore(t, "fleetsmoke")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var out bytes.Buffer
	err = runFleet(context.Background(), []string{"-bin", bin, "-database", database, "-fill", "-vessels", "60", "-copies", "3",
		"-clickhouse", "clickhouse://" + chServer, "-postgres", "postgres://" + pgServer, "-addr", addr, "-requests", "50",
		"-max-refresh", "10m", "-max-prediction-p99", "1m", "-max-area-p99", "1m"}, &out) // it proves the benchmark works; the machine's load sets the figures
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"copied 2 times", "180 vessels", "calibration kept: true", "targets met"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("no %q in the output:\n%s", want, out.String())
		}
	}
	t.Log(out.String())
}

func TestParseWrk(t *testing.T) {
	out := `Running 10s test @ http://127.0.0.1:18089
  2 threads and 64 connections
  Latency Distribution
     50%    1.95ms
     75%    2.50ms
     90%    3.10ms
     99%    5.81ms
  278091 requests in 10.00s, 200.00MB read
  Non-2xx or 3xx responses: 3
Requests/sec:  27809.11
`
	r, err := parseWrk(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.rps != 27809.11 || r.p50 != 1950*time.Microsecond || r.p99 != 5810*time.Microsecond || r.total != 278091 || r.non2xx != 3 {
		t.Errorf("%+v", r)
	}
	if _, err := parseWrk("nonsense"); err == nil {
		t.Error("nonsense parsed")
	}
}

// TestWorldSmoke runs the world fleet benchmark on a small fleet for a
// simulated minute, so that `make test` proves it works (every position
// report sent is stored once); `make bench-world` runs 20,000 vessels.
func TestWorldSmoke(t *testing.T) {
	if os.Getenv("OVERWATCH_CLICKHOUSE_CLUSTER") != "" {
		t.Skip("single server only: the stored bytes are read from one server's parts")
	}
	bin, chServer, pgServer, database := smokeStore(t, "worldsmoke")
	var out bytes.Buffer
	err := runWorld(context.Background(), []string{"-bin", bin, "-database", database, "-vessels", "300", "-minutes", "1", "-speed", "10",
		"-clickhouse", "clickhouse://" + chServer, "-postgres", "postgres://" + pgServer}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"0 unattributed", "positions sent", "every job succeeded within its interval: true"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("no %q in the output:\n%s", want, out.String())
		}
	}
	t.Log(out.String())
}

// smokeStore builds the overwatch binary and names the test's store: the
// ClickHouse and PostgreSQL servers (host:port) and the database name
// (skipped, or failed in CI, without servers).
func smokeStore(t *testing.T, name string) (bin, chServer, pgServer, database string) {
	t.Helper()
	chURL, pgURL := chtest.URL(t, name), pgtest.URL(t, name)
	chServer, database, _ = strings.Cut(strings.TrimPrefix(chURL, "clickhouse://"), "/")
	database, _, _ = strings.Cut(database, "?") // cluster mode: OVERWATCH_CLICKHOUSE_CLUSTER reaches the children
	pgServer, _, _ = strings.Cut(strings.TrimPrefix(pgURL, "postgres://"), "/")
	bin = filepath.Join(t.TempDir(), "overwatch")
	if out, err := exec.Command("go", "build", "-o", bin, "../overwatch").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin, chServer, pgServer, database
}
