package main

import (
	"bufio"
	"context"
	"encoding/csv"
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

	"overwatch"
	"overwatch/clickhouse"
)

type historyOptions struct {
	bin, chServer, database, dir string
	samples                      []string
	rows                         int
	minRatio, maxRSSMB           float64
}

// runHistory is `loadtest history`: a MarineCadastre file of -rows rows
// generated from the real samples (MMSIs, IMOs, times and positions
// shifted) is imported with `overwatch import history`, and the same rows
// are inserted into a copy of the positions table with clickhouse-client
// as TSV: the import's rate must be at least -min-ratio of the client's,
// with peak memory under -max-rss-mb.
func runHistory(ctx context.Context, args []string, out io.Writer) error {
	o := historyOptions{samples: []string{
		"write/history/testdata/noaa_marinecadastre_2022-03-31_51rows.csv",
		"write/history/testdata/noaa_marinecadastre_2024-01-01_499rows.csv",
	}}
	fs := flag.NewFlagSet("loadtest history", flag.ContinueOnError)
	fs.StringVar(&o.bin, "bin", "bin/overwatch", "the overwatch binary")
	fs.StringVar(&o.chServer, "clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	fs.StringVar(&o.database, "database", "overwatch_bench_history", "database to import into (dropped first)")
	fs.StringVar(&o.dir, "dir", ".data/bench", "where the generated files are kept between runs")
	fs.IntVar(&o.rows, "rows", 1_000_000, "rows of the generated MarineCadastre file")
	samples := fs.String("samples", strings.Join(o.samples, ","), "the MarineCadastre samples the file is made from, comma-separated")
	fs.Float64Var(&o.minRatio, "min-ratio", 0.25, "target: the import's rows/s over clickhouse-client's TSV insert")
	fs.Float64Var(&o.maxRSSMB, "max-rss-mb", 300, "target: peak resident memory of the import below this")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.samples = strings.Split(*samples, ",")
	if _, err := exec.LookPath("clickhouse-client"); err != nil {
		return fmt.Errorf("clickhouse-client is not installed: %w", err)
	}
	csvPath, tsvPath, err := generateHistory(o)
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
	db, err := clickhouse.Open(o.chServer + "/" + o.database)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return err
	}
	if err := db.Exec(ctx, "CREATE TABLE positions_tsv AS positions"); err != nil {
		return err
	}

	// clickhouse-client first, into its own table.
	tsv, err := os.Open(tsvPath)
	if err != nil {
		return err
	}
	client := exec.CommandContext(ctx, "clickhouse-client", "--database", o.database, "--query",
		"INSERT INTO positions_tsv (imo, mmsi, source, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, draft_m, destination, msg_type, received_at, dedup_key) FORMAT TabSeparated")
	client.Stdin = tsv
	began := time.Now()
	msg, err := client.CombinedOutput()
	tsvTime := time.Since(began)
	tsv.Close()
	if err != nil {
		return fmt.Errorf("clickhouse-client: %v\n%s", err, msg)
	}
	tsvRows, err := db.Count(ctx, "SELECT count() FROM positions_tsv")
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
	cmd := exec.CommandContext(ctx, bin, "import", "history", "--format", "marinecadastre", csvPath)
	cmd.Env = append(os.Environ(), "CLICKHOUSE_URL="+o.chServer+"/"+o.database, "OVERWATCH_SPOOL_DIR="+spool, "OVERWATCH_LOG_LEVEL=warn")
	began = time.Now()
	summary, err := cmd.CombinedOutput()
	importTime := time.Since(began)
	if err != nil {
		return fmt.Errorf("import: %v\n%s", err, summary)
	}
	rps, rss, err := parseImport(string(summary))
	if err != nil {
		return err
	}
	stored, err := db.Count(ctx, "SELECT count() FROM positions")
	if err != nil {
		return err
	}
	clientRPS := float64(tsvRows) / tsvTime.Seconds()
	ratio := rps / clientRPS
	fmt.Fprintf(out, "history import of %s (%d rows) into %s:\n", csvPath, o.rows, o.database)
	fmt.Fprintf(out, "  %s", lastLines(string(summary), 1))
	fmt.Fprintf(out, "  import            %.0f rows/s (%s wall with start-up and the final flush), %d positions stored\n", rps, importTime.Round(time.Millisecond), stored)
	fmt.Fprintf(out, "  clickhouse-client %.0f rows/s (%d rows of TSV into positions_tsv in %s)\n", clientRPS, tsvRows, tsvTime.Round(time.Millisecond))
	fmt.Fprintf(out, "  ratio             %.2f (target >= %.2f)\n", ratio, o.minRatio)
	fmt.Fprintf(out, "  peak RSS          %.0f MB (target < %.0f MB)\n", rss, o.maxRSSMB)
	if ratio < o.minRatio || rss >= o.maxRSSMB {
		return fmt.Errorf("targets missed: ratio %.2f, peak RSS %.0f MB", ratio, rss)
	}
	fmt.Fprintln(out, "  targets met")
	return nil
}

var importRE = regexp.MustCompile(`\(([0-9,]+) rows/s, peak RSS ([0-9.]+) MB\)`)

func parseImport(s string) (rps, rssMB float64, err error) {
	m := importRE.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, fmt.Errorf("cannot read the import summary:\n%s", s)
	}
	rps, _ = strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	rssMB, _ = strconv.ParseFloat(m[2], 64)
	return rps, rssMB, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n") + "\n"
}

// historyRow is one row of the samples, parsed once.
type historyRow struct {
	mmsi     uint32
	ts       time.Time
	lat, lon float64
	rest     []string // the columns after LON, as written
	imo      overwatch.IMO
	heading  string
	sog, cog string
	status   string
	classB   bool
}

// generateHistory writes -rows rows of MarineCadastre CSV made from the
// samples: vessel copies (MMSI + copy × 10^6, IMOs renumbered with valid
// check digits) and time copies (40 s apart, positions 0.001° further
// north-east), and the same rows as TSV of the positions table's columns.
// Both files are kept for later runs.
func generateHistory(o historyOptions) (csvPath, tsvPath string, err error) {
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return "", "", err
	}
	csvPath = filepath.Join(o.dir, fmt.Sprintf("marinecadastre-%d.csv", o.rows))
	tsvPath = csvPath + ".tsv"
	if fi, err := os.Stat(tsvPath); err == nil && fi.Size() > 0 {
		return csvPath, tsvPath, nil
	}
	var sample []historyRow
	var header []string
	for _, p := range o.samples {
		f, err := os.Open(p)
		if err != nil {
			return "", "", err
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			return "", "", fmt.Errorf("%s: %w", p, err)
		}
		header = recs[0]
		for _, r := range recs[1:] {
			mmsi, _ := strconv.ParseUint(r[0], 10, 32)
			ts, err := time.Parse("2006-01-02T15:04:05", r[1])
			if err != nil {
				return "", "", fmt.Errorf("%s: %w", p, err)
			}
			lat, _ := strconv.ParseFloat(r[2], 64)
			lon, _ := strconv.ParseFloat(r[3], 64)
			imo, _ := overwatch.ParseIMO(strings.TrimPrefix(r[8], "IMO"))
			// Both samples start at midnight: their rows keep their
			// time of day on 2025-06-01.
			day := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Add(ts.Sub(ts.Truncate(24 * time.Hour)))
			sample = append(sample, historyRow{mmsi: uint32(mmsi), ts: day, lat: lat, lon: lon, rest: r[4:], imo: imo,
				sog: r[4], cog: r[5], heading: r[6], status: r[11], classB: len(r) > 16 && r[16] == "B"})
		}
	}
	const vesselCopies = 20
	cf, err := os.Create(csvPath + ".tmp")
	if err != nil {
		return "", "", err
	}
	tf, err := os.Create(tsvPath + ".tmp")
	if err != nil {
		cf.Close()
		return "", "", err
	}
	cw, tw := bufio.NewWriterSize(cf, 1<<20), bufio.NewWriterSize(tf, 1<<20)
	fmt.Fprintln(cw, strings.Join(header, ","))
	n := 0
	for c := 0; n < o.rows; c++ {
		shift := time.Duration(c) * 40 * time.Second
		for j := 0; j < vesselCopies && n < o.rows; j++ {
			for _, r := range sample {
				if n == o.rows {
					break
				}
				mmsi := r.mmsi + uint32(j)*1_000_000
				ts := r.ts.Add(shift)
				lat := math.Max(-89.9, math.Min(89.9, r.lat+float64(c)*0.001))
				lon := r.lon + float64(c)*0.001
				if lon > 180 {
					lon -= 360
				}
				imoText, imo := "", overwatch.IMO(0)
				if r.imo != 0 {
					imo = renumberIMO(r.imo, j)
					imoText = "IMO" + imo.String()
				}
				rest := append([]string(nil), r.rest...)
				rest[4] = imoText
				fmt.Fprintf(cw, "%d,%s,%.5f,%.5f,%s\n", mmsi, ts.Format("2006-01-02T15:04:05"), lat, lon, strings.Join(rest, ","))
				msgType := 1
				if r.classB {
					msgType = 18
				}
				heading := `\N`
				if h, err := strconv.ParseFloat(r.heading, 64); err == nil && h < 360 {
					heading = strconv.Itoa(int(h))
				}
				status, _ := strconv.ParseFloat(r.status, 64)
				if r.status == "" {
					status = 15
				}
				tsText := ts.Format("2006-01-02 15:04:05")
				fmt.Fprintf(tw, "%d\t%d\taishub\t%s\t%.5f\t%.5f\t%s\t%s\t%s\t%d\t\\N\t\t%d\t%s\t%d\n",
					uint32(imo), mmsi, tsText, lat, lon, orNull(r.sog), orNull(r.cog), heading, int(status), msgType, tsText, n)
				n++
			}
		}
	}
	for _, f := range []struct {
		w *bufio.Writer
		f *os.File
	}{{cw, cf}, {tw, tf}} {
		if err := f.w.Flush(); err != nil {
			return "", "", err
		}
		if err := f.f.Close(); err != nil {
			return "", "", err
		}
	}
	if err := os.Rename(csvPath+".tmp", csvPath); err != nil {
		return "", "", err
	}
	return csvPath, tsvPath, os.Rename(tsvPath+".tmp", tsvPath)
}

func orNull(s string) string {
	if s == "" {
		return `\N`
	}
	return s
}

// renumberIMO returns a valid IMO number for copy j of a vessel: its first
// six digits moved by j (copy 0 keeps the number).
func renumberIMO(imo overwatch.IMO, j int) overwatch.IMO {
	if j == 0 {
		return imo
	}
	first6 := (uint32(imo)/10+uint32(j)*7919)%900000 + 100000
	sum := uint32(0)
	for k, d := 0, first6; k < 6; k, d = k+1, d/10 {
		sum += (d % 10) * uint32(k+2)
	}
	return overwatch.IMO(first6*10 + sum%10)
}
