package e2e

import (
	"context"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// `overwatch run` on an empty store, the demo of `make run`: it backfills
// the simulated fleet through the real pipeline, prints how to call the
// API with a real simulated IMO, and after a restart resumes where the
// stored positions end instead of backfilling again.
func TestRunDemoBackfillsAndResumes(t *testing.T) {
	chURL := chtest.URL(t, "e2e_demo")
	dataDir := t.TempDir()
	env := map[string]string{
		"CLICKHOUSE_URL": chURL, "OVERWATCH_DATA_DIR": dataDir, "OVERWATCH_SPOOL_DIR": t.TempDir(),
		"OVERWATCH_DEMO_DAYS": "2", "OVERWATCH_DEMO_VESSELS": "60", "OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000",
	}
	out := &apptest.SyncWriter{}
	s := apptest.StartDemo(t, env, out)
	apptest.Eventually(t, 120*time.Second, "the demo's instructions", func() bool { return strings.Contains(out.String(), "Public latest position") })
	m := regexp.MustCompile(`curl (http://\S+)(/v1/ais/any/(\d{7})/location/latest)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no public URL in:\n%s", out.String())
	}
	// The server's replica follows the store within a sync interval.
	apptest.Eventually(t, 10*time.Second, "the printed URL answers", func() bool {
		return s.Do(t, apptest.Request{Path: m[2], IP: apptest.FreshIP()}).StatusCode == 200
	})
	if r := s.Do(t, apptest.Request{Path: m[2], IP: apptest.FreshIP()}); r.JSON(t)["imo_number"] != m[3] {
		t.Fatalf("the printed URL: %d %s", r.StatusCode, r.Body)
	}
	for _, want := range []string{"keys create --email", "/v1/vessels?port=", "truth.jsonl"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the instructions do not mention %q", want)
		}
	}
	before, err := s.Ch.Count(context.Background(), "SELECT count() FROM positions")
	if err != nil || before < 10000 {
		t.Fatalf("backfill stored %d positions (%v)", before, err)
	}
	s.Stop()

	// A restart resumes: no second backfill.
	out2 := &apptest.SyncWriter{}
	s2 := apptest.StartDemo(t, env, out2)
	apptest.Eventually(t, 120*time.Second, "the resumed demo", func() bool { return strings.Contains(out2.String(), "Public latest position") })
	if !strings.Contains(s2.Logs.String(), "resuming the simulated fleet") {
		t.Errorf("the restart did not resume:\n%s", s2.Logs.String())
	}
	after, _ := s2.Ch.Count(context.Background(), "SELECT count() FROM positions FINAL")
	if after > before+before/10 {
		t.Errorf("the restart stored the history again: %d positions, %d before", after, before)
	}
}
