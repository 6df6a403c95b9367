package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"overwatch/clickhouse"
	"overwatch/write/ais"
)

type ingestOptions struct {
	bin, chServer, database, sample, dir string
	profile                              string
	messages, rounds                     int
	minRatio, maxRSSMB                   float64
}

func runIngest(ctx context.Context, args []string, out io.Writer) error {
	var o ingestOptions
	fs := flag.NewFlagSet("loadtest ingest", flag.ContinueOnError)
	fs.StringVar(&o.bin, "bin", "bin/overwatch", "the overwatch binary")
	fs.StringVar(&o.chServer, "clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	fs.StringVar(&o.database, "database", "overwatch_bench_ingest", "database to replay into (dropped first)")
	fs.StringVar(&o.sample, "sample", "write/ais/testdata/ais_aishub_3min_live_sample_gpsd_contrib.log", "the capture to repeat")
	fs.StringVar(&o.dir, "dir", ".data/bench", "where the generated capture is kept between runs")
	fs.IntVar(&o.messages, "messages", 10_000_000, "AIS messages to replay")
	fs.IntVar(&o.rounds, "rounds", 2, "replays, each followed by the anchor: clickhouse-client inserting the replay's position rows as TSV")
	fs.Float64Var(&o.minRatio, "min-ratio", 0.5, "target: the replay's messages/s over the anchor's rows/s, in the same round")
	fs.Float64Var(&o.maxRSSMB, "max-rss-mb", 200, "target: peak resident memory of the replay below this")
	fs.StringVar(&o.profile, "profile", "", "write the last replay's CPU and heap profiles to this prefix (.cpu, .heap)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := exec.LookPath("clickhouse-client"); err != nil {
		return fmt.Errorf("clickhouse-client is not installed: %w", err)
	}
	path, lines, err := generateCapture(o)
	if err != nil {
		return err
	}
	tsv := filepath.Join(o.dir, filepath.Base(path)+".positions.tsv")
	fmt.Fprintf(out, "ingest replay of %s (%d lines) into %s, load average %s\n", path, lines, o.database, loadAverage())
	worst, peak := math.Inf(1), 0.0
	for round := 1; round <= o.rounds; round++ {
		var profile string
		if round == o.rounds {
			profile = o.profile
		}
		r, err := replayOnce(ctx, o, path, profile)
		if err != nil {
			return err
		}
		if round == 1 {
			if err := exportTSV(ctx, o, tsv); err != nil {
				return err
			}
		}
		rows, rowsPerS, err := anchorInsert(ctx, o, tsv)
		if err != nil {
			return err
		}
		ratio := r.mps / rowsPerS
		worst, peak = min(worst, ratio), max(peak, r.rss)
		fmt.Fprintf(out, "round %d (load average %s):\n", round, loadAverage())
		fmt.Fprintf(out, "  %s", r.summary)
		fmt.Fprintf(out, "  replay            %.0f messages/s (%s wall with start-up and the final flush), %d positions stored, peak RSS %.0f MB\n",
			r.mps, r.wall.Round(time.Millisecond), r.stored, r.rss)
		fmt.Fprintf(out, "  clickhouse-client %.0f rows/s (%d position rows as TSV)\n", rowsPerS, rows)
		fmt.Fprintf(out, "  ratio             %.2f\n", ratio)
	}
	fmt.Fprintf(out, "worst ratio %.2f (target >= %.2f), peak RSS %.0f MB (target < %.0f MB)\n", worst, o.minRatio, peak, o.maxRSSMB)
	if worst < o.minRatio || peak >= o.maxRSSMB {
		return fmt.Errorf("targets missed: ratio %.2f, peak RSS %.0f MB", worst, peak)
	}
	fmt.Fprintln(out, "targets met")
	return nil
}

// replayResult is one replay's figures.
type replayResult struct {
	summary  string
	mps, rss float64
	wall     time.Duration
	stored   uint64
}

// replayOnce drops the database and replays the capture into it with
// bin/overwatch replay; with profile set, the replay writes its CPU and
// heap profiles there.
func replayOnce(ctx context.Context, o ingestOptions, path, profile string) (replayResult, error) {
	var r replayResult
	if err := dropCHDatabase(ctx, o.chServer, o.database); err != nil {
		return r, err
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return r, err
	}
	spool, err := os.MkdirTemp("", "overwatch-bench-spool-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(spool)
	args := []string{"replay", "--source", "aishub"}
	if profile != "" {
		args = append(args, "--cpuprofile", profile+".cpu", "--memprofile", profile+".heap")
	}
	cmd := exec.CommandContext(ctx, bin, append(args, path)...)
	cmd.Env = append(os.Environ(), "CLICKHOUSE_URL="+o.chServer+"/"+o.database, "OVERWATCH_SPOOL_DIR="+spool, "OVERWATCH_LOG_LEVEL=warn")
	start := time.Now()
	summary, err := cmd.CombinedOutput()
	r.wall = time.Since(start)
	if err != nil {
		return r, fmt.Errorf("replay: %v\n%s", err, summary)
	}
	r.summary = lastLines(string(summary), 1)
	if r.mps, r.rss, err = parseReplay(r.summary); err != nil {
		return r, err
	}
	db, err := clickhouse.Open(o.chServer + "/" + o.database)
	if err != nil {
		return r, err
	}
	defer db.Close()
	r.stored, err = db.Count(ctx, "SELECT count() FROM positions")
	return r, err
}

// positionColumnsTSV are the positions table's columns the anchor inserts.
const positionColumnsTSV = "imo, mmsi, source, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, draft_m, destination, msg_type, received_at, station, dedup_key"

// exportTSV writes the replayed positions, as the positions table's
// columns, to a TSV file for the anchor.
func exportTSV(ctx context.Context, o ingestOptions, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "clickhouse-client", "--database", o.database, "--query",
		"SELECT "+positionColumnsTSV+" FROM positions FORMAT TabSeparated")
	var msg strings.Builder
	cmd.Stdout, cmd.Stderr = f, &msg
	err = cmd.Run()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("export the positions as TSV: %v\n%s", err, msg.String())
	}
	return nil
}

// anchorInsert inserts the TSV file with clickhouse-client into a fresh
// copy of the positions table (in the database the replay just filled)
// and returns the rows and the rate.
func anchorInsert(ctx context.Context, o ingestOptions, path string) (uint64, float64, error) {
	db, err := clickhouse.Open(o.chServer + "/" + o.database)
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	if err := db.Exec(ctx, "DROP TABLE IF EXISTS positions_tsv"); err != nil {
		return 0, 0, err
	}
	if err := db.Exec(ctx, "CREATE TABLE positions_tsv AS positions"); err != nil {
		return 0, 0, err
	}
	tsv, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer tsv.Close()
	client := exec.CommandContext(ctx, "clickhouse-client", "--database", o.database, "--query",
		"INSERT INTO positions_tsv ("+positionColumnsTSV+") FORMAT TabSeparated")
	client.Stdin = tsv
	began := time.Now()
	msg, err := client.CombinedOutput()
	took := time.Since(began)
	if err != nil {
		return 0, 0, fmt.Errorf("clickhouse-client: %v\n%s", err, msg)
	}
	rows, err := db.Count(ctx, "SELECT count() FROM positions_tsv")
	if err != nil {
		return 0, 0, err
	}
	return rows, float64(rows) / took.Seconds(), db.Exec(ctx, "DROP TABLE positions_tsv")
}

// dropCHDatabase drops a benchmark database of ClickHouse.
func dropCHDatabase(ctx context.Context, server, database string) error {
	admin, err := clickhouse.Open(server + "/default")
	if err != nil {
		return err
	}
	defer admin.Close()
	return admin.Exec(ctx, "DROP DATABASE IF EXISTS "+database)
}

var replayRE = regexp.MustCompile(`\(([0-9.]+) messages/s, peak RSS ([0-9.]+) MB\)`)

func parseReplay(s string) (mps, rssMB float64, err error) {
	m := replayRE.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, fmt.Errorf("cannot read the replay summary:\n%s", s)
	}
	mps, _ = strconv.ParseFloat(m[1], 64)
	rssMB, _ = strconv.ParseFloat(m[2], 64)
	return mps, rssMB, nil
}

// generateCapture writes copies of the sample, each line stamped one second
// after the previous with a tag block, until the copies hold the messages
// asked for; every report is then unique. The file is kept for later runs.
func generateCapture(o ingestOptions) (string, int, error) {
	b, err := os.ReadFile(o.sample)
	if err != nil {
		return "", 0, err
	}
	sample := strings.Split(strings.TrimSpace(strings.ReplaceAll(string(b), "\r\n", "\n")), "\n")
	perCopy := 0
	dec := ais.NewDecoder(ais.Options{})
	for _, l := range sample {
		if _, ok := dec.Decode([]byte(l)); ok {
			perCopy++
		}
	}
	copies := (o.messages + perCopy - 1) / perCopy
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return "", 0, err
	}
	path := filepath.Join(o.dir, fmt.Sprintf("aishub-x%d.nmea", copies))
	lines := copies * len(sample)
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		return path, lines, nil
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return "", 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	for c := 0; c < copies; c++ {
		for _, l := range sample {
			fmt.Fprintf(w, "%s\n", ais.Stamp(strings.TrimSpace(l), base.Add(time.Duration(n)*time.Second), ""))
			n++
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", 0, err
	}
	if err := f.Close(); err != nil {
		return "", 0, err
	}
	return path, lines, os.Rename(path+".tmp", path)
}
