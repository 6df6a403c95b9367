package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"overwatch/clickhouse"
)

// analyticsEndpoints are the read endpoints on the derived tables, at
// their heaviest parameters.
var analyticsEndpoints = []string{
	"/v1/congestion",
	"/v1/congestion?port=santos&vessel_type=cargo",
	"/v1/congestion/history?port=santos&days=365",
	"/v1/berth-utilization",
	"/v1/berth-utilization/weekly?port=port-hedland&weeks=52",
	"/v1/fleet-age",
	"/v1/fleet-age/history?port=santos&weeks=52",
	"/v1/estimates?limit=200",
	"/v1/destination-reliability?limit=500",
	"/v1/export?type=visits&limit=10000",
	"/v1/export?type=estimates&limit=10000",
	"/v1/risk/vessels?limit=500",
	"/v1/risk/vessel/{imo}",
	"/v1/risk/events?limit=500",
	"/v1/risk/events?type=ais_gap&tier=high&limit=500",
	"/v1/risk/stats",
	"/v1/risk/sts?limit=500",
	"/v1/risk/sts/stats",
	"/v1/risk/loitering?limit=500",
	"/v1/risk/identity?limit=500",
	"/v1/risk/identity/history?vessel={imo}",
	"/v1/risk/mismatches?port=santos&limit=500",
	"/v1/risk/hotspots?active=false",
	"/v1/risk/baselines",
}

// offlineSources turn off the external sources `overwatch jobs --once`
// would otherwise fetch: the runs measure the derivations alone.
var offlineSources = []string{"OVERWATCH_FRED_URL=off", "OVERWATCH_WORLDBANK_URL=off", "OVERWATCH_AGTRANSPORT_URL=off",
	"OVERWATCH_RIVER_URL=off", "OVERWATCH_GDELT_URL=off", "OVERWATCH_SAR_URL=off"}

// riskiestVessel is the IMO of the vessel the risk score ranks first (the
// {imo} of the endpoints above), asked of the server.
func riskiestVessel(ctx context.Context, base, key string) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/risk/vessels?limit=1", nil)
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var body struct {
		Vessels []struct {
			IMO string `json:"imo"`
		} `json:"vessels"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || len(body.Vessels) == 0 {
		return "", fmt.Errorf("/v1/risk/vessels: %d, no vessel (%v)", resp.StatusCode, err)
	}
	return body.Vessels[0].IMO, nil
}

// runDerive measures the derivations and the analytics endpoints on the
// database `loadtest sim` filled (30 days of the default fleet): every
// derivation once from scratch (`overwatch jobs --once` on a database
// whose derived tables are emptied first), then again (the incremental
// run: the trailing windows), then each endpoint under wrk with a Pro key.
func runDerive(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadtest derive", flag.ContinueOnError)
	bin := fs.String("bin", "bin/overwatch", "the overwatch binary")
	chServer := fs.String("clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	pgServer := fs.String("postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	database := fs.String("database", "overwatch_bench_sim", "the database `loadtest sim` filled")
	addr := fs.String("addr", "127.0.0.1:18090", "address for the server under test")
	requests := fs.Int("requests", 2000, "requests per endpoint (under the Pro daily quota of 10,000)")
	maxFull := fs.Duration("max-full", 60*time.Second, "target: all derivations from scratch")
	maxIncr := fs.Duration("max-incremental", 5*time.Second, "target: an incremental run of the port analytics")
	maxRisk := fs.Duration("max-risk", 60*time.Second, "target: the risk jobs from scratch")
	maxP99 := fs.Duration("max-p99", 50*time.Millisecond, "target: p99 of each endpoint")
	sanctions := fs.String("sanctions", "../shared/data/sanctions", "directory of the OFAC legacy SDN files to import first (empty: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	env := append(append(os.Environ(), offlineSources...), "CLICKHOUSE_URL="+*chServer+"/"+*database,
		"DATABASE_URL="+*pgServer+"/"+*database+"?sslmode=disable", "OVERWATCH_LOG_LEVEL=warn")
	command := func(args ...string) (string, time.Duration, error) {
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Env = env
		var b, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &e
		start := time.Now()
		err := cmd.Run()
		if err != nil {
			return b.String(), 0, fmt.Errorf("overwatch %s: %v\n%s%s", strings.Join(args, " "), err, b.String(), e.String())
		}
		return b.String(), time.Since(start), nil
	}
	// From scratch: forget the derived tables and the jobs' watermarks.
	if _, _, err := command("migrate"); err != nil {
		return err
	}
	if *sanctions != "" {
		if _, _, err := command("import", "sanctions", filepath.Join(*sanctions, "sanctions_ofac_sdn_2021-07_full.csv"),
			filepath.Join(*sanctions, "sanctions_ofac_alt_2021-07_full.csv"), filepath.Join(*sanctions, "sanctions_ofac_sdn_comments_2021-07.csv")); err != nil {
			return err
		}
	}
	if err := resetDerived(ctx, *chServer, *pgServer, *database); err != nil {
		return err
	}
	full, fullTook, err := command("jobs", "--once")
	if err != nil {
		return err
	}
	incr, incrTook, err := command("jobs", "--once")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "derivations over %s (loadtest sim's 30 days of 800 vessels):\n  from scratch: %s (target < %s)\n%s  incremental:  %s (target < %s)\n%s",
		*database, fullTook.Round(time.Millisecond), *maxFull, indent(full), incrTook.Round(time.Millisecond), *maxIncr, indent(incr))
	srv, err := startServe(ctx, path, append(env, "OVERWATCH_ADDR="+*addr, "OVERWATCH_KEYED_LIMIT_PER_MINUTE=1000000000"), *addr)
	if err != nil {
		return err
	}
	defer srv.stop()
	// The 5 s incremental target is that of the port analytics;
	// the emissions job runs hourly and the risk jobs have their own
	// target: every detector, the score and the baselines from scratch
	// under -max-risk.
	fullMS, incrMS := jobTimes(full), jobTimes(incr)
	var portIncr, risk time.Duration
	for _, j := range []string{"port_calls", "congestion", "berth_utilization", "fleet_age", "export_estimates", "destination_reliability"} {
		portIncr += incrMS[j]
	}
	for _, j := range []string{"risk_events", "risk_scores", "risk_baselines"} {
		risk += fullMS[j]
	}
	fmt.Fprintf(out, "  port analytics, incremental: %s (target < %s)\n  risk detectors, score and baselines, from scratch: %s (target < %s)\n",
		portIncr, *maxIncr, risk, *maxRisk)
	failed := fullTook >= *maxFull || portIncr >= *maxIncr || risk >= *maxRisk
	fmt.Fprintf(out, "analytics endpoints, %d requests each from 8 concurrent clients, a Pro key each, on loopback:\n", *requests)
	imo := ""
	for _, ep := range analyticsEndpoints {
		// A key of its own per endpoint: the account's daily quota holds.
		key, _, err := command("keys", "create", "--email", fmt.Sprintf("bench-%d@example.com", time.Now().UnixNano()), "--plan", "pro")
		if err != nil {
			return err
		}
		if strings.Contains(ep, "{imo}") {
			if imo == "" {
				if imo, err = riskiestVessel(ctx, "http://"+*addr, strings.TrimSpace(key)); err != nil {
					return err
				}
			}
			ep = strings.ReplaceAll(ep, "{imo}", imo)
		}
		res, err := hammer(ctx, "http://"+*addr+ep, strings.TrimSpace(key), *requests, 8)
		if err != nil {
			return err
		}
		mark := ""
		if res.p99 >= *maxP99 || res.non2xx > 0 {
			mark, failed = "  MISSED", true
		}
		fmt.Fprintf(out, "  %-58s %7.0f req/s  p50 %-9s p99 %-9s %d errors%s\n", ep, res.rps, res.p50, res.p99, res.non2xx, mark)
	}
	if failed {
		return fmt.Errorf("targets missed")
	}
	fmt.Fprintln(out, "  targets met")
	return nil
}

// jobLine is a line of `overwatch jobs --once`'s summary.
var jobLine = regexp.MustCompile(`(?m)^\s*(\S+)\s+\d+ rows .* in (\d+) ms$`)

// jobTimes reads each job's duration from the summary.
func jobTimes(summary string) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, m := range jobLine.FindAllStringSubmatch(summary, -1) {
		ms, _ := strconv.Atoi(m[2])
		out[m[1]] = time.Duration(ms) * time.Millisecond
	}
	return out
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// hammer sends n GET requests with the key from c concurrent clients and
// measures each one's latency (the whole body read).
func hammer(ctx context.Context, url, key string, n, c int) (result, error) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: c}}
	lat := make([]time.Duration, n)
	var next, bad atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < c; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || ctx.Err() != nil {
					return
				}
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				req.Header.Set("X-API-Key", key)
				t := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					bad.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[i] = time.Since(t)
				if resp.StatusCode != http.StatusOK {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(n-1, int(p*float64(n)))] }
	return result{rps: float64(n) / took.Seconds(), p50: q(0.5), p90: q(0.9), p99: q(0.99), total: n, non2xx: int(bad.Load())}, ctx.Err()
}

// resetDerived empties the derived tables and the jobs' state, so the next
// run derives everything from scratch.
func resetDerived(ctx context.Context, chServer, pgServer, database string) error {
	ch, err := clickhouse.Open(chServer + "/" + database)
	if err != nil {
		return err
	}
	defer ch.Close()
	for _, t := range []string{"derivation_days", "port_calls", "congestion_daily", "berth_weekly", "fleet_age_weekly", "estimates_weekly", "destination_reliability",
		"risk_events", "vessel_risk", "risk_hotspots", "risk_baselines", "voyage_emissions"} {
		if err := ch.Exec(ctx, "TRUNCATE TABLE "+t); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, "psql", "-q", pgServer+"/"+database+"?sslmode=disable", "-c", "DELETE FROM job_state; DELETE FROM job_claims")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("psql: %v: %s", err, out)
	}
	return nil
}

// startServe starts `overwatch serve` with env and waits until it answers.
func startServe(ctx context.Context, bin string, env []string, addr string) (*server, error) {
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Env = append(env, "OVERWATCH_METRICS_ADDR=127.0.0.1:0") // not the default's port, which a `make run` may hold
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, stop: func() {
		_ = cmd.Process.Signal(syscall.SIGTERM) // only the process we started
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
		}
	}}
	deadline := time.Now().Add(120 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/v1/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("server did not answer within 120 s (last: %v)", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
