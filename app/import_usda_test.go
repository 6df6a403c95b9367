package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"overwatch/jobs"
	"overwatch/jobs/jobstest"
	"overwatch/maritime/calibration"
	"overwatch/sources/actuals"
)

// usdaReport is a real WA_GR101 issue (sources/actuals/testdata/usda).
func usdaReport(t *testing.T, weekEnding string) []byte {
	t.Helper()
	b, err := os.ReadFile("../sources/actuals/testdata/usda/ams_wa_gr101_grain_inspections_for_export_" + weekEnding + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fakeActuals is a actuals.Store that keeps what was inserted.
type fakeActuals struct {
	mu   sync.Mutex
	rows []calibration.Actual
}

func (f *fakeActuals) InsertActuals(_ context.Context, rows []calibration.Actual) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rows = append(f.rows, rows...)
	return nil
}

// The grain_inspections job against a local server: the real report is
// imported; every kind of failure (5xx, 429, an HTML error page served with
// 200, a truncated body, a timeout) fails the run, imports nothing, and
// leaves the figures of the last good import alone; the scheduler counts
// the failures (what /metrics shows as overwatch_job_failures_total).
func TestGrainInspectionsJob(t *testing.T) {
	real := usdaReport(t, "2026-08-06")
	var mu sync.Mutex
	mode := "ok"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		m := mode
		mu.Unlock()
		switch m {
		case "ok":
			w.Header().Set("Content-Type", "text/plain")
			w.Write(real) //nolint:errcheck
		case "5xx":
			http.Error(w, "upstream down", http.StatusBadGateway)
		case "429":
			w.Header().Set("Retry-After", "60")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case "html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!DOCTYPE html><html><head><title>Maintenance</title></head><body>USDA Market News is down for maintenance</body></html>")) //nolint:errcheck
		case "truncated":
			w.Write(real[:len(real)*2/3]) //nolint:errcheck
		case "slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}
	}))
	defer srv.Close()
	store := &fakeActuals{}
	job := jobstest.RefreshJob(t, jobs.Sources{GrainInspections: jobs.SourceRefresh{Refresh: actuals.GrainInspections(store, srv.URL+"/mnreports/wa_gr101.txt", nil), Every: time.Hour}})
	if job.Name != "grain_inspections" || job.Writes[0] != "export_actuals" {
		t.Fatalf("job %+v", job)
	}
	ctx := context.Background()
	res, err := job.Run(ctx, jobs.State{})
	if err != nil || res.Rows == 0 || res.Detail["published"] != "2026-08-10" {
		t.Fatalf("good fetch: %+v %v", res, err)
	}
	good := len(store.rows)
	var nola float64
	for _, r := range store.rows {
		if r.Port == "new-orleans" {
			nola += r.Tonnes
		}
	}
	if nola != 1_253_938 { // the Mississippi R. row's TOTALS in the file
		t.Errorf("new-orleans %v t, the report says 1,253,938", nola)
	}

	// Each failure through the scheduler, whose stats /metrics exports.
	sc, err := jobs.NewScheduler([]jobs.Job{job}, jobstest.Locker{}, jobstest.States{}, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	failures := []string{"5xx", "429", "html", "truncated", "slow"}
	for _, m := range failures {
		mu.Lock()
		mode = m
		mu.Unlock()
		rctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		_, err := sc.RunNow(rctx, job.Name)
		cancel()
		if err == nil {
			t.Errorf("%s: the run succeeded", m)
		}
		if len(store.rows) != good {
			t.Errorf("%s: %d rows written after a failed fetch", m, len(store.rows)-good)
		}
	}
	if s := sc.Stats()[job.Name]; s.Failures != int64(len(failures)) || s.Runs != int64(len(failures)) {
		t.Errorf("stats %+v, want %d failed runs", s, len(failures))
	}
	reg := prometheus.NewRegistry()
	RegisterJobs(reg, sc)
	if n := jobstest.Metric(t, reg, "overwatch_job_failures_total", job.Name); n != float64(len(failures)) {
		t.Errorf("overwatch_job_failures_total{job=\"grain_inspections\"} = %v", n)
	}
	if _, err := actuals.GrainInspections(store, "file:///etc/passwd", nil)(ctx); err == nil || !strings.Contains(err.Error(), "http") {
		t.Errorf("a file URL: %v", err)
	}
	if _, err := actuals.GrainInspections(store, "", nil)(ctx); err == nil {
		t.Error("no URL: the run succeeded")
	}
}
