package overwatch

import (
	"context"
	"testing"
	"time"
)

func TestPlanLimitsAndFeatures(t *testing.T) {
	t.Parallel()
	want := map[Plan]struct {
		price, perDay, perCall, history int
		coords, csv, hooks              bool
	}{
		PlanFree:            {0, 50, 20, 7, false, false, false},
		PlanStarter:         {49, 1000, 100, 90, true, true, false},
		PlanPro:             {199, 10000, 500, 0, true, true, true},
		PlanSupplyChainRisk: {499, 10000, 500, 0, true, true, true},
	}
	ps := Plans()
	if len(ps) != len(want) {
		t.Fatalf("%d plans, want %d", len(ps), len(want))
	}
	for _, p := range ps {
		w, ok := want[p.ID]
		if !ok {
			t.Fatalf("unexpected plan %q", p.ID)
		}
		if p.PriceUSDMonth != w.price || p.RequestsPerDay != w.perDay || p.ResultsPerCall != w.perCall ||
			p.HistoryDays != w.history || p.ExactCoordinates != w.coords || p.CSVExport != w.csv || p.Webhooks != w.hooks {
			t.Errorf("plan %s = %+v", p.ID, p)
		}
	}
	for p, want := range map[Plan][2]int{PlanFree: {0, 0}, PlanStarter: {0, 0}, PlanPro: {20, 10_000_000}, PlanSupplyChainRisk: {20, 10_000_000}} {
		info := p.Info()
		if info.ExportsPerDay != want[0] || info.ExportMaxRows != want[1] || p.Includes(FeatureBulkExport) != (want[0] > 0) {
			t.Errorf("plan %s exports: %d a day, %d rows", p, info.ExportsPerDay, info.ExportMaxRows)
		}
	}
	if got := PlanSupplyChainRisk.Info().Products; len(got) != 2 {
		t.Errorf("supply chain risk bundles %v", got)
	}
	if _, ok := ParsePlan("enterprise"); ok {
		t.Error("ParsePlan accepted an unknown plan")
	}
	ps[0].Name = "changed"
	if Plans()[0].Name == "changed" {
		t.Error("Plans returned the package's own slice")
	}
}

func TestCallerClamps(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var anon *Caller
	free := &Caller{Plan: PlanFree}
	starter := &Caller{Plan: PlanStarter}
	pro := &Caller{Plan: PlanPro}
	cases := []struct {
		c            *Caller
		n, max, want int
	}{
		{anon, 50, 200, 20},
		{free, 50, 200, 20},
		{free, 5, 200, 5},
		{starter, 150, 200, 100},
		{pro, 1000, 200, 200},
		{pro, 1000, 0, 500},
		{pro, 400, 500, 400},
	}
	for _, tc := range cases {
		if got := tc.c.ClampLimit(tc.n, tc.max); got != tc.want {
			t.Errorf("%v.ClampLimit(%d, %d) = %d, want %d", tc.c, tc.n, tc.max, got, tc.want)
		}
	}
	if got := free.HistoryFloor(now); !got.Equal(now.Add(-7 * 24 * time.Hour)) {
		t.Errorf("free floor %v", got)
	}
	if got := starter.HistoryFloor(now); !got.Equal(now.Add(-90 * 24 * time.Hour)) {
		t.Errorf("starter floor %v", got)
	}
	if got := pro.HistoryFloor(now); !got.IsZero() {
		t.Errorf("pro floor %v", got)
	}
	old := now.Add(-30 * 24 * time.Hour)
	if got := free.ClampSince(old, now); !got.Equal(now.Add(-7 * 24 * time.Hour)) {
		t.Errorf("free ClampSince %v", got)
	}
	if got := pro.ClampSince(old, now); !got.Equal(old) {
		t.Errorf("pro ClampSince %v", got)
	}
	if anon.Coordinate(1.5) != nil || free.Coordinate(1.5) != nil {
		t.Error("free callers got exact coordinates")
	}
	if v := starter.Coordinate(1.5); v == nil || *v != 1.5 {
		t.Error("starter callers lost coordinates")
	}
	ctx := WithCaller(context.Background(), pro)
	if CallerFrom(ctx) != pro || CallerFrom(context.Background()) != nil {
		t.Error("caller context round trip")
	}
}

func TestPlanFeatures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		plan                  Plan
		coords, csv, webhooks bool
	}{
		{PlanFree, false, false, false},
		{PlanStarter, true, true, false},
		{PlanPro, true, true, true},
		{PlanSupplyChainRisk, true, true, true},
	} {
		if tc.plan.Includes(FeatureExactCoordinates) != tc.coords || tc.plan.Includes(FeatureCSVExport) != tc.csv ||
			tc.plan.Includes(FeatureWebhooks) != tc.webhooks {
			t.Errorf("%s: features wrong", tc.plan)
		}
	}
	var anonymous *Caller
	if err := anonymous.Require(FeatureCSVExport); ErrorCode(err) != Forbidden ||
		err.Error() != "the Starter plan or higher is needed for CSV export; this key's plan is Free" {
		t.Errorf("anonymous CSV: %v", err)
	}
	starter := &Caller{Plan: PlanStarter}
	if err := starter.Require(FeatureWebhooks); err == nil || err.Error() != "the Pro plan or higher is needed for real-time webhooks; this key's plan is Starter" {
		t.Errorf("starter webhooks: %v", err)
	}
	if err := starter.Require(FeatureCSVExport); err != nil {
		t.Errorf("starter CSV: %v", err)
	}
}
