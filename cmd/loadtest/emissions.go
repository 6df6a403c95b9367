package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"overwatch/clickhouse"
	"overwatch/jobs"
	"overwatch/maritime/emissions"
	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"
	"overwatch/maritime/voyage"
)

// runEmissions measures the emissions endpoints over a
// voyage_emissions table of -voyages synthetic voyages: it writes them to
// a benchmark database with the emissions job's own writer, starts
// bin/overwatch serve, walks /v1/emissions to collect the cursors of every
// page, then measures on loopback, with a Pro key per measurement:
// /v1/emissions pages at random cursors (p50, p99), the same grouped and
// with an override, the report as JSON and as PDF (sequential requests),
// and the server's peak resident memory.
func runEmissions(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadtest emissions", flag.ContinueOnError)
	bin := fs.String("bin", "bin/overwatch", "the overwatch binary")
	chServer := fs.String("clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	pgServer := fs.String("postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	database := fs.String("database", "overwatch_bench_emissions", "database to fill and serve (in both stores)")
	addr := fs.String("addr", "127.0.0.1:18091", "address for the server under test")
	voyages := fs.Int("voyages", 10000, "voyages in voyage_emissions")
	requests := fs.Int("requests", 2000, "requests per page measurement")
	reportRuns := fs.Int("report-runs", 10, "sequential requests per report measurement")
	maxP99 := fs.Duration("max-p99", 100*time.Millisecond, "target: p99 of a /v1/emissions page")
	maxJSON := fs.Duration("max-json", time.Second, "target: the report as JSON")
	maxPDF := fs.Duration("max-pdf", 5*time.Second, "target: the report as PDF")
	maxRSS := fs.Float64("max-rss-mb", 200, "target: the server's peak resident memory (MB)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	env := append(os.Environ(), "CLICKHOUSE_URL="+*chServer+"/"+*database,
		"DATABASE_URL="+*pgServer+"/"+*database+"?sslmode=disable", "OVERWATCH_LOG_LEVEL=warn")
	command := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Env = env
		var b, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &e
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("overwatch %s: %v\n%s%s", strings.Join(args, " "), err, b.String(), e.String())
		}
		return strings.TrimSpace(b.String()), nil
	}
	if _, err := command("migrate"); err != nil {
		return err
	}
	started := time.Now()
	if err := fillVoyages(ctx, *chServer+"/"+*database, *voyages); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d voyages written to %s.voyage_emissions in %s\n", *voyages, *database, time.Since(started).Round(time.Millisecond))
	srv, err := startServe(ctx, path, append(env, "OVERWATCH_ADDR="+*addr, "OVERWATCH_KEYED_LIMIT_PER_MINUTE=1000000000"), *addr)
	if err != nil {
		return err
	}
	defer srv.stop()
	base := "http://" + *addr
	newKey := func() (string, error) {
		return command("keys", "create", "--email", fmt.Sprintf("bench-emissions-%d@example.com", time.Now().UnixNano()), "--plan", "pro")
	}
	key, err := newKey()
	if err != nil {
		return err
	}
	// The first request reads the table (the read cache is cold); the walk
	// collects every page's cursor.
	cold := time.Now()
	cursors, err := walkEmissions(ctx, base, key)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "walk of /v1/emissions?limit=50: %d pages in %s (the first request reads the table), server peak RSS %.0f MB\n",
		len(cursors), time.Since(cold).Round(time.Millisecond), peakResidentMB(srv.cmd.Process.Pid))
	failed := false
	fmt.Fprintf(out, "/v1/emissions, %d requests each from 8 concurrent clients at random cursors, on loopback:\n", *requests)
	for _, q := range []string{"limit=50", "limit=50&group_by=imo", "limit=500", "limit=50&fuel_type=mgo"} {
		if key, err = newKey(); err != nil {
			return err
		}
		urls := make([]string, len(cursors))
		for i, c := range cursors {
			urls[i] = base + "/v1/emissions?" + q
			if c != "" {
				urls[i] += "&cursor=" + url.QueryEscape(c)
			}
		}
		res, err := hammerURLs(ctx, urls, key, *requests, 8)
		if err != nil {
			return err
		}
		mark := ""
		if (res.p99 >= *maxP99 && !strings.Contains(q, "fuel_type")) || res.non2xx > 0 {
			mark, failed = "  MISSED", true
		}
		fmt.Fprintf(out, "  %-28s %7.0f req/s  p50 %-10s p99 %-10s %d errors, server peak RSS %.0f MB%s\n", q, res.rps,
			res.p50.Round(10*time.Microsecond), res.p99.Round(10*time.Microsecond), res.non2xx, peakResidentMB(srv.cmd.Process.Pid), mark)
	}
	fmt.Fprintf(out, "/v1/emissions/report over all %d voyages, %d sequential requests each:\n", *voyages, *reportRuns)
	for _, f := range []struct {
		q      string
		target time.Duration
	}{{"format=json&entity=Bench+AG", *maxJSON}, {"format=pdf&entity=Bench+AG", *maxPDF},
		{"format=csv&entity=Bench+AG", *maxJSON}, {"format=json&entity=Bench+AG&speed_knots=11", *maxJSON}} {
		var took []time.Duration
		var size int
		for i := 0; i < *reportRuns; i++ {
			start := time.Now()
			n, err := getBody(ctx, base+"/v1/emissions/report?"+f.q, key)
			if err != nil {
				return err
			}
			took, size = append(took, time.Since(start)), n
		}
		slices.Sort(took)
		mark := ""
		if took[len(took)-1] >= f.target {
			mark, failed = "  MISSED", true
		}
		fmt.Fprintf(out, "  %-44s median %-8s max %-8s %7.1f kB (target < %s), server peak RSS %.0f MB%s\n", f.q, took[len(took)/2].Round(time.Millisecond),
			took[len(took)-1].Round(time.Millisecond), float64(size)/1024, f.target, peakResidentMB(srv.cmd.Process.Pid), mark)
	}
	fmt.Fprintf(out, "server peak resident memory over all of the above (VmHWM): %.0f MB\n", peakResidentMB(srv.cmd.Process.Pid))
	// The PDF alone: a fresh server, one cold request (the table read
	// included), its peak resident memory.
	srv.stop()
	if srv, err = startServe(ctx, path, append(env, "OVERWATCH_ADDR="+*addr, "OVERWATCH_KEYED_LIMIT_PER_MINUTE=1000000000"), *addr); err != nil {
		return err
	}
	defer srv.stop()
	before := peakResidentMB(srv.cmd.Process.Pid)
	start := time.Now()
	size, err := getBody(ctx, base+"/v1/emissions/report?format=pdf&entity=Bench+AG", key)
	if err != nil {
		return err
	}
	took := time.Since(start)
	peak := peakResidentMB(srv.cmd.Process.Pid)
	mark := ""
	if peak >= *maxRSS || took >= *maxPDF {
		mark, failed = "  MISSED", true
	}
	fmt.Fprintf(out, "the PDF from a fresh server (cold read): %s, %.1f kB; server peak resident memory %.0f MB (%.0f MB before the request; target < %.0f MB)%s\n",
		took.Round(time.Millisecond), float64(size)/1024, peak, before, *maxRSS, mark)
	if failed {
		return fmt.Errorf("targets missed")
	}
	fmt.Fprintln(out, "targets met")
	return nil
}

// fillVoyages writes n synthetic voyages ending over the last 300 days
// (a fleet of n/20 vessels of every class, varied sizes, speeds, track
// coverage and cargo) as one generation of voyage_emissions.
func fillVoyages(ctx context.Context, chURL string, n int) error {
	ch, err := clickhouse.Open(chURL)
	if err != nil {
		return err
	}
	defer ch.Close()
	rng := rand.New(rand.NewPCG(7, 7))
	ports := seaport.All()
	end := now().UTC().Truncate(24 * time.Hour)
	types := []uint8{70, 71, 79, 80, 84, 89}
	rows := make([]voyage.Record, n)
	for i := range rows {
		from, to := ports[rng.IntN(len(ports))], ports[rng.IntN(len(ports))]
		arr := end.Add(-time.Duration(rng.Int64N(int64(300 * 24 * time.Hour)))).Truncate(time.Second)
		hours := 48 + rng.Float64()*500
		knots := 9 + rng.Float64()*6
		imo := benchIMO(i % max(1, n/20))
		in := emissions.VoyageInput{IMO: imo, Name: fmt.Sprintf("BENCH %s", imo), ShipType: types[int(imo)%len(types)],
			From: from.Slug, To: to.Slug, Departure: arr.Add(-time.Duration(hours * float64(time.Hour))), Arrival: arr,
			Commodity: from.Commodities[rng.IntN(len(from.Commodities))], LengthM: 150 + float64(imo%150), BeamM: 25 + float64(imo%25),
			DesignDraughtM: 10 + float64(imo%8), DraughtM: 8 + rng.Float64()*6, TrackDistanceNM: hours * knots, TrackCoverage: rng.Float64(),
			SeaLaneDistanceNM: hours * knots * 0.97, HoursAtSea: hours, MeanSpeedKnots: knots,
			SpeedBands:       []emissions.SpeedBand{{Knots: knots - 1, Hours: hours / 2}, {Knots: knots + 1, Hours: hours / 2}},
			HoursManoeuvring: 2, HoursAtAnchor: rng.Float64() * 48, HoursAtBerth: 24 + rng.Float64()*48,
			CargoTonnes: 10000 + rng.Float64()*60000, CargoQuality: emissions.CargoMedium, Ballast: rng.IntN(5) == 0}
		rows[i] = voyage.Record{ID: voyage.ID(imo, in.Departure), Input: in, Result: emissions.ComputeVoyage(in)}
	}
	return ch.WriteVoyageEmissions(ctx, jobs.Generation(), portstats.Days(end.Add(-301*24*time.Hour), end), rows)
}

// walkEmissions follows /v1/emissions?limit=50 to the last page and returns
// the cursor of each page ("" for the first).
func walkEmissions(ctx context.Context, base, key string) ([]string, error) {
	cursors := []string{""}
	for {
		u := base + "/v1/emissions?limit=50"
		if c := cursors[len(cursors)-1]; c != "" {
			u += "&cursor=" + url.QueryEscape(c)
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		req.Header.Set("X-API-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		var body struct {
			Pagination struct {
				HasMore    bool    `json:"has_more"`
				NextCursor *string `json:"next_cursor"`
			} `json:"pagination"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			return nil, fmt.Errorf("%s: %d (%v)", u, resp.StatusCode, err)
		}
		if !body.Pagination.HasMore {
			return cursors, nil
		}
		cursors = append(cursors, *body.Pagination.NextCursor)
	}
}

// getBody GETs u with the key and returns the body's size.
func getBody(ctx context.Context, u, key string) (int, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("%s: %d", u, resp.StatusCode)
	}
	return int(n), err
}

// hammerURLs sends n GET requests, each to a random one of urls, from c
// concurrent clients, and measures each one's latency (the body read).
func hammerURLs(ctx context.Context, urls []string, key string, n, c int) (result, error) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: c}}
	lat := make([]time.Duration, n)
	var next, bad atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < c; w++ {
		wg.Add(1)
		go func(rng *rand.Rand) {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || ctx.Err() != nil {
					return
				}
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, urls[rng.IntN(len(urls))], nil)
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
		}(rand.New(rand.NewPCG(uint64(w), 1)))
	}
	wg.Wait()
	took := time.Since(start)
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(n-1, int(p*float64(n)))] }
	return result{rps: float64(n) / took.Seconds(), p50: q(0.5), p90: q(0.9), p99: q(0.99), total: n, non2xx: int(bad.Load())}, ctx.Err()
}

// peakResidentMB reads VmHWM (the peak resident set) of a process.
func peakResidentMB(pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}
