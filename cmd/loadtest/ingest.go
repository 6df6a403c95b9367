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
	"strconv"
	"strings"
	"time"

	"overwatch/clickhouse"
	"overwatch/write/ais"
)

type ingestOptions struct {
	bin, chServer, database, sample, dir string
	messages                             int
	minMPS, maxRSSMB                     float64
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
	fs.Float64Var(&o.minMPS, "min-mps", 100000, "target: at least this many messages per second")
	fs.Float64Var(&o.maxRSSMB, "max-rss-mb", 300, "target: peak resident memory of the replay below this")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, lines, err := generateCapture(o)
	if err != nil {
		return err
	}
	admin, err := clickhouse.Open(o.chServer + "/default")
	if err != nil {
		return err
	}
	err = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+o.database)
	admin.Close()
	if err != nil {
		return err
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return err
	}
	spool, err := os.MkdirTemp("", "overwatch-bench-spool-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(spool)
	cmd := exec.CommandContext(ctx, bin, "replay", "--source", "aishub", path)
	cmd.Env = append(os.Environ(), "CLICKHOUSE_URL="+o.chServer+"/"+o.database, "OVERWATCH_SPOOL_DIR="+spool, "OVERWATCH_LOG_LEVEL=warn")
	start := time.Now()
	summary, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	if err != nil {
		return fmt.Errorf("replay: %v\n%s", err, summary)
	}
	mps, rss, err := parseReplay(string(summary))
	if err != nil {
		return err
	}
	db, err := clickhouse.Open(o.chServer + "/" + o.database)
	if err != nil {
		return err
	}
	defer db.Close()
	stored, err := db.Count(ctx, "SELECT count() FROM positions")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "ingest replay of %s (%d lines) into %s:\n", path, lines, o.database)
	fmt.Fprintf(out, "  %s", summary)
	fmt.Fprintf(out, "  wall time  %s including start-up and the final flush\n", elapsed.Round(time.Millisecond))
	fmt.Fprintf(out, "  messages/s %.0f (target >= %.0f)\n", mps, o.minMPS)
	fmt.Fprintf(out, "  peak RSS   %.0f MB (target < %.0f MB)\n", rss, o.maxRSSMB)
	fmt.Fprintf(out, "  positions  %d rows in ClickHouse\n", stored)
	if mps < o.minMPS || rss >= o.maxRSSMB {
		return fmt.Errorf("targets missed: %.0f messages/s, peak RSS %.0f MB", mps, rss)
	}
	fmt.Fprintln(out, "  targets met")
	return nil
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
