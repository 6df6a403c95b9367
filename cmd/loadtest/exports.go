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
	"strconv"
	"strings"
	"syscall"
	"time"

	"overwatch/bulk"
	"overwatch/clickhouse"
)

// runExports is `loadtest exports` (make bench-exports): -rows positions
// written into ClickHouse by the server itself (INSERT ... SELECT from
// numbers, merged once), then in the same run the same rows as gzipped
// CSV twice: by clickhouse-client (the export's query, FORMAT
// CSVWithNames, through gzip) and by the service (POST /v1/exports
// csv.gz, from the request to the export completed). Targets: the service
// within -max-ratio of clickhouse-client, the server's peak RSS (VmHWM)
// under -max-rss-mb.
func runExports(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("exports", flag.ContinueOnError)
	bin := fs.String("bin", "bin/overwatch", "the overwatch binary")
	chServer := fs.String("clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	pgServer := fs.String("postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	database := fs.String("database", "overwatch_bench_exports", "database to fill and serve (in both stores)")
	rows := fs.Int("rows", 10_000_000, "positions to export")
	addr := fs.String("addr", "127.0.0.1:18101", "address for the server under test")
	maxRatio := fs.Float64("max-ratio", 2, "target: the service's time over clickhouse-client's at most this")
	maxRSS := fs.Float64("max-rss-mb", 200, "target: the server's peak resident memory below this")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	db, err := clickhouse.Open(*chServer + "/" + *database)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return err
	}
	n, err := db.CountExport(ctx, bulk.Query{Dataset: bulk.Positions})
	if err != nil {
		return err
	}
	if n != int64(*rows) {
		fmt.Fprintf(out, "filling %d positions into %s ...\n", *rows, *database)
		t0 := time.Now()
		fill := fmt.Sprintf(`INSERT INTO positions (imo, mmsi, source, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, draft_m, destination, msg_type, received_at, station, dedup_key)
			SELECT toUInt32(1000000 + number %% 4000), toUInt32(244000000 + number %% 4000), CAST('aisstream' AS Enum8('none' = 0, 'aishub' = 1, 'aisstream' = 2, 'satellite' = 3, 'spire' = 4)),
			       toDateTime(1764547200 + intDiv(number, 4000) * 60), -60 + (number %% 1200000) / 10000, -180 + (number * 7 %% 3600000) / 10000,
			       toFloat32((number %% 200) / 10), toFloat32((number %% 3600) / 10), toUInt16(number %% 360), toUInt8(0), NULL, '', toUInt8(1),
			       toDateTime(1764547202 + intDiv(number, 4000) * 60), '', number
			  FROM numbers(%d)`, *rows)
		for _, q := range []string{"TRUNCATE TABLE positions", fill, "OPTIMIZE TABLE positions FINAL"} {
			if err := clickhouseClient(ctx, *database, q, io.Discard); err != nil {
				return err
			}
		}
		fmt.Fprintf(out, "  filled and merged in %s\n", time.Since(t0).Round(time.Second))
	}
	dir, err := os.MkdirTemp("", "overwatch-bench-exports-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	// clickhouse-client: the export's query, CSVWithNames, through gzip.
	sql, qargs := clickhouse.BulkSQL(bulk.Query{Dataset: bulk.Positions})
	if len(qargs) != 0 {
		return fmt.Errorf("the unfiltered positions query has arguments: %v", qargs)
	}
	ref := filepath.Join(dir, "reference.csv.gz")
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c",
		`clickhouse-client --database "$1" -q "$2 FORMAT CSVWithNames" | gzip -c > "$3"`, "bash", *database, sql, ref)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("clickhouse-client: %v\n%s", err, b)
	}
	refTook := time.Since(t0)
	refSize := fileSize(ref)

	// The service.
	env := append(os.Environ(),
		"OVERWATCH_ADDR="+*addr, "OVERWATCH_METRICS_ADDR=127.0.0.1:0",
		"CLICKHOUSE_URL="+*chServer+"/"+*database, "DATABASE_URL="+*pgServer+"/"+*database+"?sslmode=disable",
		"OVERWATCH_EXPORT_DIR="+filepath.Join(dir, "exports"), "OVERWATCH_LOG_LEVEL=warn", "OVERWATCH_KEYED_LIMIT_PER_MINUTE=100000")
	keyCmd := exec.CommandContext(ctx, path, "keys", "create", "--email", fmt.Sprintf("bench-exports-%d@example.com", time.Now().UnixNano()), "--plan", "pro")
	keyCmd.Env = env
	keyOut, err := keyCmd.Output()
	if err != nil {
		return fmt.Errorf("keys create: %v", err)
	}
	key := strings.TrimSpace(string(keyOut))
	srv := exec.CommandContext(ctx, path, "serve")
	srv.Env = env
	srv.Stdout, srv.Stderr = os.Stderr, os.Stderr
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() {
		// End only the process we started, by its PID.
		_ = srv.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = srv.Process.Kill()
		}
	}()
	base := "http://" + *addr + "/v1"
	call := func(method, p, body string) (map[string]any, error) {
		req, _ := http.NewRequestWithContext(ctx, method, base+p, strings.NewReader(body))
		req.Header.Set("X-API-Key", key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		var v struct{ Export map[string]any }
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 {
			return nil, fmt.Errorf("%s %s: %d %s", method, p, resp.StatusCode, b)
		}
		return v.Export, json.Unmarshal(b, &v)
	}
	for deadline := time.Now().Add(120 * time.Second); ; {
		if resp, err := http.Get(base + "/health"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the server did not answer within 120 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	t0 = time.Now()
	e, err := call("POST", "/exports", `{"dataset":"positions","format":"csv.gz"}`)
	if err != nil {
		return err
	}
	id, _ := e["id"].(string)
	for e["status"] != "completed" {
		if e["status"] == "failed" {
			return fmt.Errorf("the export failed: %v", e["error"])
		}
		time.Sleep(100 * time.Millisecond)
		if e, err = call("GET", "/exports/"+id, ""); err != nil {
			return err
		}
	}
	took := time.Since(t0)
	peak := peakMB(srv.Process.Pid)
	got, _ := e["rows"].(float64)
	size, _ := e["bytes"].(float64)
	ratio := took.Seconds() / refTook.Seconds()
	fmt.Fprintf(out, "bulk CSV.gz export of %d positions:\n", *rows)
	fmt.Fprintf(out, "  clickhouse-client | gzip  %s (%.0f rows/s, %d bytes)\n", refTook.Round(10*time.Millisecond), float64(*rows)/refTook.Seconds(), refSize)
	fmt.Fprintf(out, "  POST /v1/exports csv.gz   %s (%.0f rows/s, %.0f rows, %.0f bytes): %.2f× clickhouse-client (target ≤ %.1f×)\n",
		took.Round(10*time.Millisecond), got/took.Seconds(), got, size, ratio, *maxRatio)
	fmt.Fprintf(out, "  server peak RSS           %.0f MB (target < %.0f MB)\n", peak, *maxRSS)
	if int(got) != *rows {
		return fmt.Errorf("the export holds %.0f rows, not %d", got, *rows)
	}
	if ratio > *maxRatio || peak >= *maxRSS {
		return fmt.Errorf("targets missed: %.2f×, peak RSS %.0f MB", ratio, peak)
	}
	return nil
}

// clickhouseClient runs one statement through clickhouse-client.
func clickhouseClient(ctx context.Context, database, q string, out io.Writer) error {
	cmd := exec.CommandContext(ctx, "clickhouse-client", "--database", database, "-q", q)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("clickhouse-client: %v: %s", err, stderr.String())
	}
	return nil
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// peakMB reads VmHWM (the peak resident memory) of a process from /proc.
func peakMB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}
