package clickhouse_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/write/ingest"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// TestCapacity measures, in one run, the ingest rate and the read latency
// of a single server against the cluster (make bench-cluster): the same
// position batches (what the ingest pipeline sends: 50,000 positions with
// their latest rows) written through WriteBatch, then per-vessel reads
// (the keyed track read, positions of one IMO over a day, FINAL) and latest
// lookups from 8 clients, then the compressed bytes per position row from
// system.parts. It runs only with OVERWATCH_BENCH_CAPACITY=1;
// OVERWATCH_BENCH_SINGLE and OVERWATCH_BENCH_CLUSTER_URL (with ?cluster=)
// name the two stores, OVERWATCH_BENCH_ROWS the positions (1,000,000),
// OVERWATCH_BENCH_PIDS (name=pid,...) processes whose CPU time the writes
// cost is reported.
func TestCapacity(t *testing.T) {
	if os.Getenv("OVERWATCH_BENCH_CAPACITY") != "1" {
		t.Skip("a benchmark: make bench-cluster")
	}
	rows := 1_000_000
	if n, err := strconv.Atoi(os.Getenv("OVERWATCH_BENCH_ROWS")); err == nil && n > 0 {
		rows = n
	}
	stores := []struct{ name, url string }{
		{"single node", envOr("OVERWATCH_BENCH_SINGLE", "clickhouse://127.0.0.1:9000/overwatch_bench_capacity")},
		{"cluster 2x2", envOr("OVERWATCH_BENCH_CLUSTER_URL", "clickhouse://127.0.0.1:9101,127.0.0.1:9102,127.0.0.1:9103,127.0.0.1:9104/overwatch_bench_capacity?cluster=overwatch")},
	}
	batches := capacityBatches(rows, 5000, 50_000)
	var report strings.Builder
	fmt.Fprintf(&report, "| store | positions | ingest rows/s | track read p50 / p99 | latest read p50 / p99 | compressed B/row (positions) |\n|---|---|---|---|---|---|\n")
	var cpu strings.Builder
	for _, s := range stores {
		r := measure(t, s.url, batches)
		fmt.Fprintf(&report, "| %s | %d | %.0f | %s / %s | %s / %s | %.1f |\n", s.name, rows, r.rowsPerSec,
			r.track[0], r.track[1], r.latest[0], r.latest[1], r.bytesPerRow)
		if r.cpu != "" {
			fmt.Fprintf(&cpu, "| %s | %s |\n", s.name, r.cpu)
		}
	}
	if cpu.Len() > 0 {
		report.WriteString("\nCPU seconds of each process while the positions were written (and 5 s after, for the replicas' fetches):\n\n| store | CPU s |\n|---|---|\n" + cpu.String())
	}
	t.Log("\n" + report.String())
	if out := os.Getenv("OVERWATCH_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

type capacity struct {
	rowsPerSec    float64
	track, latest [2]time.Duration
	bytesPerRow   float64
	cpu           string // CPU seconds of each process of OVERWATCH_BENCH_PIDS during the writes
}

// cpuSeconds reads the CPU time (user and system) of each process of
// OVERWATCH_BENCH_PIDS (name=pid, comma-separated: the ClickHouse servers
// and ZooKeeper when they run on this machine for this benchmark alone).
func cpuSeconds(t *testing.T) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, kv := range strings.Split(os.Getenv("OVERWATCH_BENCH_PIDS"), ",") {
		name, pid, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		b, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		utime, _ := strconv.ParseFloat(f[11], 64)
		stime, _ := strconv.ParseFloat(f[12], 64)
		out[name] = (utime + stime) / 100 // USER_HZ
	}
	return out
}

// capacityBatches are vessels sailing at 12 kn on slowly turning courses,
// one report every 10 s each, in batches of size positions.
func capacityBatches(rows, vessels, size int) []*ingest.Batch {
	rng := rand.New(rand.NewPCG(1, 2))
	type ship struct{ lat, lon, course float64 }
	ships := make([]ship, vessels)
	for i := range ships {
		ships[i] = ship{rng.Float64()*120 - 60, rng.Float64()*340 - 170, rng.Float64() * 360}
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []*ingest.Batch
	b := &ingest.Batch{}
	for i := 0; i < rows; i++ {
		v := i % vessels
		s := &ships[v]
		s.course = math.Mod(s.course+rng.NormFloat64()*2+360, 360)
		s.lat += 12.0 / 3600 * 10 / 60 * math.Cos(s.course*math.Pi/180)
		s.lon += 12.0 / 3600 * 10 / 60 * math.Sin(s.course*math.Pi/180)
		ts := t0.Add(time.Duration(i/vessels) * 10 * time.Second)
		imo := overwatch.IMO(9000000 + v)
		b.Positions = append(b.Positions, ingest.PositionRow{
			IMO: imo, MMSI: uint32(200000000 + v), Source: overwatch.SourceAISHub, TS: ts,
			Lat: s.lat, Lon: s.lon, Has: ingest.HasSOG | ingest.HasCOG, SpeedKt: 12 + float32(rng.NormFloat64()*0.3),
			CourseDeg: float32(s.course), NavStatus: 0, MsgType: 1, ReceivedAt: ts.Add(time.Second),
			DedupKey: rng.Uint64(),
		})
		if len(b.Positions) == size || i == rows-1 {
			seen := map[overwatch.IMO]bool{}
			for j := len(b.Positions) - 1; j >= 0; j-- {
				p := &b.Positions[j]
				if seen[p.IMO] {
					continue
				}
				seen[p.IMO] = true
				lat, lon := p.Lat, p.Lon
				b.Latest = append(b.Latest, overwatch.LatestRow{IMO: p.IMO, Source: p.Source, TS: p.TS, MMSI: p.MMSI, Lat: &lat, Lon: &lon, ReceivedAt: p.ReceivedAt})
			}
			out = append(out, b)
			b = &ingest.Batch{}
		}
	}
	return out
}

func measure(t *testing.T, url string, batches []*ingest.Batch) capacity {
	t.Helper()
	ctx := context.Background()
	recreateBench(t, url)
	db, err := clickhouse.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var r capacity
	n := 0
	cpu0 := cpuSeconds(t)
	start := time.Now()
	for _, b := range batches {
		if err := db.WriteBatch(ctx, b); err != nil {
			t.Fatal(err)
		}
		n += len(b.Positions)
	}
	r.rowsPerSec = float64(n) / time.Since(start).Seconds()
	if len(cpu0) > 0 {
		time.Sleep(5 * time.Second)
		var names []string
		cpu1 := cpuSeconds(t)
		for name := range cpu1 {
			names = append(names, name)
		}
		sort.Strings(names)
		total := 0.0
		for _, name := range names {
			d := cpu1[name] - cpu0[name]
			total += d
			r.cpu += fmt.Sprintf("%s %.1f, ", name, d)
		}
		r.cpu += fmt.Sprintf("total %.1f", total)
	}
	if got, err := db.Count(ctx, "SELECT count() FROM positions"); err != nil || got != uint64(n) {
		t.Fatalf("%s holds %d positions (%v), want %d", url, got, err, n)
	}
	day := batches[0].Positions[0].TS
	r.track = latencies(t, 2000, func(i int) error {
		_, err := db.Count(ctx, "SELECT count() FROM positions FINAL WHERE imo = ? AND ts >= ? AND ts < ?",
			overwatch.IMO(9000000+i%5000), day, day.Add(24*time.Hour))
		return err
	})
	r.latest = latencies(t, 2000, func(i int) error {
		_, err := db.Count(ctx, "SELECT count() FROM latest_positions WHERE imo = ?", overwatch.IMO(9000000+i%5000))
		return err
	})
	table := "positions"
	if db.Cluster() != "" {
		table = "positions_local" // system.parts of the node answering: its shard's part of the rows
	}
	var bytes, partRows uint64
	if err := db.Exec(ctx, "SYSTEM FLUSH LOGS"); err != nil {
		t.Log(err)
	}
	row := clickhouseRow(t, url, "SELECT sum(data_compressed_bytes), sum(rows) FROM system.parts WHERE active AND database = ? AND table = ?", db.Database(), table)
	if err := row(&bytes, &partRows); err != nil {
		t.Fatal(err)
	}
	if partRows > 0 {
		r.bytesPerRow = float64(bytes) / float64(partRows)
	}
	return r
}

// latencies runs n calls of fn from 8 clients and returns p50 and p99.
func latencies(t *testing.T, n int, fn func(i int) error) [2]time.Duration {
	t.Helper()
	d := make([]time.Duration, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 8 {
				s := time.Now()
				if err := fn(i); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
					return
				}
				d[i] = time.Since(s)
			}
		}()
	}
	wg.Wait()
	if first != nil {
		t.Fatal(first)
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	round := func(x time.Duration) time.Duration { return x.Round(10 * time.Microsecond) }
	return [2]time.Duration{round(d[n/2]), round(d[n*99/100])}
}

// recreateBench drops the benchmark database (ON CLUSTER for a cluster).
func recreateBench(t *testing.T, url string) {
	t.Helper()
	base, params, _ := strings.Cut(url, "?")
	i := strings.LastIndex(base, "/")
	database := base[i+1:]
	opts, err := ch.ParseDSN(base[:i] + "/default")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ch.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stmt := "DROP DATABASE IF EXISTS " + database
	if _, name, ok := strings.Cut(params, "cluster="); ok {
		stmt += " ON CLUSTER " + name
	}
	if err := conn.Exec(context.Background(), stmt); err != nil {
		t.Fatal(err)
	}
}

// clickhouseRow reads one row of a query on the first node of url.
func clickhouseRow(t *testing.T, url, query string, args ...any) func(dest ...any) error {
	t.Helper()
	base, _, _ := strings.Cut(url, "?")
	opts, err := ch.ParseDSN(base)
	if err != nil {
		t.Fatal(err)
	}
	opts.Addr = opts.Addr[:1]
	conn, err := ch.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return func(dest ...any) error { return conn.QueryRow(context.Background(), query, args...).Scan(dest...) }
}
