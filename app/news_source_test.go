package app

import (
	"context"
	"errors"
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
	"overwatch/jobs/jobstest"
	"overwatch/maritime/chokepoint"
	"overwatch/read"
	"overwatch/sources"
	"overwatch/sources/gdelt"
)

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

// The news job against a local GDELT stand-in and the real ClickHouse:
// each subject's ArtList, then its ToneChart; the articles stored once per
// URL with the subject matched and the tone of the ToneChart bin that
// lists them; GDELT's plain-text query error (HTTP 200, text/html) failing
// that subject alone; the rate-limit notice (429, and with 200) stopping
// the run, the next run resuming with the subject not answered; a failed
// ToneChart storing nothing of its subject; an unreachable service; every
// failure keeping what was stored, tones included, and counting on
// /metrics; at most one request per interval.
func TestNewsRefreshJob(t *testing.T) {
	db := chtest.DB(t, "news_job")
	ctx := context.Background()
	artlist, tonechart := gdeltFixture(t, "artlist_documented_format.json"), gdeltFixture(t, "tonechart_documented_format.json")
	var mu sync.Mutex
	mode := "ok"
	var times []time.Time
	var asked []string // mode query
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		mu.Lock()
		m := mode
		times = append(times, time.Now())
		asked = append(asked, q.Get("mode")+" "+q.Get("query"))
		mu.Unlock()
		if q.Get("format") != "json" || q.Get("timespan") != "1d" || q.Get("mode") != "ArtList" && q.Get("mode") != "ToneChart" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		tone := q.Get("mode") == "ToneChart"
		switch {
		case m == "429", m == "tone429" && tone:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write(gdeltFixture(t, "error_rate_limit.txt"))
		case m == "notice200":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(gdeltFixture(t, "error_rate_limit.txt"))
		case m == "queryerror" && strings.Contains(q.Get("query"), "Suez"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(gdeltFixture(t, "error_phrase_too_short.txt"))
		case m == "truncated":
			w.Header().Set("Content-Type", "application/json")
			w.Write(gdeltFixture(t, "artlist_truncated.json"))
		case m == "tonetruncated" && tone:
			w.Header().Set("Content-Type", "application/json")
			w.Write(gdeltFixture(t, "tonechart_truncated.json"))
		case m == "toneless" && tone:
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{}`))
		case tone:
			w.Header().Set("Content-Type", "application/json")
			w.Write(tonechart)
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
	sc, err := jobs.NewScheduler([]jobs.Job{job, down}, jobstest.Locker{}, jobstest.States{}, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.RunNow(ctx, job.Name); err != nil {
		t.Fatal(err)
	}
	stored := func() map[string]chokepoint.Disruption {
		rows, err := db.Disruptions(ctx, read.DisruptionRequest{Since: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]chokepoint.Disruption{}
		for _, d := range rows {
			out[d.URL] = d
		}
		return out
	}
	const suez, santos = "https://example.com/news/2024/01/02/suez-canal-traffic-halted-after-grounding", "https://example.org/port-of-santos-strike"
	// Both subjects got the same two articles: stored once per URL, each
	// with its bin's tone.
	toned := func(when string) {
		t.Helper()
		rows := stored()
		if len(rows) != 2 || rows[suez].Tone != -7 || rows[santos].Tone != 2 {
			t.Errorf("%s: stored %+v", when, rows)
		}
	}
	rows := stored()
	if d := rows[suez]; len(rows) != 2 || d.Source != chokepoint.SourceGDELT || !d.PublishedAt.Equal(time.Date(2024, 1, 2, 15, 0, 0, 0, time.UTC)) ||
		d.SourceName != "example.com" || (d.Port == "" && d.Chokepoint == "") {
		t.Fatalf("stored %+v", rows)
	}
	toned("first run")
	mu.Lock()
	for i := 1; i < len(times); i++ {
		if d := times[i].Sub(times[i-1]); d < interval-20*time.Millisecond {
			t.Errorf("requests %s apart", d)
		}
	}
	if len(asked) != 4 || !strings.HasPrefix(asked[0], `ArtList "Suez Canal" (strike OR`) || asked[1] != "ToneChart "+asked[0][len("ArtList "):] {
		t.Errorf("asked %q", asked)
	}
	mu.Unlock()

	set := func(m string) { mu.Lock(); mode, asked = m, nil; mu.Unlock() }
	fails := 0
	for m, requests := range map[string]int{
		"queryerror":    3, // Suez fails, Santos is asked both
		"429":           1, // the run stops at the first
		"notice200":     1,
		"truncated":     2, // each ArtList fails, no ToneChart asked
		"tone429":       2, // the first ToneChart stops the run
		"tonetruncated": 4, // each subject fails, stored as it was
		"toneless":      0, // no failure: the tones stored stay
	} {
		set(m)
		if _, err := sc.RunNow(ctx, job.Name); (err == nil) != (m == "toneless") {
			t.Errorf("%s: run error %v", m, err)
		} else if err != nil {
			fails++
		}
		toned("after " + m)
		mu.Lock()
		if n := len(asked); requests > 0 && n != requests {
			t.Errorf("%s: %d requests %q, want %d", m, n, asked, requests)
		}
		mu.Unlock()
	}
	// After a rate-limited run, the next resumes with the subject not answered.
	set("429")
	sc.RunNow(ctx, job.Name) //nolint:errcheck
	fails++
	mu.Lock()
	first := asked[0]
	mu.Unlock()
	set("ok")
	if _, err := sc.RunNow(ctx, job.Name); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if asked[0] != first {
		t.Errorf("resumed with %q, want %q", asked[0], first)
	}
	mu.Unlock()
	if _, err := sc.RunNow(ctx, down.Name); err == nil {
		t.Error("unreachable: the run succeeded")
	}
	toned("after an unreachable service")
	reg := prometheus.NewRegistry()
	RegisterJobs(reg, sc)
	if n := jobstest.Metric(t, reg, "overwatch_job_failures_total", job.Name); n != float64(fails) {
		t.Errorf("failures %v, want %d", n, fails)
	}
	if n := jobstest.Metric(t, reg, "overwatch_job_failures_total", down.Name); n != 1 {
		t.Errorf("unreachable failures %v", n)
	}
	if got := newsJobs(newsConfig{URL: "https://x.test", Every: time.Hour, MinInterval: time.Second}, db); len(got) != 1 {
		t.Errorf("news jobs %v", got)
	} else if len(gdelt.Subjects()) != 8+40 {
		t.Errorf("%d subjects", len(gdelt.Subjects()))
	}
	if got := newsJobs(newsConfig{}, db); len(got) != 0 {
		t.Errorf("off: %d jobs", len(got))
	}
}

// The GDELT client against a local server serving the fixtures' bytes
// and each failure: a timeout, a 5xx, an HTML error page, a 429, a
// truncated body; the ones that say GDELT did not answer or asks to be
// asked later (timeout, 429) stop the news run, the others fail a subject.
func TestGDELTClient(t *testing.T) {
	var mu sync.Mutex
	mode := "ok"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		m := mode
		mu.Unlock()
		tone := r.URL.Query().Get("mode") == "ToneChart"
		switch m {
		case "timeout":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		case "503":
			http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
		case "html":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			w.Write([]byte("<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>"))
		case "html200":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!DOCTYPE html><html><body>Maintenance</body></html>"))
		case "429":
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write(gdeltFixture(t, "error_rate_limit.txt"))
		case "truncated":
			name := "artlist_truncated.json"
			if tone {
				name = "tonechart_truncated.json"
			}
			w.Header().Set("Content-Length", "5000") // a cut connection
			w.Write(gdeltFixture(t, name))
		default:
			name := "artlist_documented_format.json"
			if tone {
				name = "tonechart_documented_format.json"
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(gdeltFixture(t, name))
		}
	}))
	defer srv.Close()
	client := gdelt.Client{Base: srv.URL + "/api/v2/doc/doc", Timeout: 300 * time.Millisecond}
	ctx := context.Background()
	tones, err := client.Tones(ctx, `"Suez Canal"`)
	if err != nil || len(tones) != 3 || tones["https://example.org/port-of-santos-strike"] != 2 {
		t.Fatalf("tones %v, %v", tones, err)
	}
	if arts, err := client.Articles(ctx, `"Suez Canal"`); err != nil || len(arts) != 2 {
		t.Fatalf("articles %v, %v", arts, err)
	}
	for _, c := range []struct {
		mode  string
		stops bool
	}{{"timeout", true}, {"503", false}, {"html", false}, {"html200", false}, {"429", true}, {"truncated", false}} {
		mu.Lock()
		mode = c.mode
		mu.Unlock()
		started := time.Now()
		_, terr := client.Tones(ctx, `"Suez Canal"`)
		_, aerr := client.Articles(ctx, `"Suez Canal"`)
		for _, err := range []error{terr, aerr} {
			var unreachable sources.UnreachableError
			stops := errors.Is(err, gdelt.ErrRateLimited) || errors.As(err, &unreachable) || errors.Is(err, context.DeadlineExceeded)
			if err == nil || stops != c.stops {
				t.Errorf("%s: %v (stops the run %v, want %v)", c.mode, err, stops, c.stops)
			}
		}
		if took := time.Since(started); took > 2*time.Second {
			t.Errorf("%s: %s", c.mode, took)
		}
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
		b, err := os.ReadFile("../sources/portwatch/testdata/" + name)
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
	sc, err := jobs.NewScheduler(all, jobstest.Locker{}, jobstest.States{}, discardLog())
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
	RegisterJobs(reg, sc)
	if n := jobstest.Metric(t, reg, "overwatch_job_failures_total", "portwatch_refresh"); n != 3 {
		t.Errorf("failures %v", n)
	}
}
