package main

import (
	"context"
	"strconv"
	"testing"

	"overwatch"
	"overwatch/write"
)

// POST /v1/congestion/refresh runs one refresh at a time for the whole
// service (409 while another instance holds the refresh lock, which spends
// nothing of the caller's cooldown) and once per account per
// write.RefreshCooldown (429 with Retry-After and a JSON error sooner);
// other accounts are not held back, and the answer keeps its shape.
func TestCongestionRefreshOneAtATimeWithCooldown(t *testing.T) {
	s := startServer(t, nil)
	free, _ := s.newKey(t, uniqueEmail(t), overwatch.PlanFree)
	pro, _ := s.newKey(t, uniqueEmail(t), overwatch.PlanPro)
	refresh := func(key string) response {
		t.Helper()
		return s.do(t, request{method: "POST", path: "/v1/congestion/refresh", ip: freshIP(), key: key})
	}
	refreshed := func(r response) {
		t.Helper()
		body := r.json(t)
		runs, _ := body["result"].(map[string]any)["recomputed"].([]any)
		if r.StatusCode != 200 || body["success"] != true || len(runs) != 2 {
			t.Fatalf("refresh: %d %s", r.StatusCode, r.body)
		}
	}

	// Another instance refreshing: its lock, held here.
	ctx := context.Background()
	release, ok, err := s.pg.Claim(ctx, write.RefreshLock, 0)
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if r := refresh(free); r.StatusCode != 409 {
		t.Errorf("while another refresh runs: %d %s", r.StatusCode, r.body)
	}
	if err := release(ctx); err != nil {
		t.Fatal(err)
	}

	refreshed(refresh(free))
	r := refresh(free)
	retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.StatusCode != 429 || retry < 1 || retry > int(write.RefreshCooldown.Seconds()) {
		t.Errorf("within the cooldown: %d Retry-After %q %s", r.StatusCode, r.Header.Get("Retry-After"), r.body)
	}
	refreshed(refresh(pro))
}
