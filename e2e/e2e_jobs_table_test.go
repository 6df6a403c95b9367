package e2e

import (
	"context"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/postgres"
	"overwatch/postgres/pgtest"
	"slices"
	"strings"
	"testing"
)

// Every job the scheduler registers is a row of the one job table, with
// every source configured (the refreshes, which newScheduler appended
// beside the table, included); with none, the refreshes are listed off
// and not registered.
func TestSchedulerRegistersOnlyTheJobTable(t *testing.T) {
	t.Parallel() // its own databases
	ch := chtest.DB(t, "jobs_table")
	pg, err := postgres.Open(context.Background(), pgtest.URL(t, "jobs_table"))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	on := map[string]string{
		"OVERWATCH_GRAIN_INSPECTIONS_URL": "http://127.0.0.1:1/wa_gr101.txt", "OVERWATCH_SANCTIONS_URL": "http://127.0.0.1:1/",
		"OVERWATCH_AMS_API_KEY": "k", "OVERWATCH_CROP_NDVI_URL": "http://127.0.0.1:1/ndvi.csv",
		"OVERWATCH_COMTRADE_URL": "http://127.0.0.1:1/data", "OVERWATCH_PORTWATCH_URL": "http://127.0.0.1:1/query",
	}
	table := map[string]jobs.Job{}
	for _, j := range jobs.All(jobs.Deps{}) {
		table[j.Name] = j
	}
	for _, env := range []map[string]string{on, apptest.OfflineSources} {
		cfg, err := app.LoadConfig(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		sc, err := app.NewScheduler(cfg, ch, pg, discardLog(), nil)
		if err != nil {
			t.Fatal(err)
		}
		registered := sc.Registered()
		for _, name := range registered {
			if _, ok := table[name]; !ok {
				t.Errorf("%s is registered but not in the job table", name)
			}
		}
		var wantOn []string
		for _, j := range sc.Table() {
			if j.Off == "" {
				wantOn = append(wantOn, j.Name)
			} else if j.Kind != jobs.Refresh || env["OVERWATCH_GDELT_URL"] == "" {
				t.Errorf("%s off: %s", j.Name, j.Off)
			}
		}
		slices.Sort(registered)
		slices.Sort(wantOn)
		if !slices.Equal(registered, wantOn) || len(sc.Table()) != len(table) {
			t.Errorf("registered %v, want %v", registered, wantOn)
		}
		refreshes := 0
		for _, name := range registered {
			if table[name].Kind == jobs.Refresh {
				refreshes++
			}
		}
		if want := map[bool]int{true: 9, false: 0}[env["OVERWATCH_GDELT_URL"] == ""]; refreshes != want {
			t.Errorf("%d refreshes registered, want %d", refreshes, want)
		}
	}
}

// `overwatch jobs --once` runs every derivation of the table: after a
// small world-fleet simulation (its official actuals imported from the
// truth, as the demo does), the chokepoint transits and the calibration
// factors are derived, where the command skipped both; the refreshes whose
// source is off are skipped, each with a log line.
func TestJobsOnceRunsEveryDerivation(t *testing.T) {
	t.Parallel() // its own databases
	r := apptest.SimulateForEval(t, "jobs_once", 3, 100, 35)
	db, err := clickhouse.Open(r.ChURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, err := app.ImportTruthActuals(context.Background(), db, r.TruthPath, r.End); err != nil || n == 0 {
		t.Fatalf("actuals: %d, %v", n, err)
	}
	ch := chtest.Open(t, r.ChURL)
	var out, logs apptest.SyncWriter
	r.Env["OVERWATCH_LOG_LEVEL"] = "info"
	if err := app.Run(context.Background(), []string{"overwatch", "jobs", "--once"}, r.Getenv, &out, &logs); err != nil {
		t.Fatalf("jobs --once: %v\n%s\n%s", err, out.String(), logs.String())
	}
	t.Logf("jobs --once:\n%s", out.String())
	for _, name := range jobs.Derivations(jobs.All(jobs.Deps{})) {
		if !strings.Contains(out.String(), name+" ") {
			t.Errorf("%s did not run:\n%s", name, out.String())
		}
	}
	var transits, factors uint64
	if err := ch.QueryRow(t, `SELECT sum(transits) FROM chokepoint_transits_daily FINAL`).Scan(&transits); err != nil || transits == 0 {
		t.Errorf("chokepoint transits %d, %v", transits, err)
	}
	if err := ch.QueryRow(t, `SELECT count() FROM calibration_factors`).Scan(&factors); err != nil || factors == 0 {
		t.Errorf("calibration factors %d, %v", factors, err)
	}
	for _, name := range []string{"news_refresh", "river_levels", "prices_refresh"} {
		if !strings.Contains(logs.String(), "job skipped") || !strings.Contains(logs.String(), "job="+name) {
			t.Errorf("no log line for the skipped %s:\n%s", name, logs.String())
		}
	}
}
