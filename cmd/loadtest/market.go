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
	"strings"
	"syscall"
	"time"
)

// marketEndpoints are the market endpoints measured under load.
var marketEndpoints = []string{
	"/v1/commodity-prices?limit=500",
	"/v1/commodity-prices?commodity=wheat&limit=500",
	"/v1/commodity-prices?commodity=corn&since=2020-01-01&limit=500",
	"/v1/transport-data?limit=500",
	"/v1/transport-data?mode=barge&region=st%20louis&limit=500",
	"/v1/freight-rates?limit=200",
	"/v1/freight-rates?vessel_type=panamax&limit=200",
}

// runMarket is `loadtest market`: the imports' peak memory on synthetic
// FRED and AgTransport files of growing size (flat: the imports stream),
// then, on a fresh database holding the bundled real samples, each market
// endpoint's latency under load.
func runMarket(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadtest market", flag.ContinueOnError)
	bin := fs.String("bin", "bin/overwatch", "the overwatch binary")
	chServer := fs.String("clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	pgServer := fs.String("postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	database := fs.String("database", "overwatch_bench_market", "database to fill and serve (dropped first)")
	samples := fs.String("samples", "sources/market/samples", "the bundled market samples")
	rows := fs.Int("rows", 60000, "rows of the smaller synthetic files (the larger have 8 times as many; files are capped at 64 MiB)")
	addr := fs.String("addr", "127.0.0.1:18093", "address for the server under test")
	requests := fs.Int("requests", 2000, "requests per endpoint")
	maxGrowth := fs.Float64("max-growth-mb", 40, "target: peak memory of an import of the larger file over the smaller's")
	maxP99 := fs.Duration("max-p99", 20*time.Millisecond, "target: p99 of each endpoint")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	if err := dropDatabase(ctx, *chServer, *pgServer, *database); err != nil {
		return err
	}
	env := append(os.Environ(), "CLICKHOUSE_URL="+*chServer+"/"+*database,
		"DATABASE_URL="+*pgServer+"/"+*database+"?sslmode=disable", "OVERWATCH_LOG_LEVEL=warn")
	command := func(args ...string) (string, time.Duration, float64, error) {
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			return string(b), 0, 0, fmt.Errorf("overwatch %s: %v\n%s%s", strings.Join(args, " "), err, b, stderr.String())
		}
		ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		mb := 0.0
		if ru != nil {
			mb = float64(ru.Maxrss) / 1024 // kB on Linux
		}
		return string(b), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), mb, nil
	}
	dir, err := os.MkdirTemp("", "overwatch-bench-market-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	failed := false
	fmt.Fprintf(out, "market imports, peak resident memory (one process per file):\n")
	for _, kind := range []string{"prices", "transport"} {
		var peaks [2]float64
		for i, n := range []int{*rows, 8 * *rows} {
			file := filepath.Join(dir, fmt.Sprintf("%s-%d", kind, n))
			size, err := writeSynthetic(kind, file, n)
			if err != nil {
				return err
			}
			start := time.Now()
			_, _, mb, err := command("import", kind, file)
			if err != nil {
				return err
			}
			peaks[i] = mb
			fmt.Fprintf(out, "  import %-9s %8d rows %6.1f MB  in %-8s peak %5.0f MB\n", kind, n, float64(size)/1e6,
				time.Since(start).Round(time.Millisecond), mb)
		}
		if growth := peaks[1] - peaks[0]; growth > *maxGrowth {
			fmt.Fprintf(out, "  %s: the larger file took %.0f MB more  MISSED (target < %.0f MB)\n", kind, growth, *maxGrowth)
			failed = true
		}
	}
	// The real samples, the data the endpoints are measured on.
	if err := dropDatabase(ctx, *chServer, *pgServer, *database); err != nil {
		return err
	}
	var prices, rates []string
	files, _ := filepath.Glob(filepath.Join(*samples, "*"))
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			continue // the samples of other sources
		}
		switch {
		case strings.HasPrefix(filepath.Base(f), "agtransport_"):
			rates = append(rates, f)
		case !strings.HasSuffix(f, ".md"):
			prices = append(prices, f)
		}
	}
	for _, args := range [][]string{append([]string{"import", "prices"}, prices...), append([]string{"import", "transport"}, rates...)} {
		summary, _, _, err := command(args...)
		if err != nil {
			return err
		}
		fmt.Fprint(out, indent(summary))
	}
	srv, err := startServe(ctx, path, append(env, "OVERWATCH_ADDR="+*addr, "OVERWATCH_KEYED_LIMIT_PER_MINUTE=1000000000"), *addr)
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Fprintf(out, "market endpoints, %d requests each from 8 concurrent clients, a Pro key each, on loopback (load average %s):\n",
		*requests, loadAverage())
	for _, ep := range marketEndpoints {
		key, _, _, err := command("keys", "create", "--email", fmt.Sprintf("bench-%d@example.com", time.Now().UnixNano()), "--plan", "pro")
		if err != nil {
			return err
		}
		key = strings.TrimSpace(key)
		res, err := hammer(ctx, "http://"+*addr+ep, key, *requests, 8)
		if err != nil {
			return err
		}
		mark := ""
		if res.p99 >= *maxP99 || res.non2xx > 0 {
			mark, failed = "  MISSED", true
		}
		fmt.Fprintf(out, "  %-62s %7.0f req/s  p50 %-9s p99 %-9s %4.0f kB  %d errors%s\n", ep, res.rps, res.p50.Round(10*time.Microsecond),
			res.p99.Round(10*time.Microsecond), bodyKB(ctx, "http://"+*addr+ep, key), res.non2xx, mark)
	}
	fmt.Fprintf(out, "  load average after: %s\n", loadAverage())
	if failed {
		return fmt.Errorf("targets missed")
	}
	fmt.Fprintln(out, "  targets met")
	return nil
}

// writeSynthetic writes a file of n observations in a source's real
// layout: a FRED CSV of the daily Brent series (dates cycling through
// 1987-2026, so that the store keeps a bounded set) or an AgTransport
// barge-rate JSON array (deqi-uken's fields, every value a string).
func writeSynthetic(kind, path string, n int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	day0 := time.Date(1987, 5, 20, 0, 0, 0, 0, time.UTC)
	locations := []string{"Twin Cities", "Mid-Mississippi", "Lower Illinois", "St. Louis", "Cincinnati", "Lower Ohio", "Cairo-Memphis"}
	if kind == "prices" {
		fmt.Fprintln(w, "observation_date,DCOILBRENTEU")
		for i := range n {
			fmt.Fprintf(w, "%s,%.2f\n", day0.AddDate(0, 0, i%14000).Format(time.DateOnly), 40+float64(i%7000)/100)
		}
	} else {
		w.WriteString("[")
		for i := range n {
			if i > 0 {
				w.WriteString("\n,")
			}
			d := day0.AddDate(0, 0, 7*((i/len(locations))%2000))
			y, wk := d.ISOWeek()
			fmt.Fprintf(w, `{"date":"%sT00:00:00.000","week":"%d","month":"%d","year":"%d","location":"%s","rate":"%.4f"}`,
				d.Format(time.DateOnly), wk, d.Month(), y, locations[i%len(locations)], 300+float64(i%5000)/10)
		}
		w.WriteString("]\n")
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	st, err := f.Stat()
	f.Close()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
