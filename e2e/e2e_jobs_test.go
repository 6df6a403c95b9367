package e2e

import (
	"io"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// `overwatch run` schedules the jobs and runs them once at start-up: the
// derived tables' ages appear in /v1/health, the job counters at /metrics,
// and POST /v1/congestion/refresh recomputes at once for a keyed caller.
func TestRunSchedulesJobsAndRefreshes(t *testing.T) {
	t.Parallel() // its own databases
	s := apptest.StartCommand(t, "run", map[string]string{
		"CLICKHOUSE_URL":         chtest.URL(t, "e2e_jobs"),
		"DATABASE_URL":           pgtest.URL(t, "e2e_jobs"),
		"OVERWATCH_DATA_DIR":     t.TempDir(),
		"OVERWATCH_SPOOL_DIR":    t.TempDir(),
		"OVERWATCH_DEMO_DAYS":    "2",
		"OVERWATCH_DEMO_VESSELS": "60",
	})
	apptest.Eventually(t, 180*time.Second, "every derived table computed", func() bool {
		r := s.Do(t, apptest.Request{Path: "/v1/health", IP: apptest.FreshIP()})
		if r.StatusCode != 200 {
			return false
		}
		derived, _ := r.JSON(t)["derived"].(map[string]any)
		for _, name := range []string{"port_calls", "congestion_daily", "berth_weekly", "fleet_age_weekly", "estimates_weekly", "destination_reliability"} {
			d, _ := derived[name].(map[string]any)
			if d == nil || d["computed_at"] == nil {
				return false
			}
		}
		return true
	})
	resp, err := http.Get(s.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, name := range []string{"overwatch_job_runs_total", "overwatch_job_last_duration_seconds", "overwatch_job_lag_seconds", "overwatch_job_last_success_timestamp_seconds"} {
		m := regexp.MustCompile(`(?m)^` + name + `\{job="port_calls"\} ([0-9.e+-]+)$`).FindSubmatch(body)
		if m == nil {
			t.Fatalf("%s{job=\"port_calls\"} missing from /metrics:\n%.3000s", name, body)
		}
		if v, _ := strconv.ParseFloat(string(m[1]), 64); name == "overwatch_job_runs_total" && v < 1 {
			t.Errorf("%s = %s", name, m[1])
		}
	}
	for _, name := range []string{"overwatch_job_failures_total", "overwatch_job_skipped_total"} {
		if !regexp.MustCompile(`(?m)^` + name + `\{job="congestion"\} `).Match(body) {
			t.Errorf("%s missing from /metrics", name)
		}
	}

	if r := s.Do(t, apptest.Request{Method: "POST", Path: "/v1/congestion/refresh", IP: apptest.FreshIP()}); r.StatusCode != 401 {
		t.Fatalf("refresh without a key: %d %s", r.StatusCode, r.Body)
	}
	key, _ := s.NewKey(t, "refresh@example.com", overwatch.PlanStarter)
	r := s.Do(t, apptest.Request{Method: "POST", Path: "/v1/congestion/refresh", IP: apptest.FreshIP(), Key: key})
	if r.StatusCode != 200 {
		t.Fatalf("refresh: %d %s", r.StatusCode, r.Body)
	}
	body2 := r.JSON(t)
	runs, _ := body2["result"].(map[string]any)["recomputed"].([]any)
	if body2["success"] != true || len(runs) != 2 {
		t.Fatalf("refresh body: %s", r.Body)
	}
	for i, want := range []string{"port_calls", "congestion"} {
		run := runs[i].(map[string]any)
		if run["job"] != want || run["from"] == nil || run["rows"].(float64) <= 0 {
			t.Errorf("refresh run %d: %v", i, run)
		}
	}
}
