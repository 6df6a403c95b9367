package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"overwatch/clickhouse"
)

// runSim measures the backfill of the fleet simulator: `bin/overwatch
// simulate --days N` of the default fleet into a fresh database, through
// the real ingest pipeline.
func runSim(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadtest sim", flag.ContinueOnError)
	bin := fs.String("bin", "bin/overwatch", "the overwatch binary")
	chServer := fs.String("clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	database := fs.String("database", "overwatch_bench_sim", "database to simulate into (dropped first)")
	days := fs.Int("days", 30, "days to backfill")
	vessels := fs.Int("vessels", 800, "fleet size")
	maxTime := fs.Duration("max-time", 3*time.Minute, "target: the backfill takes less than this")
	if err := fs.Parse(args); err != nil {
		return err
	}
	admin, err := clickhouse.Open(*chServer + "/default")
	if err != nil {
		return err
	}
	err = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+*database)
	admin.Close()
	if err != nil {
		return err
	}
	path, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	spool, err := os.MkdirTemp("", "overwatch-bench-spool-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(spool)
	truth := filepath.Join(spool, "truth.jsonl")
	cmd := exec.CommandContext(ctx, path, "simulate", "--days", strconv.Itoa(*days), "--vessels", strconv.Itoa(*vessels), "--truth", truth)
	cmd.Env = append(os.Environ(), "CLICKHOUSE_URL="+*chServer+"/"+*database, "OVERWATCH_SPOOL_DIR="+spool, "OVERWATCH_LOG_LEVEL=warn")
	start := time.Now()
	summary, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	if err != nil {
		return fmt.Errorf("simulate: %v\n%s", err, summary)
	}
	m := regexp.MustCompile(`: (\d+) messages \((\d+) lines to providers\), (\d+) reports written`).FindStringSubmatch(string(summary))
	if m == nil {
		return fmt.Errorf("cannot read the simulator's summary:\n%s", summary)
	}
	messages, _ := strconv.ParseFloat(m[1], 64)
	lines, _ := strconv.ParseFloat(m[2], 64)
	db, err := clickhouse.Open(*chServer + "/" + *database)
	if err != nil {
		return err
	}
	defer db.Close()
	positions, err := db.Count(ctx, "SELECT count() FROM positions")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "simulator backfill, %d vessels x %d days, into %s:\n  %s", *vessels, *days, *database, summary)
	fmt.Fprintf(out, "  wall time    %s (target < %s)\n", elapsed.Round(time.Millisecond), *maxTime)
	fmt.Fprintf(out, "  messages/min %.0f simulated, %.0f lines/min delivered to the pipeline (a line per provider that heard a message)\n",
		messages/elapsed.Minutes(), lines/elapsed.Minutes())
	fmt.Fprintf(out, "  positions    %d rows in ClickHouse\n", positions)
	if elapsed >= *maxTime {
		return fmt.Errorf("target missed: %s", elapsed.Round(time.Second))
	}
	fmt.Fprintln(out, "  target met")
	return nil
}
