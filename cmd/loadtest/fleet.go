package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"overwatch/clickhouse"
	"overwatch/jobs"
	"overwatch/read"
)

// runFleet measures what a world fleet costs the predictions and the area
// presence: a store of -vessels simulated over -days (filled once into
// -database, the port calls derived) and copied into a fleet -copies times
// as large (20,000 vessels by default), then the predictions refresh timed
// in this process as the scheduler runs it (the first run computes the ETA
// interval's calibration, the next reuses it), then, through `overwatch
// serve`, GET /v1/vessels/{imo}/prediction over the predicted vessels and
// GET /v1/area/vessels over the last day of the data (a region and the
// whole world).
func runFleet(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadtest fleet", flag.ContinueOnError)
	bin := fs.String("bin", "bin/overwatch", "the overwatch binary")
	chServer := fs.String("clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	pgServer := fs.String("postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	database := fs.String("database", "overwatch_bench_fleet", "database of the simulated store (filled when it has no port calls)")
	fill := fs.Bool("fill", false, "drop and refill the store")
	vessels := fs.Int("vessels", 1000, "vessels simulated")
	copies := fs.Int("copies", 20, "the simulated vessels copied into a fleet this many times their number")
	days := fs.Int("days", 12, "days of history of the store (the calibration backtests 8-10 days back)")
	downsample := fs.Int("downsample", 60, "the simulator's report intervals over the ITU cadence (60: a position every 10 min under way, every 30 min stopped)")
	seed := fs.Uint64("seed", 11, "simulator seed")
	addr := fs.String("addr", "127.0.0.1:18601", "address for the server under test")
	requests := fs.Int("requests", 2000, "requests per endpoint (0: the refreshes only)")
	refreshes := fs.Int("refreshes", 2, "predictions refreshes timed (0: the endpoints read the stored newest refresh)")
	maxRefresh := fs.Duration("max-refresh", 30*time.Second, "target: a scheduled predictions refresh (calibration kept)")
	maxPrediction := fs.Duration("max-prediction-p99", 20*time.Millisecond, "target: p99 of /v1/vessels/{imo}/prediction")
	maxArea := fs.Duration("max-area-p99", 300*time.Millisecond, "target: p99 of /v1/area/vessels over a day")
	area := fs.Bool("area", true, "measure /v1/area/vessels too (false: the prediction lookup only)")
	clientCounts := fs.String("clients", "8", "concurrent clients of each endpoint; a comma list measures each count in turn")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the timed refreshes (this process: the refresh's Go side) to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	chURL := *chServer + "/" + *database
	env := append(append(os.Environ(), offlineSources...), "CLICKHOUSE_URL="+chURL,
		"DATABASE_URL="+*pgServer+"/"+*database+"?sslmode=disable", "OVERWATCH_LOG_LEVEL=warn")
	var stderr bytes.Buffer // the last command's (the simulator writes its summary there)
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
		simArgs := []string{"simulate", "--seed", strconv.FormatUint(*seed, 10), "--vessels", strconv.Itoa(*vessels), "--days", strconv.Itoa(*days),
			"--downsample", strconv.Itoa(*downsample), "--truth", filepath.Join(spool, "truth.jsonl")}
		summary, took, err := command(simArgs...)
		if err != nil {
			return err
		}
		summary += stderr.String()
		fmt.Fprintf(out, "store: overwatch %s\n  in %s (load average %s)\n%s", strings.Join(simArgs[:len(simArgs)-2], " "), took.Round(time.Second),
			loadAverage(), indent(summary))
		summary, took, err = command("jobs", "--job", "port_calls")
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  port calls derived in %s\n%s", took.Round(time.Millisecond), indent(summary))
		if calls, err = storeCalls(ctx, *chServer, *database); err != nil {
			return err
		}
	}
	if err := copyFleet(ctx, *chServer, *database, *vessels, *copies, out); err != nil {
		return err
	}
	if calls, err = storeCalls(ctx, *chServer, *database); err != nil {
		return err
	}
	db, err := clickhouse.Open(chURL)
	if err != nil {
		return err
	}
	defer db.Close()
	// A store filled by an earlier binary gets this one's migrations
	// before its derivations run.
	if _, err := db.Migrate(ctx); err != nil {
		return err
	}
	first, last, err := db.DataSpan(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "store %s: positions from %s to %s, %d port calls\n", *database, first.Format(time.RFC3339), last.Format(time.RFC3339), calls)
	if *area {
		if err := derivePresence(ctx, db, out); err != nil {
			return err
		}
	}

	// the refresh as the scheduler runs it: one Run, called every 10 minutes
	refresh := jobs.Predictions(db, now)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		stopProfile := func() { pprof.StopCPUProfile(); f.Close() }
		defer stopProfile()
	}
	failed := false
	var predicted int
	for i := range *refreshes {
		what := "first run (calibration computed)"
		if i > 0 {
			what = "next run (calibration kept)"
		}
		load := loadAverage()
		start := time.Now()
		res, err := refresh(ctx, jobs.State{})
		if err != nil {
			return err
		}
		took := time.Since(start)
		predicted = res.Rows
		mark := ""
		if i > 0 && took >= *maxRefresh {
			mark, failed = "  MISSED", true
		}
		fmt.Fprintf(out, "predictions refresh, %s: %s, %d vessels predicted, calibration kept: %v (load average before %s)%s\n",
			what, took.Round(time.Millisecond), res.Rows, res.Detail["calibration_cached"], load, mark)
	}
	if predicted == 0 && *refreshes > 0 {
		return fmt.Errorf("no vessel predicted: the store has no vessel under way")
	}
	if *requests <= 0 {
		if failed {
			return fmt.Errorf("targets missed")
		}
		return nil
	}
	preds, err := db.Predictions(ctx, read.PredictionFilter{})
	if err != nil {
		return err
	}
	imos := make([]string, len(preds))
	for i, p := range preds {
		imos[i] = p.IMO.String()
	}

	srv, err := startServe(ctx, path, append(env, "OVERWATCH_ADDR="+*addr, "OVERWATCH_KEYED_LIMIT_PER_MINUTE=1000000000"), *addr)
	if err != nil {
		return err
	}
	defer srv.stop()
	base := "http://" + *addr
	predictionURLs := make([]string, len(imos))
	for i, imo := range imos {
		predictionURLs[i] = base + "/v1/vessels/" + imo + "/prediction"
	}
	day := "&start=" + last.Add(-24*time.Hour).Format(time.RFC3339) + "&end=" + last.Format(time.RFC3339)
	type endpoint struct {
		name string
		urls []string
		max  time.Duration
	}
	var endpoints []endpoint
	if len(imos) > 0 { // none when no refresh is stored (-refreshes 0 on a fresh store)
		endpoints = append(endpoints, endpoint{"/v1/vessels/{imo}/prediction (" + strconv.Itoa(len(imos)) + " vessels)", predictionURLs, *maxPrediction})
	}
	if *area {
		endpoints = append(endpoints,
			endpoint{"/v1/area/vessels?bbox=-10,35,30,65 (Europe, a day)", []string{base + "/v1/area/vessels?bbox=-10,35,30,65&limit=500" + day}, *maxArea},
			endpoint{"/v1/area/vessels?bbox=-180,-90,180,90 (the world, a day)", []string{base + "/v1/area/vessels?bbox=-180,-90,180,90&limit=500" + day}, *maxArea},
			endpoint{"/v1/area/vessels, 1,000 boxes of 2-20 degrees with fractional edges, each over a day ending up to 6 h before the data's end", areaURLs(base, last, 1000), *maxArea})
	}
	if len(endpoints) == 0 {
		return fmt.Errorf("nothing to measure: no predictions refresh is stored and -area=false")
	}
	var counts []int
	for _, c := range strings.Split(*clientCounts, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return fmt.Errorf("-clients: %q is not a count of clients", c)
		}
		counts = append(counts, n)
	}
	for _, clients := range counts {
		fmt.Fprintf(out, "endpoints, %d requests each from %d concurrent clients, a Pro key each, on loopback (load average %s):\n", *requests, clients, loadAverage())
		for _, ep := range endpoints {
			key, _, err := command("keys", "create", "--email", fmt.Sprintf("bench-%d@example.com", time.Now().UnixNano()), "--plan", "pro")
			if err != nil {
				return err
			}
			// One request first, not timed: the server reads the newest
			// predictions refresh into memory at its first lookup (then once
			// per refresh, in the background), a cost of starting, not of the
			// steady state the targets are about.
			if _, err := hammerURLs(ctx, ep.urls[:1], strings.TrimSpace(key), 1, 1); err != nil {
				return err
			}
			res, err := hammerURLs(ctx, ep.urls, strings.TrimSpace(key), *requests, clients)
			if err != nil {
				return err
			}
			mark := ""
			if res.p99 >= ep.max || res.non2xx > 0 {
				mark, failed = "  MISSED", true
			}
			fmt.Fprintf(out, "  %-62s %7.0f req/s  p50 %-9s p99 %-9s (target < %s)  %d errors%s\n", ep.name, res.rps, res.p50.Round(10*time.Microsecond),
				res.p99.Round(10*time.Microsecond), ep.max, res.non2xx, mark)
		}
	}
	fmt.Fprintf(out, "  load average after: %s\n", loadAverage())
	if failed {
		return fmt.Errorf("targets missed")
	}
	fmt.Fprintln(out, "  targets met")
	return nil
}

// derivePresence runs the area presence summary's job as the scheduler
// does: a first run over the whole history, then a run as the next tick
// makes it (the day before the newest position's and that day).
func derivePresence(ctx context.Context, db *clickhouse.DB, out io.Writer) error {
	run := jobs.Presence(db)
	start := time.Now()
	res, err := run(ctx, jobs.State{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "area presence summary, first run: %d days in %s (load average %s)\n", res.Rows, time.Since(start).Round(time.Millisecond), loadAverage())
	start = time.Now()
	next, err := run(ctx, jobs.State{Watermark: res.Watermark, LastSuccess: start})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "area presence summary, next run: %d days in %s\n", next.Rows, time.Since(start).Round(time.Millisecond))
	return nil
}

// areaURLs are n presence queries, each its own box (2 to 20 degrees a
// side, edges to the hundredth of a degree, between 60°S and 70°N) over its
// own day (ending up to 6 hours before last, to the second), so that no
// two ask the same.
func areaURLs(base string, last time.Time, n int) []string {
	rng := rand.New(rand.NewPCG(17, 1))
	urls := make([]string, n)
	for i := range urls {
		w, s := -180+340*rng.Float64(), -60+110*rng.Float64()
		e, north := w+2+18*rng.Float64(), s+2+18*rng.Float64()
		end := last.Add(-time.Duration(rng.IntN(6*3600)) * time.Second)
		urls[i] = fmt.Sprintf("%s/v1/area/vessels?bbox=%.2f,%.2f,%.2f,%.2f&limit=500&start=%s&end=%s", base, w, s, e, north,
			end.Add(-24*time.Hour).Format(time.RFC3339), end.Format(time.RFC3339))
	}
	return urls
}
