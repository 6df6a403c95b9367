package main

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

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/chokepoint"
	"overwatch/read"
	"overwatch/write/gdelt"
)

// gdeltFixture is a file of write/gdelt/testdata: built from GDELT's
// documented format (no recorded GDELT response may be redistributed).
func gdeltFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../write/gdelt/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The news job against a local GDELT stand-in and the real ClickHouse:
// the articles stored once per URL with the subject matched; GDELT's
// plain-text query error (HTTP 200, text/html) failing that query alone;
// the rate-limit notice (429, and with 200) stopping the run, the next
// run resuming with the query not answered; an unreachable service; every
// failure keeping what was stored and counting on /metrics; at most one
// request per interval.
func TestNewsRefreshJob(t *testing.T) {
	db := chtest.DB(t, "news_job")
	ctx := context.Background()
	artlist := gdeltFixture(t, "artlist_documented_format.json")
	var mu sync.Mutex
	mode := "ok"
	var times []time.Time
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		m := mode
		times = append(times, time.Now())
		queries = append(queries, r.URL.Query().Get("query"))
		mu.Unlock()
		if r.URL.Query().Get("mode") != "ArtList" || r.URL.Query().Get("format") != "json" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		switch {
		case m == "429":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write(gdeltFixture(t, "error_rate_limit.txt"))
		case m == "notice200":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(gdeltFixture(t, "error_rate_limit.txt"))
		case m == "queryerror" && strings.Contains(r.URL.Query().Get("query"), "Suez"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(gdeltFixture(t, "error_phrase_too_short.txt"))
		case m == "truncated":
			w.Header().Set("Content-Type", "application/json")
			w.Write(gdeltFixture(t, "artlist_truncated.json"))
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Write(artlist)
		}
	}))
	defer srv.Close()
	subjects := []gdelt.Subject{{Chokepoint: chokepoint.Suez, Names: []string{"Suez Canal"}}, {Port: "santos", Names: []string{"port of Santos"}}}
	const interval = 300 * time.Millisecond
	job := newsJob(t, db, srv.URL+"/api/v2/doc/doc", subjects, interval)
	down := newsJob(t, db, "http://127.0.0.1:1/api/v2/doc/doc", subjects, interval)
	down.Name = "news_refresh_down"
	sc, err := jobs.NewScheduler([]jobs.Job{job, down}, memLocker{}, memStates{}, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.RunNow(ctx, job.Name); err != nil {
		t.Fatal(err)
	}
	stored := func() []chokepoint.Disruption {
		rows, err := db.Disruptions(ctx, read.DisruptionRequest{Since: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	// Both subjects got the same two articles: stored once per URL.
	rows := stored()
	if len(rows) != 2 || rows[0].Source != chokepoint.SourceGDELT || !rows[0].PublishedAt.Equal(time.Date(2024, 1, 2, 15, 0, 0, 0, time.UTC)) ||
		rows[0].SourceName != "example.com" || (rows[0].Port == "" && rows[0].Chokepoint == "") {
		t.Fatalf("stored %+v", rows)
	}
	mu.Lock()
	for i := 1; i < len(times); i++ {
		if d := times[i].Sub(times[i-1]); d < interval-20*time.Millisecond {
			t.Errorf("requests %s apart", d)
		}
	}
	if !strings.HasPrefix(queries[0], `"Suez Canal" (strike OR`) {
		t.Errorf("query %q", queries[0])
	}
	mu.Unlock()

	set := func(m string) { mu.Lock(); mode, queries = m, nil; mu.Unlock() }
	fails := 0
	for _, m := range []string{"queryerror", "429", "notice200", "truncated"} {
		set(m)
		if _, err := sc.RunNow(ctx, job.Name); err == nil {
			t.Errorf("%s: the run succeeded", m)
		} else {
			fails++
		}
		if got := stored(); len(got) != 2 {
			t.Errorf("%s: %d signals stored after the failure", m, len(got))
		}
		mu.Lock()
		n := len(queries)
		mu.Unlock()
		switch m {
		case "queryerror", "truncated":
			if n != 2 {
				t.Errorf("%s: %d requests, want both queries asked", m, n)
			}
		default:
			if n != 1 {
				t.Errorf("%s: %d requests, want the run stopped at the first", m, n)
			}
		}
	}
	// After a rate-limited run, the next resumes with the query not answered.
	set("429")
	sc.RunNow(ctx, job.Name) //nolint:errcheck
	mu.Lock()
	first := queries[0]
	mu.Unlock()
	set("ok")
	if _, err := sc.RunNow(ctx, job.Name); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if queries[0] != first {
		t.Errorf("resumed with %q, want %q", queries[0], first)
	}
	mu.Unlock()
	fails++
	if _, err := sc.RunNow(ctx, down.Name); err == nil {
		t.Error("unreachable: the run succeeded")
	}
	reg := prometheus.NewRegistry()
	registerJobs(reg, sc)
	if n := jobMetric(t, reg, "overwatch_job_failures_total", job.Name); n != float64(fails) {
		t.Errorf("failures %v, want %d", n, fails)
	}
	if n := jobMetric(t, reg, "overwatch_job_failures_total", down.Name); n != 1 {
		t.Errorf("unreachable failures %v", n)
	}
	if got := newsJobs(newsConfig{URL: "https://x.test", Every: time.Hour, MinInterval: time.Second}, db); len(got) != 1 {
		t.Errorf("news jobs %v", got)
	} else if len(newsSubjects()) != 8+40 {
		t.Errorf("%d subjects", len(newsSubjects()))
	}
	if got := newsJobs(newsConfig{}, db); len(got) != 0 {
		t.Errorf("off: %d jobs", len(got))
	}
}

// The PortWatch job against a local stand-in and the real ClickHouse: the
// rows of the watched chokepoints stored and read back as each one's
// newest day; the ArcGIS error answer (HTTP 200), an HTML page and a 429
// failing the run with what was stored kept and the failures counted.
func TestPortWatchRefreshJob(t *testing.T) {
	db := chtest.DB(t, "portwatch_job")
	ctx := context.Background()
	read := func(name string) []byte {
		b, err := os.ReadFile("../../write/portwatch/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var mu sync.Mutex
	mode, query := "ok", ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		m := mode
		query = r.URL.RawQuery
		mu.Unlock()
		switch m {
		case "error":
			w.Header().Set("Content-Type", "application/json")
			w.Write(read("error_invalid_query.json"))
		case "html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!DOCTYPE html><html><body>Service unavailable</body></html>"))
		case "429":
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Write(read("daily_chokepoints_documented_layout.json"))
		}
	}))
	defer srv.Close()
	all := newsJobs(newsConfig{PortWatchURL: srv.URL + "/Daily_Chokepoints_Data/FeatureServer/0/query", PortWatchEvery: time.Hour}, db)
	if len(all) != 1 || all[0].Name != "portwatch_refresh" {
		t.Fatalf("jobs %+v", all)
	}
	sc, err := jobs.NewScheduler(all, memLocker{}, memStates{}, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.RunNow(ctx, "portwatch_refresh"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(query, "f=json") || !strings.Contains(query, "resultRecordCount=1000") {
		t.Errorf("query %q", query)
	}
	latest, err := db.PortWatchLatest(ctx)
	if err != nil || len(latest) != 3 || latest[2].Chokepoint != "suez" || latest[2].Total != 74 || latest[2].Tanker != 18 ||
		latest[2].Day.Format(time.DateOnly) != "2024-01-02" || latest[0].Chokepoint != "cape-of-good-hope" {
		t.Fatalf("latest %+v %v", latest, err)
	}
	for _, m := range []string{"error", "html", "429"} {
		mu.Lock()
		mode = m
		mu.Unlock()
		if _, err := sc.RunNow(ctx, "portwatch_refresh"); err == nil {
			t.Errorf("%s: the run succeeded", m)
		}
		if got, _ := db.PortWatchLatest(ctx); len(got) != 3 {
			t.Errorf("%s: %d rows kept", m, len(got))
		}
	}
	reg := prometheus.NewRegistry()
	registerJobs(reg, sc)
	if n := jobMetric(t, reg, "overwatch_job_failures_total", "portwatch_refresh"); n != 3 {
		t.Errorf("failures %v", n)
	}
}
