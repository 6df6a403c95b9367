package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"overwatch/clickhouse"
)

// worldOptions are the settings of the world-fleet benchmark.
type worldOptions struct {
	bin, chServer, pgServer, database string
	vessels                           int
	span, warmup                      time.Duration
	minSpeedup, maxBytes, maxRSSMB    float64
}

// runWorld measures the world fleet in accelerated time: `overwatch
// simulate` of -vessels at the class A cadence by speed (static reports
// every 6 min) over -span ending now, through the real ingest path (NMEA
// lines decoded per provider, the pipeline, the writer, ClickHouse), while
// `overwatch jobs` runs the scheduled jobs on the same stores. It reports
// simulated seconds per wall second, messages/s, the simulator's peak RSS,
// the bytes per stored position, and each job's achieved interval.
func runWorld(ctx context.Context, args []string, out io.Writer) error {
	var o worldOptions
	fs := flag.NewFlagSet("loadtest world", flag.ContinueOnError)
	fs.StringVar(&o.bin, "bin", "bin/overwatch", "the overwatch binary")
	fs.StringVar(&o.chServer, "clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	fs.StringVar(&o.pgServer, "postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	fs.StringVar(&o.database, "database", "overwatch_bench_world", "database of both stores (dropped first)")
	fs.IntVar(&o.vessels, "vessels", 20000, "fleet size")
	fs.DurationVar(&o.span, "span", 24*time.Hour, "simulated time, ending now")
	fs.DurationVar(&o.warmup, "warmup", 30*24*time.Hour, "time the simulator plans before the span, nothing emitted: shorter, the fleet has not left its first ports (6h: almost nothing is sent)")
	fs.Float64Var(&o.minSpeedup, "min-speedup", 5, "target: simulated seconds per wall second")
	fs.Float64Var(&o.maxBytes, "max-bytes", 35, "target: compressed bytes per stored position")
	fs.Float64Var(&o.maxRSSMB, "max-rss-mb", 0, "target: the simulator's peak RSS below this (0: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := dropDatabase(ctx, o.chServer, o.pgServer, o.database); err != nil {
		return err
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "overwatch-bench-world-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env := append(os.Environ(), "CLICKHOUSE_URL="+o.chServer+"/"+o.database,
		"DATABASE_URL="+o.pgServer+"/"+o.database+"?sslmode=disable", "OVERWATCH_SPOOL_DIR="+filepath.Join(dir, "spool"),
		"OVERWATCH_METRICS_ADDR=127.0.0.1:0")
	migrate := exec.CommandContext(ctx, bin, "migrate")
	migrate.Env = append(env, "OVERWATCH_LOG_LEVEL=warn")
	if msg, err := migrate.CombinedOutput(); err != nil {
		return fmt.Errorf("migrate: %v\n%s", err, msg)
	}

	// The scheduler, in its own process as deployed, logging every run.
	jobsLog := filepath.Join(dir, "jobs.log")
	logFile, err := os.Create(jobsLog)
	if err != nil {
		return err
	}
	defer logFile.Close()
	jobs := exec.Command(bin, "jobs")
	jobs.Env = append(env, "OVERWATCH_LOG_LEVEL=debug")
	jobs.Stdout, jobs.Stderr = logFile, logFile
	if err := jobs.Start(); err != nil {
		return err
	}
	stopJobs := func() {
		jobs.Process.Signal(syscall.SIGINT) //nolint:errcheck
		done := make(chan struct{})
		go func() { jobs.Wait(); close(done) }() //nolint:errcheck
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			jobs.Process.Kill() //nolint:errcheck
			<-done
		}
	}
	defer func() {
		if jobs.ProcessState == nil {
			stopJobs()
		}
	}()

	fmt.Fprintf(out, "world fleet: %d vessels over %s of simulated time (after %s planned) into %s, load average %s\n", o.vessels, o.span, o.warmup, o.database, loadAverage())
	sim := exec.CommandContext(ctx, bin, "simulate", "--vessels", strconv.Itoa(o.vessels), "--span", o.span.String(),
		"--warmup", o.warmup.String(), "--downsample", "1", "--speed-cadence", "--truth", filepath.Join(dir, "truth.jsonl"))
	sim.Env = append(env, "OVERWATCH_LOG_LEVEL=warn")
	began := time.Now()
	summary, err := sim.CombinedOutput()
	wall := time.Since(began)
	if err != nil {
		return fmt.Errorf("simulate: %v\n%s", err, summary)
	}
	loadAfter := loadAverage()
	stopJobs()
	m := worldSummaryRE.FindStringSubmatch(string(summary))
	if m == nil {
		return fmt.Errorf("cannot read the simulator's summary:\n%s", summary)
	}
	messages, _ := strconv.ParseFloat(m[1], 64)
	lines, _ := strconv.ParseFloat(m[2], 64)
	rss, _ := strconv.ParseFloat(m[3], 64)

	db, err := clickhouse.Open(o.chServer + "/" + o.database)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Exec(ctx, "OPTIMIZE TABLE positions FINAL"); err != nil {
		return err
	}
	positions, err := db.Count(ctx, "SELECT sum(rows) FROM system.parts WHERE active AND database = ? AND table = 'positions'", o.database)
	if err != nil {
		return err
	}
	compressed, err := db.Count(ctx, "SELECT sum(data_compressed_bytes) FROM system.parts WHERE active AND database = ? AND table = 'positions'", o.database)
	if err != nil {
		return err
	}
	speedup := o.span.Seconds() / wall.Seconds()
	bytesPer := float64(compressed) / float64(max(positions, 1))
	fmt.Fprintf(out, "  %s", lastLines(string(summary), 1))
	fmt.Fprintf(out, "  wall time        %s (load average after: %s)\n", wall.Round(time.Millisecond), loadAfter)
	fmt.Fprintf(out, "  speed-up         %.2f simulated seconds per wall second (target >= %.1f)\n", speedup, o.minSpeedup)
	fmt.Fprintf(out, "  messages/s       %.0f simulated messages per wall second, %.0f lines to the providers' decoders; in simulated time %.0f messages/s\n",
		messages/wall.Seconds(), lines/wall.Seconds(), messages/o.span.Seconds())
	fmt.Fprintf(out, "  peak RSS         %.0f MB (the simulator and the ingest pipeline, one process)\n", rss)
	fmt.Fprintf(out, "  positions        %d rows, %.1f compressed bytes each after OPTIMIZE FINAL (target <= %.1f)\n", positions, bytesPer, o.maxBytes)
	if err := reportJobs(jobsLog, out); err != nil {
		return err
	}
	var missed []string
	if speedup < o.minSpeedup {
		missed = append(missed, fmt.Sprintf("speed-up %.2f", speedup))
	}
	if bytesPer > o.maxBytes {
		missed = append(missed, fmt.Sprintf("%.1f bytes per position", bytesPer))
	}
	if o.maxRSSMB > 0 && rss >= o.maxRSSMB {
		missed = append(missed, fmt.Sprintf("peak RSS %.0f MB", rss))
	}
	if len(missed) > 0 {
		return fmt.Errorf("targets missed: %s", strings.Join(missed, ", "))
	}
	fmt.Fprintln(out, "  targets met")
	return nil
}

var worldSummaryRE = regexp.MustCompile(`: (\d+) messages \((\d+) lines to providers\), \d+ reports written, in \S+ \([0-9.]+ messages/min, peak RSS ([0-9.]+) MB\)`)

// jobRunRE reads a run of the scheduler's log (text handler): when it
// ended, the job, and how long it took.
var (
	jobRunRE   = regexp.MustCompile(`time=(\S+) level=\S+ msg="job (?:done|failed)" job=(\S+) took=(\S+)`)
	jobSetRE   = regexp.MustCompile(`msg="job scheduled" job=(\S+) every=(\S+) off=(.*)$`)
	jobFailRE  = regexp.MustCompile(`msg="job failed" job=(\S+)`)
	jobLogTime = "2006-01-02T15:04:05.999999999Z07:00"
)

// jobRuns are one job's runs seen in the scheduler's log.
type jobRuns struct {
	every          time.Duration
	off            string
	starts         []time.Time
	longest        time.Duration
	runs, failures int
}

// reportJobs prints, per job, its interval, its runs and their achieved
// interval (between starts), and its longest run.
func reportJobs(path string, out io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	byJob := map[string]*jobRuns{}
	get := func(name string) *jobRuns {
		if byJob[name] == nil {
			byJob[name] = &jobRuns{}
		}
		return byJob[name]
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := jobSetRE.FindStringSubmatch(line); m != nil {
			j := get(m[1])
			j.every, _ = time.ParseDuration(m[2])
			j.off = strings.Trim(m[3], `"`)
			continue
		}
		m := jobRunRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ended, err := time.Parse(jobLogTime, m[1])
		if err != nil {
			continue
		}
		took, _ := time.ParseDuration(m[3])
		j := get(m[2])
		j.runs++
		if jobFailRE.MatchString(line) {
			j.failures++
		}
		j.starts = append(j.starts, ended.Add(-took))
		j.longest = max(j.longest, took)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	names := make([]string, 0, len(byJob))
	for name, j := range byJob {
		if j.off == "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	fmt.Fprintf(out, "  scheduled jobs (interval: configured / achieved between starts, mean and longest; runs; longest run):\n")
	for _, name := range names {
		j := byJob[name]
		achieved := "one run or none: no interval yet"
		if len(j.starts) > 1 {
			sort.Slice(j.starts, func(a, b int) bool { return j.starts[a].Before(j.starts[b]) })
			var sum, longest time.Duration
			for i := 1; i < len(j.starts); i++ {
				gap := j.starts[i].Sub(j.starts[i-1])
				sum += gap
				longest = max(longest, gap)
			}
			achieved = fmt.Sprintf("%s mean, %s longest", (sum / time.Duration(len(j.starts)-1)).Round(time.Second), longest.Round(time.Second))
		}
		fmt.Fprintf(out, "    %-26s every %-8s achieved %-34s %3d runs (%d failed), longest run %s\n",
			name, j.every, achieved, j.runs, j.failures, j.longest.Round(time.Millisecond))
	}
	return nil
}
