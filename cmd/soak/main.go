package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
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
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

// options are the flags; the environment gives the defaults of some.
type options struct {
	bin      string
	duration time.Duration
	interval time.Duration
	rate     int
	keyed    int
	out      string
	plot     string
	warmup   time.Duration
	chURL    string
	pgURL    string
	vessels  int
	days     int
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.StringVar(&o.bin, "bin", "bin/overwatch", "the overwatch binary")
	fs.DurationVar(&o.duration, "duration", envDuration("SOAK_DURATION", 2*time.Hour), "how long the soak runs (SOAK_DURATION)")
	fs.DurationVar(&o.interval, "interval", envDuration("SOAK_INTERVAL", 10*time.Second), "the sampling interval (SOAK_INTERVAL)")
	fs.IntVar(&o.rate, "rate", 20, "public lookups per second")
	fs.IntVar(&o.keyed, "keyed-rate", 1, "keyed reads per second (a track, an area, a search in turn, one Pro key)")
	fs.StringVar(&o.out, "out", "docs/soak", "where soak.csv and soak.svg are written")
	fs.StringVar(&o.plot, "plot", "", "only render the SVG of this CSV (next to it), print its summary and exit")
	fs.DurationVar(&o.warmup, "warmup", 0, "the slopes of RSS and goroutines are taken after this much of the run (0: its first tenth)")
	fs.StringVar(&o.chURL, "clickhouse", envOr("SOAK_CLICKHOUSE_URL", "clickhouse://127.0.0.1:9000/overwatch_soak"), "ClickHouse URL; its database is dropped first (SOAK_CLICKHOUSE_URL)")
	fs.StringVar(&o.pgURL, "postgres", envOr("SOAK_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/overwatch_soak?sslmode=disable"), "PostgreSQL URL (SOAK_DATABASE_URL)")
	fs.IntVar(&o.vessels, "vessels", 200, "the demo fleet's size")
	fs.IntVar(&o.days, "days", 30, "days of history the demo backfills first")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.duration <= 0 || o.interval <= 0 || o.rate <= 0 || o.keyed <= 0 {
		return o, errors.New("duration, interval, rate and keyed-rate must be positive")
	}
	return o, nil
}

func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil && d > 0 {
		return d
	}
	return def
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func run(args []string, stdout io.Writer) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	if o.plot != "" {
		if err := renderFile(o.plot); err != nil {
			return err
		}
		samples, err := readCSV(o.plot)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, summarize(samples, o.warmup))
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := dropDatabase(ctx, o.chURL); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "overwatch-soak-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	api, err := freeAddr()
	if err != nil {
		return err
	}
	metrics, err := freeAddr()
	if err != nil {
		return err
	}
	cmd := exec.Command(o.bin, "run")
	cmd.Env = append(os.Environ(),
		"OVERWATCH_ADDR="+api, "OVERWATCH_METRICS_ADDR="+metrics,
		"CLICKHOUSE_URL="+o.chURL, "DATABASE_URL="+o.pgURL,
		"OVERWATCH_SIMULATE=true", "OVERWATCH_DATA_DIR="+work,
		"OVERWATCH_DEMO_DAYS="+strconv.Itoa(o.days), "OVERWATCH_DEMO_VESSELS="+strconv.Itoa(o.vessels),
		"OVERWATCH_SPOOL_DIR="+filepath.Join(work, "spool"),
		"OVERWATCH_TRUSTED_PROXIES=127.0.0.1/32", "OVERWATCH_LOG_LEVEL=warn", "OVERWATCH_PPROF=true",
		"OVERWATCH_FRED_URL=off", "OVERWATCH_WORLDBANK_URL=off", "OVERWATCH_AGTRANSPORT_URL=off",
		"OVERWATCH_RIVER_URL=off", "OVERWATCH_GDELT_URL=off", "OVERWATCH_SAR_URL=off")
	logf, err := os.Create(filepath.Join(work, "overwatch.log"))
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill() //nolint:errcheck
		}
	}()
	fmt.Fprintf(stdout, "soak: overwatch run (pid %d) on %s, demo fleet of %d vessels; %v, sampled every %v, %d lookups/s\n",
		cmd.Process.Pid, api, o.vessels, o.duration, o.interval, o.rate)

	imos, err := waitForVessels(ctx, o.chURL, exited)
	if err != nil {
		return fmt.Errorf("%w\n%s", err, tail(filepath.Join(work, "overwatch.log"), 20))
	}
	fmt.Fprintf(stdout, "soak: %d vessels stored; sampling\n", len(imos))

	csvPath := filepath.Join(o.out, "soak.csv")
	rec, err := newRecorder(csvPath)
	if err != nil {
		return err
	}
	key, err := proKey(ctx, o.bin, cmd.Env)
	if err != nil {
		return err
	}
	load, keyed := publicLookups("http://"+api, imos), keyedReads("http://"+api, key, imos)
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	go load.run(loadCtx, o.rate)
	go keyed.run(loadCtx, o.keyed)

	start := time.Now()
	tick := time.NewTicker(o.interval)
	defer tick.Stop()
	for time.Since(start) < o.duration {
		select {
		case <-ctx.Done():
			fmt.Fprintln(stdout, "soak: interrupted; keeping what was sampled")
			saveGoroutines("http://"+metrics, filepath.Join(o.out, "goroutines-end.txt"), stdout)
			return finish(rec, csvPath, o.warmup, stdout)
		case err := <-exited:
			rec.close()
			return fmt.Errorf("overwatch run exited: %v\n%s", err, tail(filepath.Join(work, "overwatch.log"), 20))
		case <-tick.C:
		}
		s := sample{Elapsed: time.Since(start)}
		s.RSSMB = rssMB(cmd.Process.Pid)
		s.HeapMB = scrape("http://"+metrics, "go_memstats_heap_inuse_bytes") / (1 << 20)
		s.Goroutines = scrape("http://"+metrics, "go_goroutines")
		s.Lookups, s.Errors, s.P50ms, s.P99ms = load.take()
		s.Keyed, s.KeyedErrors, _, s.KeyedP99ms = keyed.take()
		if err := rec.add(s); err != nil {
			return err
		}
		if rec.rows == 1 { // what runs at the start, beside what runs at the end
			saveGoroutines("http://"+metrics, filepath.Join(o.out, "goroutines-start.txt"), stdout)
		}
		fmt.Fprintf(stdout, "%s  rss %.0f MB  heap %.0f MB  goroutines %.0f  lookups %d (errors %d)  p50 %.2f ms  p99 %.2f ms  keyed %d (errors %d) p99 %.2f ms\n",
			s.Elapsed.Round(time.Second), s.RSSMB, s.HeapMB, s.Goroutines, s.Lookups, s.Errors, s.P50ms, s.P99ms, s.Keyed, s.KeyedErrors, s.KeyedP99ms)
	}
	saveGoroutines("http://"+metrics, filepath.Join(o.out, "goroutines-end.txt"), stdout)
	return finish(rec, csvPath, o.warmup, stdout)
}

// saveGoroutines writes the service's goroutines, grouped by stack
// (/debug/pprof/goroutine?debug=1), to path; a failure is printed, not
// fatal.
func saveGoroutines(base, path string, stdout io.Writer) {
	resp, err := http.Get(base + "/debug/pprof/goroutine?debug=1")
	if err == nil {
		defer resp.Body.Close()
		var f *os.File
		if f, err = os.Create(path); err == nil {
			_, err = io.Copy(f, resp.Body)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		fmt.Fprintf(stdout, "soak: goroutines not saved: %v\n", err)
	}
}

// proKey creates a Pro key in the run's accounts database.
func proKey(ctx context.Context, bin string, env []string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, "keys", "create", "--email", fmt.Sprintf("soak-%d@example.com", time.Now().UnixNano()), "--plan", "pro")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("keys create: %w", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.TrimSpace(line); strings.HasPrefix(f, "ow_") {
			return f, nil
		}
	}
	return "", fmt.Errorf("keys create printed no key: %s", out)
}

// finish closes the CSV, renders the plot and prints the summary.
func finish(rec *recorder, csvPath string, warmup time.Duration, stdout io.Writer) error {
	if err := rec.close(); err != nil {
		return err
	}
	if err := renderFile(csvPath); err != nil {
		return err
	}
	samples, err := readCSV(csvPath)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, summarize(samples, warmup))
	fmt.Fprintf(stdout, "soak: wrote %s and %s\n", csvPath, strings.TrimSuffix(csvPath, ".csv")+".svg")
	return nil
}

var databaseName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// dropDatabase drops the URL's database, so that every soak starts from
// the demo's backfill.
func dropDatabase(ctx context.Context, raw string) error {
	u, err := neturl.Parse(raw)
	if err != nil {
		return err
	}
	name := strings.TrimPrefix(u.Path, "/")
	if !databaseName.MatchString(name) || name == "default" || name == "system" {
		return fmt.Errorf("refusing to drop the database %q of %s", name, raw)
	}
	u.Path = "/default"
	db, err := clickhouse.Open(u.String())
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Exec(ctx, "DROP DATABASE IF EXISTS "+name)
}

// waitForVessels waits until the demo has stored latest positions and
// returns their IMOs.
func waitForVessels(ctx context.Context, chURL string, exited <-chan error) ([]overwatch.IMO, error) {
	db, err := clickhouse.Open(chURL)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		var imos []overwatch.IMO
		_, err := db.LatestChanges(ctx, time.Time{}, func(r overwatch.LatestRow) error {
			if r.IMO != 0 && r.Lat != nil && len(imos) < 200 {
				imos = append(imos, r.IMO)
			}
			return nil
		})
		if err == nil && len(imos) >= 10 {
			return imos, nil
		}
		select {
		case e := <-exited:
			return nil, fmt.Errorf("overwatch run exited: %v", e)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no latest positions after 10 minutes (last error: %v)", err)
		}
	}
}

// rssMB is the process's resident set from /proc (0 where unreadable).
func rssMB(pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// scrape reads one unlabelled series of /metrics (0 when absent).
func scrape(base, name string) float64 {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			v, _ := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return v
		}
	}
	return 0
}

// freeAddr is a loopback address nothing listens on now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
