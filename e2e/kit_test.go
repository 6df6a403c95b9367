package e2e

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/read"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// sourceJobs are the refresh jobs of the job table that the sources given
// turn on, as newScheduler builds them.
func sourceJobs(s jobs.Sources) []jobs.Job {
	var out []jobs.Job
	for _, j := range jobs.All(jobs.Deps{Sources: s}) {
		if j.Kind == jobs.Refresh && j.Off == "" {
			out = append(out, j)
		}
	}
	return out
}

// refreshJob is the one refresh job of the table that the sources given
// turn on.
func refreshJob(t testing.TB, s jobs.Sources) jobs.Job {
	t.Helper()
	on := sourceJobs(s)
	if len(on) != 1 {
		t.Fatalf("%d refresh jobs on, want 1", len(on))
	}
	return on[0]
}

// sanctionsDataDir finds shared/data/sanctions above the working directory.
func sanctionsDataDir(t *testing.T) string {
	t.Helper()
	dir, _ := os.Getwd()
	for range 6 {
		d := filepath.Join(dir, "shared", "data", "sanctions")
		if _, err := os.Stat(filepath.Join(d, "sanctions_ofac_sdn_2021-07_full.csv")); err == nil {
			return d
		}
		dir = filepath.Dir(dir)
	}
	t.Skip("the OFAC files of shared/data/sanctions are not here")
	return ""
}

// jobMetric is the value of a job's metric in the registry (-1: absent).
func jobMetric(t *testing.T, reg *prometheus.Registry, name, job string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "job" && l.GetValue() == job {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return -1
}

// memLocker grants every claim.
type memLocker struct{}

func (memLocker) Claim(context.Context, string, time.Duration) (func(context.Context) error, bool, error) {
	return func(context.Context) error { return nil }, true, nil
}

// memStates keeps no state.
type memStates struct{}

func (memStates) JobState(_ context.Context, name string) (jobs.State, error) {
	return jobs.State{Name: name}, nil
}

func (memStates) RecordRun(context.Context, string, time.Time, time.Duration, jobs.Result, error) error {
	return nil
}

func (memStates) JobStates(context.Context) ([]jobs.State, error) { return nil, nil }

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// sourceServer serves the real bytes of the market sources by path (FRED
// by its id parameter) and, in a failure mode, the failures sources give:
// 5xx, 429 with Retry-After, an HTML error page served with 200, a body
// cut short of its Content-Length, a body cut short without one, a
// timeout.
type sourceServer struct {
	*httptest.Server
	mu   sync.Mutex
	mode string
}

func (s *sourceServer) set(mode string) {
	s.mu.Lock()
	s.mode = mode
	s.mu.Unlock()
}

func newSourceServer(t *testing.T, files map[string][]byte) *sourceServer {
	s := &sourceServer{mode: "ok"}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		mode := s.mode
		s.mu.Unlock()
		key := r.URL.Path
		if id := r.URL.Query().Get("id"); id != "" {
			key += "?id=" + id
		}
		body, ok := files[key]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch mode {
		case "5xx":
			http.Error(w, "upstream down", http.StatusServiceUnavailable)
		case "429":
			w.Header().Set("Retry-After", "120")
			http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
		case "html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head><body><h1>Maintenance</h1></body></html>")) //nolint:errcheck
		case "short":
			w.Header().Set("Content-Length", "999999")
			w.Write(body[:len(body)/2]) //nolint:errcheck
		case "truncated":
			w.Write(body[:len(body)*2/3]) //nolint:errcheck
		case "slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		default:
			w.Write(body) //nolint:errcheck
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// gdeltFixture is a file of sources/gdelt/testdata: built from GDELT's
// documented format (no recorded GDELT response may be redistributed).
func gdeltFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../sources/gdelt/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fetchPredictions reads every page of GET /v1/predictions with the query.
func fetchPredictions(t *testing.T, s *apptest.TestServer, key, query string) []read.Prediction {
	t.Helper()
	var out []read.Prediction
	cursor := ""
	for {
		path := "/v1/predictions?limit=500&" + query
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		res := s.Do(t, apptest.Request{Path: path, Key: key, IP: apptest.FreshIP()})
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, res.Body)
		}
		var page struct {
			Predictions []read.Prediction `json:"predictions"`
			Pagination  read.Pagination   `json:"pagination"`
		}
		if err := json.Unmarshal(res.Body, &page); err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Predictions...)
		if !page.Pagination.HasMore {
			return out
		}
		cursor = *page.Pagination.NextCursor
	}
}

func ts(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}
