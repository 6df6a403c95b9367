package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"overwatch"
)

// sample is one row of the CSV: the process at Elapsed, the public
// lookups of the interval before it, and the keyed reads of that interval.
type sample struct {
	Elapsed     time.Duration
	RSSMB       float64
	HeapMB      float64
	Goroutines  float64
	Lookups     int
	Errors      int // answers other than 200
	P50ms       float64
	P99ms       float64
	Keyed       int
	KeyedErrors int
	KeyedP99ms  float64
}

var csvHeader = []string{"elapsed_s", "rss_mb", "heap_inuse_mb", "goroutines", "lookups", "errors", "p50_ms", "p99_ms",
	"keyed", "keyed_errors", "keyed_p99_ms"}

func (s sample) record() []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	return []string{strconv.Itoa(int(s.Elapsed.Seconds())), f(s.RSSMB), f(s.HeapMB), strconv.Itoa(int(s.Goroutines)),
		strconv.Itoa(s.Lookups), strconv.Itoa(s.Errors), f(s.P50ms), f(s.P99ms),
		strconv.Itoa(s.Keyed), strconv.Itoa(s.KeyedErrors), f(s.KeyedP99ms)}
}

func parseSample(rec []string) (sample, error) {
	if len(rec) != len(csvHeader) {
		return sample{}, fmt.Errorf("%d fields, want %d", len(rec), len(csvHeader))
	}
	var v [11]float64
	for i, field := range rec {
		x, err := strconv.ParseFloat(field, 64)
		if err != nil {
			return sample{}, fmt.Errorf("%s: %w", csvHeader[i], err)
		}
		v[i] = x
	}
	return sample{Elapsed: time.Duration(v[0]) * time.Second, RSSMB: v[1], HeapMB: v[2], Goroutines: v[3],
		Lookups: int(v[4]), Errors: int(v[5]), P50ms: v[6], P99ms: v[7], Keyed: int(v[8]), KeyedErrors: int(v[9]), KeyedP99ms: v[10]}, nil
}

// recorder appends samples to the CSV, flushed after each.
type recorder struct {
	f    *os.File
	w    *csv.Writer
	rows int // samples written
}

func newRecorder(path string) (*recorder, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	r := &recorder{f: f, w: csv.NewWriter(f)}
	if err := r.w.Write(csvHeader); err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

func (r *recorder) add(s sample) error {
	if err := r.w.Write(s.record()); err != nil {
		return err
	}
	r.rows++
	r.w.Flush()
	return r.w.Error()
}

func (r *recorder) close() error {
	r.w.Flush()
	if err := r.w.Error(); err != nil {
		r.f.Close()
		return err
	}
	return r.f.Close()
}

// readCSV reads the samples of a soak CSV.
func readCSV(path string) ([]sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseCSV(f)
}

func parseCSV(r io.Reader) ([]sample, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(csvHeader, ",") {
		return nil, fmt.Errorf("not a soak CSV: the header must be %s", strings.Join(csvHeader, ","))
	}
	var out []sample
	for i, rec := range recs[1:] {
		s, err := parseSample(rec)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+2, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// load sends requests at a steady rate from client addresses that change
// every 40 requests (under the per-minute limits of 60), and keeps the
// latencies of the current interval. request builds the i-th request.
type load struct {
	request func(i int) *http.Request
	ipBase  int // the second octet of the first client address
	hc      *http.Client

	mu        sync.Mutex
	latencies []time.Duration
	errors    int
}

// publicLookups are the public latest-position lookups of the vessels.
func publicLookups(base string, imos []overwatch.IMO) *load {
	return newLoad(100, func(i int) *http.Request {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/v1/ais/any/%s/location/latest", base, imos[i%len(imos)]), nil)
		return req
	})
}

// keyedReads are the keyed readers' requests with a Pro key, in turn: a
// vessel's track (the default 7 days), the vessels of the North Sea (the
// default last day), a search by IMO number.
func keyedReads(base, key string, imos []overwatch.IMO) *load {
	return newLoad(200, func(i int) *http.Request {
		imo := imos[(i/3)%len(imos)]
		var path string
		switch i % 3 {
		case 0:
			path = fmt.Sprintf("/v1/vessels/%s/track", imo)
		case 1:
			path = "/v1/area/vessels?bbox=-5,50,10,62"
		default:
			path = "/v1/vessels/search?q=" + imo.String()
		}
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("X-API-Key", key)
		return req
	})
}

func newLoad(ipBase int, request func(i int) *http.Request) *load {
	return &load{request: request, ipBase: ipBase, hc: &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
}

func (l *load) run(ctx context.Context, rate int) {
	jobs := make(chan int, rate)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				l.one(i)
			}
		}()
	}
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			close(jobs)
			wg.Wait()
			return
		case <-tick.C:
			select {
			case jobs <- i:
			default: // every worker busy: the request is skipped, not queued
			}
		}
	}
}

func (l *load) one(i int) {
	n := i / 40
	ip := fmt.Sprintf("10.%d.%d.%d", l.ipBase+(n>>16)%50, (n>>8)&255, n&255)
	req := l.request(i)
	req.Header.Set("X-Forwarded-For", ip)
	start := time.Now()
	resp, err := l.hc.Do(req)
	took := time.Since(start)
	ok := err == nil && resp.StatusCode == http.StatusOK
	if err == nil {
		io.Copy(io.Discard, resp.Body) //nolint:errcheck
		resp.Body.Close()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !ok {
		l.errors++
		return
	}
	l.latencies = append(l.latencies, took)
}

// take returns the interval's counts and percentiles and starts a new one.
func (l *load) take() (lookups, errors int, p50, p99 float64) {
	l.mu.Lock()
	lat, errs := l.latencies, l.errors
	l.latencies, l.errors = nil, 0
	l.mu.Unlock()
	return len(lat) + errs, errs, percentile(lat, 0.50), percentile(lat, 0.99)
}

// percentile is the nearest-rank percentile in milliseconds (0 when none).
func percentile(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := int(q*float64(len(s))+0.999999) - 1
	rank = min(max(rank, 0), len(s)-1)
	return float64(s[rank]) / float64(time.Millisecond)
}

// summarize compares the first and the last tenth of the run, and gives
// the slopes of RSS and goroutines after the warm-up (the first tenth when
// warmup is 0).
func summarize(s []sample, warmup time.Duration) string {
	if len(s) == 0 {
		return "soak: no samples"
	}
	tenth := max(1, len(s)/10)
	avg := func(part []sample, f func(sample) float64) float64 {
		var t float64
		for _, x := range part {
			t += f(x)
		}
		return t / float64(len(part))
	}
	first, last := s[:tenth], s[len(s)-tenth:]
	var lookups, errs int
	maxP99 := 0.0
	for _, x := range s {
		lookups += x.Lookups
		errs += x.Errors
		maxP99 = max(maxP99, x.P99ms)
	}
	line := func(name string, f func(sample) float64) string {
		return fmt.Sprintf("  %-12s first tenth %8.2f  last tenth %8.2f\n", name, avg(first, f), avg(last, f))
	}
	var keyed, keyedErrs int
	for _, x := range s {
		keyed += x.Keyed
		keyedErrs += x.KeyedErrors
	}
	warm := s[tenth:] // after the warm-up: the first tenth, or the given time
	if warmup > 0 {
		i := sort.Search(len(s), func(i int) bool { return s[i].Elapsed > warmup })
		warm = s[min(i, len(s)-1):]
	}
	return fmt.Sprintf("soak: %d samples over %v, %d lookups, %d errors, worst interval p99 %.2f ms; %d keyed reads, %d errors\n",
		len(s), s[len(s)-1].Elapsed, lookups, errs, maxP99, keyed, keyedErrs) +
		fmt.Sprintf("  from %v on, per hour (least squares, share of the mean): RSS %+.2f%%, goroutines %+.2f%%\n", warm[0].Elapsed,
			slopePerHour(warm, func(x sample) float64 { return x.RSSMB }), slopePerHour(warm, func(x sample) float64 { return x.Goroutines })) +
		line("RSS MB", func(x sample) float64 { return x.RSSMB }) +
		line("heap MB", func(x sample) float64 { return x.HeapMB }) +
		line("goroutines", func(x sample) float64 { return x.Goroutines }) +
		line("p50 ms", func(x sample) float64 { return x.P50ms }) +
		line("p99 ms", func(x sample) float64 { return x.P99ms })
}

// slopePerHour is the least-squares slope of f over the samples' elapsed
// time, per hour, as a percentage of f's mean (0 with fewer than two).
func slopePerHour(s []sample, f func(sample) float64) float64 {
	if len(s) < 2 {
		return 0
	}
	var n, sx, sy, sxx, sxy float64
	for _, x := range s {
		h, y := x.Elapsed.Hours(), f(x)
		n, sx, sy, sxx, sxy = n+1, sx+h, sy+y, sxx+h*h, sxy+h*y
	}
	den := n*sxx - sx*sx
	if den == 0 || sy == 0 {
		return 0
	}
	return 100 * (n*sxy - sx*sy) / den / (sy / n)
}
