package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"overwatch/clickhouse"
)

// tradeJobs are the trade derivations and the voyage
// earnings, in the order `jobs --once` runs them (after
// port_calls, emissions and export_estimates, which they read).
var tradeJobs = []string{"forecasts", "anomalies", "trade_routes", "earnings", "calibration"}

// tradeTables are the tables the trade derivations write.
var tradeTables = []string{"route_flows_weekly", "route_shifts", "route_deceptions", "forecasts", "forecast_accuracy", "anomalies",
	"forecast_maturity", "calibration_factors", "voyage_earnings", "port_revenue_weekly"}

// tradeEndpoints are the trade endpoints, each at its heaviest parameters.
var tradeEndpoints = []string{
	"/v1/routes/flows?limit=500",
	"/v1/routes/flows?origin=santos&limit=500",
	"/v1/routes/flows?week={week}&limit=500",
	"/v1/routes/shifts?limit=500",
	"/v1/routes/deceptions?limit=500",
	"/v1/routes/deceptions?suspicious=true&limit=500",
	"/v1/forecasts?method=pipeline&limit=200",
	"/v1/forecasts?method=statistical&limit=200",
	"/v1/forecasts?method=ml&limit=200",
	"/v1/forecasts/accuracy",
	"/v1/anomalies?limit=500",
	"/v1/anomalies/maturity",
	"/v1/calibration",
	"/v1/earnings?limit=200",
	"/v1/earnings/port-revenue?limit=200",
}

// runTrade measures the trade analytics on a simulated store of
// -days (730) of -vessels (800) with seasons and the injected trade truths
// (`overwatch simulate` with -sim-flags, into -database, filled once and
// kept; -fill refills it), with the official actuals of -actuals imported
// for the calibration: every trade derivation from scratch (their
// tables and job state emptied first, each job run through `overwatch
// jobs --job`), then a daily incremental run (the same jobs again: the
// trade-routes job recomputes its trailing windows, the forecasts and
// anomalies rewrite their tables whole, as every hour), then each trade
// endpoint under load on loopback with a Pro key.
func runTrade(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadtest trade", flag.ContinueOnError)
	bin := fs.String("bin", "bin/overwatch", "the overwatch binary")
	chServer := fs.String("clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	pgServer := fs.String("postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	database := fs.String("database", "overwatch_bench_trade", "database of the simulated store (filled when empty)")
	fill := fs.Bool("fill", false, "drop and refill the store")
	vessels := fs.Int("vessels", 800, "fleet size of the store")
	days := fs.Int("days", 730, "days of history of the store")
	seed := fs.Uint64("seed", 7, "simulator seed")
	simFlags := fs.String("sim-flags", "--seasons --trade-truths", "further `overwatch simulate` options of the store (seasons, truths, cheap older history)")
	addr := fs.String("addr", "127.0.0.1:18091", "address for the server under test")
	requests := fs.Int("requests", 2000, "requests per endpoint (under the Pro daily quota of 10,000)")
	actuals := fs.String("actuals", "../shared/data/exports", "directory of official export figures (the USDA weekly inspections, *.txt) imported first, for the calibration (empty: none)")
	maxFull := fs.Duration("max-full", 60*time.Second, "target: every trade derivation from scratch")
	maxIncr := fs.Duration("max-incremental", 5*time.Second, "target: a daily incremental run of the trade derivations")
	maxP99 := fs.Duration("max-p99", 20*time.Millisecond, "target: p99 of each endpoint")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	env := append(append(os.Environ(), offlineSources...), "CLICKHOUSE_URL="+*chServer+"/"+*database,
		"DATABASE_URL="+*pgServer+"/"+*database+"?sslmode=disable", "OVERWATCH_LOG_LEVEL=warn")
	var stderr bytes.Buffer // the last command's
	command := func(args ...string) (string, time.Duration, error) {
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Env = env
		var b bytes.Buffer
		stderr.Reset()
		cmd.Stdout, cmd.Stderr = &b, &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return b.String(), 0, fmt.Errorf("overwatch %s: %v\n%s%s", strings.Join(args, " "), err, b.String(), stderr.String())
		}
		return b.String(), time.Since(start), nil
	}
	calls, err := storeCalls(ctx, *chServer, *database)
	if err != nil {
		return err
	}
	if *fill || calls == 0 {
		if err := dropDatabase(ctx, *chServer, *pgServer, *database); err != nil {
			return err
		}
		spool, err := os.MkdirTemp("", "overwatch-bench-spool-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(spool)
		env = append(env, "OVERWATCH_SPOOL_DIR="+spool)
		end := now().UTC().Truncate(24 * time.Hour)
		simArgs := append([]string{"simulate", "--seed", strconv.FormatUint(*seed, 10), "--vessels", strconv.Itoa(*vessels), "--days", strconv.Itoa(*days),
			"--start", end.AddDate(0, 0, -*days).Format(time.RFC3339), "--truth", filepath.Join(spool, "truth.jsonl")}, strings.Fields(*simFlags)...)
		summary, took, err := command(simArgs...)
		if err != nil {
			return err
		}
		summary += stderr.String() // the simulator's summary
		fmt.Fprintf(out, "store: overwatch %s\n  in %s\n%s", strings.Join(simArgs[:len(simArgs)-len(strings.Fields(*simFlags))-2], " ")+" "+*simFlags,
			took.Round(time.Second), indent(summary))
		base, took, err := command("jobs", "--once")
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  every derivation from scratch (jobs --once, port calls included): %s\n%s", took.Round(time.Millisecond), indent(base))
		if calls, err = storeCalls(ctx, *chServer, *database); err != nil {
			return err
		}
	}
	if *actuals != "" {
		files, err := filepath.Glob(filepath.Join(*actuals, "*.txt"))
		if err != nil || len(files) == 0 {
			return fmt.Errorf("-actuals %s: no *.txt file (%v)", *actuals, err)
		}
		// export_actuals keeps the latest import of a port, week and
		// commodity: importing again changes nothing.
		if _, _, err := command(append([]string{"import", "actuals"}, files...)...); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "trade derivations over %s (%d port calls):\n", *database, calls)
	if err := resetTrade(ctx, *chServer, *pgServer, *database); err != nil {
		return err
	}
	runJobs := func() (time.Duration, string, error) {
		var total time.Duration
		var lines strings.Builder
		for _, j := range tradeJobs {
			summary, _, err := command("jobs", "--job", j)
			if err != nil {
				return 0, "", err
			}
			total += jobTimes(summary)[j]
			for _, l := range strings.Split(strings.TrimSpace(summary), "\n") {
				if !strings.HasPrefix(l, "done in") {
					lines.WriteString(l + "\n")
				}
			}
		}
		return total, lines.String(), nil
	}
	full, fullLines, err := runJobs()
	if err != nil {
		return err
	}
	incr, incrLines, err := runJobs()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  from scratch: %s (target < %s)\n%s  daily incremental: %s (target < %s)\n%s",
		full, *maxFull, indent(fullLines), incr, *maxIncr, indent(incrLines))
	failed := full >= *maxFull || incr >= *maxIncr
	srv, err := startServe(ctx, path, append(env, "OVERWATCH_ADDR="+*addr, "OVERWATCH_KEYED_LIMIT_PER_MINUTE=1000000000"), *addr)
	if err != nil {
		return err
	}
	defer srv.stop()
	week, err := busiestFlowWeek(ctx, *chServer, *database)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "trade endpoints, %d requests each from 8 concurrent clients, a Pro key each, on loopback (load average %s):\n",
		*requests, loadAverage())
	for _, ep := range append(tradeEndpoints, tradeControl) {
		ep = strings.ReplaceAll(ep, "{week}", week)
		key, _, err := command("keys", "create", "--email", fmt.Sprintf("bench-%d@example.com", time.Now().UnixNano()), "--plan", "pro")
		if err != nil {
			return err
		}
		res, err := hammer(ctx, "http://"+*addr+ep, strings.TrimSpace(key), *requests, 8)
		if err != nil {
			return err
		}
		mark := ""
		switch {
		case ep == tradeControl:
			mark = "  (control: a port-analytics endpoint, no target here)"
		case res.p99 >= *maxP99 || res.non2xx > 0:
			mark, failed = "  MISSED", true
		}
		fmt.Fprintf(out, "  %-50s %7.0f req/s  p50 %-9s p99 %-9s %4.0f kB  %d errors%s\n", ep, res.rps, res.p50.Round(10*time.Microsecond),
			res.p99.Round(10*time.Microsecond), bodyKB(ctx, "http://"+*addr+ep, strings.TrimSpace(key)), res.non2xx, mark)
	}
	fmt.Fprintf(out, "  load average after: %s\n", loadAverage())
	if failed {
		return fmt.Errorf("targets missed")
	}
	fmt.Fprintln(out, "  targets met")
	return nil
}

// tradeControl is an endpoint of the port analytics measured
// alongside, without a target: how loaded the machine was.
const tradeControl = "/v1/estimates?limit=200"

// loadAverage is the machine's load average over 1, 5 and 15 minutes
// (other work on the shared machine shows in the p99).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// bodyKB is the size of one answer of the endpoint, in kB.
func bodyKB(ctx context.Context, url, key string) float64 {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0
	}
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, resp.Body)
	return float64(n) / 1000
}

// storeCalls counts the store's port calls (0 when it has none, or no
// such table).
func storeCalls(ctx context.Context, chServer, database string) (uint64, error) {
	admin, err := clickhouse.Open(chServer + "/default")
	if err != nil {
		return 0, err
	}
	defer admin.Close()
	n, err := admin.Count(ctx, "SELECT count() FROM system.tables WHERE database = ? AND name = 'port_calls'", database)
	if err != nil || n == 0 {
		return 0, err
	}
	return admin.Count(ctx, "SELECT count() FROM "+database+".port_calls")
}

// dropDatabase drops the store's ClickHouse and PostgreSQL databases.
func dropDatabase(ctx context.Context, chServer, pgServer, database string) error {
	admin, err := clickhouse.Open(chServer + "/default")
	if err != nil {
		return err
	}
	err = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+database)
	admin.Close()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "psql", "-q", pgServer+"/postgres?sslmode=disable", "-c", "DROP DATABASE IF EXISTS "+database)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("psql: %v: %s", err, out)
	}
	return nil
}

// resetTrade empties the trade tables and forgets the trade jobs' state,
// so that the next runs derive from scratch.
func resetTrade(ctx context.Context, chServer, pgServer, database string) error {
	ch, err := clickhouse.Open(chServer + "/" + database)
	if err != nil {
		return err
	}
	defer ch.Close()
	for _, t := range tradeTables {
		if err := ch.Exec(ctx, "TRUNCATE TABLE "+t); err != nil {
			return err
		}
	}
	names := "'" + strings.Join(tradeJobs, "','") + "'"
	cmd := exec.CommandContext(ctx, "psql", "-q", pgServer+"/"+database+"?sslmode=disable", "-c",
		"DELETE FROM job_state WHERE name IN ("+names+"); DELETE FROM job_claims WHERE name IN ("+names+")")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("psql: %v: %s", err, out)
	}
	return nil
}

// busiestFlowWeek is the departure week with the most flow rows, as
// YYYY-MM-DD.
func busiestFlowWeek(ctx context.Context, chServer, database string) (string, error) {
	ch, err := clickhouse.Open(chServer + "/" + database)
	if err != nil {
		return "", err
	}
	defer ch.Close()
	var days uint64
	days, err = ch.Count(ctx, "SELECT toUInt64(toUInt16(day)) FROM route_flows_weekly GROUP BY day ORDER BY count() DESC LIMIT 1")
	if err != nil {
		return "", fmt.Errorf("the busiest flow week: %v", err)
	}
	return time.Unix(0, 0).UTC().AddDate(0, 0, int(days)).Format(time.DateOnly), nil
}
