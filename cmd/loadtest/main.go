// Command loadtest runs the service's load benchmarks against the real
// binary and the local servers, and exits non-zero when a target is missed:
//
//	loadtest lookup   the public latest-position lookup under wrk: it fills a
//	                  benchmark database with N vessels × 4 sources, starts
//	                  bin/overwatch serve with rate limiting raised, drives it
//	                  on loopback with random IMOs and providers, and reports
//	                  requests per second, latency percentiles and resident
//	                  memory (-min-rps, -max-p99); with -anchor-rounds N,
//	                  first N rounds of a Fiber hello world on the same
//	                  path (`loadtest hello`, its own process) and the
//	                  lookup in turn, and their ratios (goal: >= 90% of
//	                  the anchor's rate, p99 <= 1.2 x its p99)
//	loadtest ingest   a replay of N million AIS messages (the AISHub sample,
//	                  time-shifted copies) through bin/overwatch replay into a
//	                  fresh database: messages per second and peak resident
//	                  memory (-min-mps, -max-rss-mb)
//	loadtest sim      the fleet simulator's backfill (-days 30 of 800
//	                  vessels) into a fresh database through the pipeline
//	                  (-max-time 3m)
//	loadtest derive   on the database loadtest sim filled: every derivation
//	                  from scratch and then incrementally (`overwatch jobs
//	                  --once`, -max-full 60s, -max-incremental 5s), then each
//	                  analytics endpoint's latency (-max-p99 50ms)
//	loadtest trade    the trade analytics on a simulated store
//	                  (-days 730 of -vessels 800 with seasons and trade
//	                  truths, filled once): every trade derivation from
//	                  scratch (-max-full 60s) and a daily incremental run
//	                  (-max-incremental 5s), then each trade endpoint's
//	                  latency (-max-p99 20ms)
//	loadtest history  a -rows 1,000,000-row MarineCadastre file made from
//	                  the real samples through `overwatch import history`
//	                  into a fresh database, and the same rows inserted as
//	                  TSV with clickhouse-client: the import's rows per
//	                  second over the client's (-min-ratio 0.25) and its
//	                  peak memory (-max-rss-mb 300)
//	loadtest market   the market imports' peak memory on synthetic FRED and
//	                  AgTransport files of -rows and 8 times as many (flat:
//	                  -max-growth-mb 40), then, on the bundled real samples,
//	                  each market endpoint's latency (-max-p99 20ms)
//	loadtest fleet    a world fleet (-vessels 1,000 simulated over -days 12
//	                  and copied -copies 20 times, filled once): the predictions refresh as the scheduler runs
//	                  it (-max-refresh 30s), then the prediction of a vessel
//	                  (-max-prediction-p99 20ms) and the area presence over
//	                  a day (-max-area-p99 300ms)
//	loadtest emissions  -voyages 10000 synthetic voyages in voyage_emissions:
//	                  /v1/emissions pages at random cursors (-max-p99
//	                  100ms), the report as JSON (-max-json 1s) and PDF
//	                  (-max-pdf 5s), the server's peak memory (-max-rss-mb 200)
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"overwatch"
	"overwatch/clickhouse"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

type options struct {
	bin         string
	chServer    string
	pgServer    string
	database    string
	vessels     int
	duration    time.Duration
	threads     int
	connections int
	addr        string
	minRPS      float64
	maxP99      time.Duration
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) > 0 && args[0] == "ingest" {
		return runIngest(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "sim" {
		return runSim(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "derive" {
		return runDerive(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "trade" {
		return runTrade(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "history" {
		return runHistory(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "market" {
		return runMarket(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "fleet" {
		return runFleet(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "world" {
		return runWorld(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "exports" {
		return runExports(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "emissions" {
		return runEmissions(ctx, args[1:], out)
	}
	if len(args) > 0 && args[0] == "hello" {
		return runHello(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "lookup" {
		args = args[1:]
	}
	var o options
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.StringVar(&o.bin, "bin", "bin/overwatch", "the overwatch binary")
	fs.StringVar(&o.chServer, "clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	fs.StringVar(&o.pgServer, "postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	fs.StringVar(&o.database, "database", "overwatch_bench_lookup", "database to fill and serve (in both stores)")
	fs.IntVar(&o.vessels, "vessels", 100000, "vessels in the latest-position store (each with 4 sources)")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "load duration")
	fs.IntVar(&o.threads, "threads", 2, "wrk threads")
	fs.IntVar(&o.connections, "connections", 64, "wrk connections")
	fs.StringVar(&o.addr, "addr", "127.0.0.1:18089", "address for the server under test")
	fs.Float64Var(&o.minRPS, "min-rps", 5000, "target: at least this many requests per second")
	fs.DurationVar(&o.maxP99, "max-p99", 20*time.Millisecond, "target: p99 latency below this")
	rounds := fs.Int("anchor-rounds", 0, "rounds of the anchor (a Fiber hello world on the same path) and the lookup in turn; 0: the lookup alone")
	helloAddr := fs.String("anchor-addr", "127.0.0.1:18090", "address for the anchor")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := exec.LookPath("wrk"); err != nil {
		return errors.New("wrk is not installed (apt-get install wrk; `make bench` does it)")
	}
	if err := seed(ctx, o, out); err != nil {
		return err
	}
	srv, err := startServer(ctx, o)
	if err != nil {
		return err
	}
	defer srv.stop()
	if *rounds > 0 {
		if _, err := compareWithAnchor(ctx, o, srv, *rounds, *helloAddr, out); err != nil {
			return err
		}
	}
	res, err := loadWith(ctx, o)
	if err != nil {
		return err
	}
	rss := residentMB(srv.cmd.Process.Pid)
	fmt.Fprintf(out, "public lookup, %d vessels x 4 sources, wrk -t%d -c%d -d%s on loopback:\n", o.vessels, o.threads, o.connections, o.duration)
	fmt.Fprintf(out, "  requests/s  %.0f (target >= %.0f)\n", res.rps, o.minRPS)
	fmt.Fprintf(out, "  latency     p50 %s  p90 %s  p99 %s (target < %s)\n", res.p50, res.p90, res.p99, o.maxP99)
	fmt.Fprintf(out, "  responses   %d total, %d non-2xx/3xx (404s for random IMOs are expected: none here)\n", res.total, res.non2xx)
	fmt.Fprintf(out, "  server RSS  %.0f MB\n", rss)
	if res.rps < o.minRPS || res.p99 >= o.maxP99 || res.non2xx > 0 {
		return fmt.Errorf("targets missed: %.0f req/s, p99 %s, %d errors", res.rps, res.p99, res.non2xx)
	}
	fmt.Fprintln(out, "  targets met")
	return nil
}

// seed fills the latest-position store with vessels benchIMO(0).. with
// four sources each, unless it already holds exactly that.
func seed(ctx context.Context, o options, out io.Writer) error {
	db, err := clickhouse.Open(o.chServer + "/" + o.database)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return err
	}
	counts, err := db.HealthCounts(ctx, now())
	if err != nil {
		return err
	}
	if counts.Vessels == uint64(o.vessels) {
		return nil
	}
	if counts.Vessels != 0 {
		return fmt.Errorf("database %s holds %d vessels, not %d: drop it or pick another -database", o.database, counts.Vessels, o.vessels)
	}
	fmt.Fprintf(out, "seeding %d vessels x 4 sources into %s ...\n", o.vessels, o.database)
	now := now().UTC().Truncate(time.Second)
	const batch = 50000
	rows := make([]overwatch.LatestRow, 0, batch)
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	for i := 0; i < o.vessels; i++ {
		for j, src := range overwatch.Sources {
			rows = append(rows, overwatch.LatestRow{
				IMO: benchIMO(i), Source: src, TS: now.Add(-time.Duration(i%3600+j*60) * time.Second),
				MMSI: uint32(200000000 + i), VesselName: str(fmt.Sprintf("BENCH VESSEL %d", i)), VesselType: str("Bulk Carrier"),
				Flag: str("PA"), Lat: num(float64(i%180) - 89.5), Lon: num(float64(i%360) - 179.5), SpeedKt: num(12.3),
				CourseDeg: num(181.5), DraftM: num(11.2), Destination: str("CNQDG"), NavStatus: str("Under way using engine"),
			})
			if len(rows) == batch {
				if err := db.InsertLatest(ctx, rows); err != nil {
					return err
				}
				rows = rows[:0]
			}
		}
	}
	return db.InsertLatest(ctx, rows)
}

type server struct {
	cmd  *exec.Cmd
	stop func()
}

// startServer starts the binary with rate limits raised far above the load
// and waits until the replica serves the seeded data.
func startServer(ctx context.Context, o options) (*server, error) {
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Env = append(os.Environ(),
		"OVERWATCH_ADDR="+o.addr,
		"OVERWATCH_METRICS_ADDR=127.0.0.1:0", // not the default's port, which a `make run` may hold
		"CLICKHOUSE_URL="+o.chServer+"/"+o.database,
		"DATABASE_URL="+o.pgServer+"/"+o.database+"?sslmode=disable",
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE=1000000000",
		"OVERWATCH_PUBLIC_LIMIT_PER_DAY=1000000000",
		"OVERWATCH_LOG_LEVEL=warn",
	)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, stop: func() {
		// End only the process we started, by its PID.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
		}
	}}
	url := fmt.Sprintf("http://%s/v1/ais/aishub/%s/location/latest", o.addr, benchIMO(o.vessels-1))
	deadline := time.Now().Add(120 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("server did not serve the seeded data within 120 s (last: %v)", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

const wrkScript = `
math.randomseed(os.time())
local providers = {"aishub", "aisstream", "satellite", "spire", "any"}
local vessels = %d
-- benchIMO: the IMO number (with its check digit) of vessel i
local function imo(i)
  local first6, sum, n = 100000 + i, 0, 100000 + i
  for w = 2, 7 do
    sum = sum + (n %% 10) * w
    n = math.floor(n / 10)
  end
  return first6 * 10 + sum %% 10
end
request = function()
  return wrk.format("GET", "/v1/ais/" .. providers[math.random(1, 5)] .. "/" .. string.format("%%07d", imo(math.random(0, vessels - 1))) .. "/location/latest")
end
`

// benchIMO is the IMO number of the i-th seeded vessel: 100000+i and its
// check digit (the public lookup answers 404 at once for a number whose
// check digit fails, which would measure nothing).
func benchIMO(i int) overwatch.IMO {
	first6 := uint32(100000 + i)
	return overwatch.IMO(first6*10 + overwatch.IMOCheckDigit(first6))
}

type result struct {
	rps           float64
	p50, p90, p99 time.Duration
	total, non2xx int
}

func loadWith(ctx context.Context, o options) (result, error) {
	script, err := os.CreateTemp("", "overwatch-wrk-*.lua")
	if err != nil {
		return result{}, err
	}
	defer os.Remove(script.Name())
	fmt.Fprintf(script, wrkScript, o.vessels)
	script.Close()
	cmd := exec.CommandContext(ctx, "wrk", "-t", strconv.Itoa(o.threads), "-c", strconv.Itoa(o.connections),
		"-d", o.duration.String(), "--latency", "-s", script.Name(), "http://"+o.addr)
	outb, err := cmd.CombinedOutput()
	if err != nil {
		return result{}, fmt.Errorf("wrk: %v\n%s", err, outb)
	}
	return parseWrk(string(outb))
}

var (
	rpsRE    = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	pctRE    = regexp.MustCompile(`(?m)^\s+(50|90|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	totalRE  = regexp.MustCompile(`(\d+) requests in`)
	non2xxRE = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
)

func parseWrk(s string) (result, error) {
	var r result
	m := rpsRE.FindStringSubmatch(s)
	if m == nil {
		return r, fmt.Errorf("cannot read wrk output:\n%s", s)
	}
	r.rps, _ = strconv.ParseFloat(m[1], 64)
	for _, p := range pctRE.FindAllStringSubmatch(s, -1) {
		v, _ := strconv.ParseFloat(p[2], 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[p[3]]
		d := time.Duration(v * float64(unit))
		switch p[1] {
		case "50":
			r.p50 = d
		case "90":
			r.p90 = d
		case "99":
			r.p99 = d
		}
	}
	if m := totalRE.FindStringSubmatch(s); m != nil {
		r.total, _ = strconv.Atoi(m[1])
	}
	if m := non2xxRE.FindStringSubmatch(s); m != nil {
		r.non2xx, _ = strconv.Atoi(m[1])
	}
	if r.p99 == 0 {
		return r, fmt.Errorf("no latency distribution in wrk output:\n%s", s)
	}
	return r, nil
}

// residentMB reads VmRSS of a process from /proc.
func residentMB(pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}
