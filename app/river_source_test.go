package app

import (
	"context"
	"encoding/json"
	"os"
	"overwatch/jobs/jobstest"
	riversource "overwatch/sources/river"
	"overwatch/sources/sourcetest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/testclock"
)

// ogcAnswer is the real latest-continuous FeatureCollection of the OGC
// fixtures (sources/river/testdata) with its site USGS-06904500 replaced by
// St. Louis's (no recorded answer for the Mississippi gauges exists).
func ogcAnswer(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("../sources/river/testdata/usgs_waterdata_ogc_fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(all["latest-continuous"]), "USGS-06904500", "USGS-07010000"))
}

// The river job against a local server serving the real answers' bytes
// (site and values substituted, see riverIVAnswer), into the real
// ClickHouse: a good fetch stores the gauges' readings and logs the
// fetch; each failure (and an empty series) fails the run, is counted on
// /metrics and in the fetch log, and leaves the readings as they were.
func TestRiverJob(t *testing.T) {
	db := chtest.DB(t, "river_jobs")
	ctx := context.Background()
	now := testclock.Now().UTC().Truncate(time.Minute)
	iv := sourcetest.RiverIVAnswer(t, []sourcetest.Level{{At: now.Add(-2 * time.Hour), Ft: -4.2}, {At: now.Add(-time.Hour), Ft: -4.5}})
	empty, err := os.ReadFile("../sources/river/testdata/nwis_iv_empty_timeseries_mock.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := sourcetest.NewServer(t, map[string][]byte{"/nwis/iv/": iv, "/empty/": empty,
		"/ogcapi/v0/collections/latest-continuous/items": ogcAnswer(t)})
	job := jobstest.RefreshJob(t, jobs.Sources{RiverLevels: RiverSources(riversource.Config{URL: srv.URL + "/nwis/iv/?format=json&parameterCd=00065,00060&period=P2D", Every: time.Hour}, db)})
	emptyJob := jobstest.RefreshJob(t, jobs.Sources{RiverLevels: RiverSources(riversource.Config{URL: srv.URL + "/empty/", Every: time.Hour}, db)})
	emptyJob.Name = "river_levels_empty"
	sc, err := jobs.NewScheduler([]jobs.Job{job, emptyJob}, jobstest.Locker{}, jobstest.States{}, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.RunNow(ctx, job.Name); err != nil {
		t.Fatal(err)
	}
	snapshot := func() string {
		rs, err := db.RiverLevels(ctx, now.Add(-24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range rs {
			b.WriteString(r.Site + r.Time.Format(time.RFC3339) + strconvF(r.Value) + strings.Join(r.Qualifiers, ",") + r.Source + "\n")
		}
		return b.String()
	}
	good := snapshot()
	if want := "07010000" + now.Add(-time.Hour).Format(time.RFC3339) + "-4.5Pnwis-iv\n"; !strings.HasSuffix(good, want) || strings.Count(good, "\n") != 2 {
		t.Fatalf("stored %q, want …%q", good, want)
	}
	failures := []string{"5xx", "429", "html", "short", "truncated", "slow"}
	for _, m := range failures {
		srv.Set(m)
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := sc.RunNow(rctx, job.Name)
		cancel()
		if err == nil {
			t.Errorf("%s: the run succeeded", m)
		}
		if got := snapshot(); got != good {
			t.Errorf("%s: the readings changed: %q", m, got)
		}
	}
	srv.Set("ok")
	if _, err := sc.RunNow(ctx, emptyJob.Name); err == nil || !strings.Contains(err.Error(), "empty series") {
		t.Errorf("an empty series: %v", err)
	}
	log, err := db.RiverFetchLog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if log.FailuresSince != len(failures)+1 || log.Last.OK || log.Last.Error == "" || !log.LastOK.OK || log.LastOK.Readings != 2 {
		t.Errorf("fetch log: %+v", log)
	}
	reg := prometheus.NewRegistry()
	RegisterJobs(reg, sc)
	if n := jobstest.Metric(t, reg, "overwatch_job_failures_total", job.Name); n != float64(len(failures)) {
		t.Errorf("overwatch_job_failures_total{job=%q} = %v, want %d", job.Name, n, len(failures))
	}

	// The OGC API: one request per gauge, its answer's approval status
	// kept as the qualifier.
	ogc := jobstest.RefreshJob(t, jobs.Sources{RiverLevels: RiverSources(riversource.Config{URL: srv.URL + "/ogcapi/v0/collections/latest-continuous/items", Every: time.Hour}, db)})
	if _, err := ogc.Run(ctx, jobs.State{}); err != nil {
		t.Fatal(err)
	}
	rs, err := db.RiverLevels(ctx, time.Date(2026, 8, 7, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rs {
		if r.Source == "usgs-ogc" && r.Value == 1.59 && strings.Join(r.Qualifiers, ",") == "P" && r.Site == "07010000" {
			found = true
		}
	}
	if !found {
		t.Errorf("OGC readings: %+v", rs)
	}
	if got := RiverSources(riversource.Config{}, db); got.Refresh != nil {
		t.Errorf("a job without a URL: %+v", got)
	}
}
