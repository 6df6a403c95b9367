package feed

import (
	"bufio"
	"context"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"overwatch"
	"overwatch/write/ais"
	"overwatch/write/ingest"
)

// recorder is a sink that keeps what it is given; the feeds' tests compare
// it with decoding the same capture directly. The whole path into the real
// pipeline and ClickHouse is tested by the replay integration test.
type recorder struct {
	mu                         sync.Mutex
	reports                    []ingest.Report
	received, decoded, invalid uint64
	tagBlockSums               map[string]uint64
	dropped                    int
}

func (r *recorder) Submit(_ context.Context, rep ingest.Report) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reports = append(r.reports, rep)
	return nil
}

func (r *recorder) TrySubmit(rep ingest.Report) bool {
	return r.Submit(context.Background(), rep) == nil
}

func (r *recorder) CountFeed(received, decoded uint64, invalid map[string]uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.received += received
	r.decoded += decoded
	for _, n := range invalid {
		r.invalid += n
	}
}

func (r *recorder) CountTagBlockSums(byReason map[string]uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tagBlockSums == nil {
		r.tagBlockSums = map[string]uint64{}
	}
	for reason, n := range byReason {
		r.tagBlockSums[reason] += n
	}
}

// feedCounts are the counters a feed reported.
type feedCounts struct{ received, decoded, invalid uint64 }

// counts returns the counters reported so far.
func (r *recorder) counts() feedCounts {
	r.mu.Lock()
	defer r.mu.Unlock()
	return feedCounts{r.received, r.decoded, r.invalid}
}

func (r *recorder) snapshot() []ingest.Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ingest.Report(nil), r.reports...)
}

func (r *recorder) waitFor(t *testing.T, n int) []ingest.Report {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := r.snapshot()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("got %d reports, want %d", len(got), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// capture is a real NMEA capture with timestamps in its lines, so that the
// reports do not depend on the clock.
const capture = "../ais/testdata/ais_goais_aistest_unixns.nmea"

func captureLines(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(capture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// expected decodes lines directly: what a feed carrying them must produce.
func expected(t *testing.T, lines []string, src overwatch.Source, now time.Time) []ingest.Report {
	t.Helper()
	dec := ais.NewDecoder(ais.Options{Now: func() time.Time { return now }})
	var out []ingest.Report
	for _, l := range lines {
		if m, ok := dec.Decode([]byte(l)); ok {
			if r, ok := FromAIS(&m, src, now); ok {
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("the capture decodes to no reports")
	}
	return out
}

// sameReports compares reports ignoring ReceivedAt, in a stable order.
func sameReports(t *testing.T, got, want []ingest.Report) {
	t.Helper()
	norm := func(rs []ingest.Report) []ingest.Report {
		out := make([]ingest.Report, len(rs))
		for i, r := range rs {
			r.ReceivedAt = time.Time{}
			out[i] = r
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].MMSI != out[j].MMSI {
				return out[i].MMSI < out[j].MMSI
			}
			if !out[i].TS.Equal(out[j].TS) {
				return out[i].TS.Before(out[j].TS)
			}
			return out[i].Type < out[j].Type
		})
		return out
	}
	g, w := norm(got), norm(want)
	if len(g) != len(w) {
		t.Fatalf("%d reports, want %d", len(g), len(w))
	}
	for i := range g {
		if !reportsEqual(g[i], w[i]) {
			t.Fatalf("report %d:\n got %+v\nwant %+v", i, g[i], w[i])
		}
	}
}

func reportsEqual(a, b ingest.Report) bool {
	a.TS, b.TS = a.TS.UTC().Round(0), b.TS.UTC().Round(0)
	a.ETA, b.ETA = a.ETA.UTC().Round(0), b.ETA.UTC().Round(0)
	a.ReceivedAt, b.ReceivedAt = time.Time{}, time.Time{}
	return a == b
}
