package calibration

import (
	"math"
	"testing"
	"time"
)

func monday(i int) time.Time { return time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 7*i) }

func TestFit(t *testing.T) {
	t.Parallel()
	var weeks []Week
	// new-orleans: the estimates are 80% of the actuals, corn 3/4 of them,
	// soybeans 1/4; one week is off (the estimate is twice the usual).
	for i := range 6 {
		est := 800.0
		if i == 2 {
			est = 1600
		}
		weeks = append(weeks, Week{Port: "new-orleans", Week: monday(i), Estimate: est, Actuals: map[string]float64{"corn": 750, "soybeans": 250}})
	}
	// seattle: only 3 weeks, fewer than MinWeeks.
	for i := range 3 {
		weeks = append(weeks, Week{Port: "seattle", Week: monday(i), Estimate: 100, Actuals: map[string]float64{"wheat": 100}})
	}
	// tacoma: estimates all zero: no factor.
	for i := range 5 {
		weeks = append(weeks, Week{Port: "tacoma", Week: monday(i), Estimate: 0, Actuals: map[string]float64{"wheat": 10}})
	}
	got := Fit(weeks, MinWeeks)
	if len(got) != 3 {
		t.Fatalf("%d factors: %+v", len(got), got)
	}
	all, corn, soy := got[0], got[1], got[2]
	if all.Commodity != All || corn.Commodity != "corn" || soy.Commodity != "soybeans" || all.Port != "new-orleans" {
		t.Fatalf("order: %+v", got)
	}
	// Ratio of sums: 6000 / 5600.
	if math.Abs(all.Factor-6000.0/5600) > 1e-12 || all.Weeks != 6 || !all.From.Equal(monday(0)) || !all.To.Equal(monday(5)) {
		t.Errorf("all: %+v", all)
	}
	if math.Abs(corn.Factor+soy.Factor-all.Factor) > 1e-12 {
		t.Errorf("commodity factors %v + %v do not add up to %v", corn.Factor, soy.Factor, all.Factor)
	}
	// Before: 5 weeks 20% off, one 60% over: MAPE (5*20+60)/6.
	if math.Abs(all.MAPEBefore-160.0/6) > 1e-9 {
		t.Errorf("MAPE before %v", all.MAPEBefore)
	}
	// After: f*800 = 857.14 (14.29% under) five times, f*1600 71.4% over.
	f := 6000.0 / 5600
	wantAfter := 100 * (5*math.Abs(f*800-1000)/1000 + math.Abs(f*1600-1000)/1000) / 6
	if math.Abs(all.MAPEAfter-wantAfter) > 1e-9 || all.MAPEAfter >= all.MAPEBefore {
		t.Errorf("MAPE after %v, want %v (< %v)", all.MAPEAfter, wantAfter, all.MAPEBefore)
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	self := []Factor{
		{Port: "new-orleans", Commodity: All, Factor: 1.2},
		{Port: "new-orleans", Commodity: "corn", Factor: 0.9},
		{Port: "new-orleans", Commodity: "soybeans", Factor: 0.3},
		{Port: "seattle", Commodity: All, Factor: 0.8},
		{Port: "tacoma", Commodity: All, Factor: 1.5},
	}
	manual := []Manual{
		{Port: "new-orleans", Commodity: "soybeans", Factor: 0.5},
		{Port: "tacoma", Commodity: All, Factor: 1.1},
		{Port: "santos", Commodity: "soybeans", Factor: 0.7},
	}
	got := Resolve(self, manual)
	cases := []struct {
		port   string
		factor float64
		source string
	}{
		{"new-orleans", 0.9 + 0.5, SourceManual}, // commodity override: the sum
		{"seattle", 0.8, SourceSelf},
		{"tacoma", 1.1, SourceManual}, // manual wins
		{"santos", 0.7, SourceManual},
		{"rotterdam", 1, SourceNone},
	}
	for _, c := range cases {
		f, s := ForPort(got, c.port)
		if math.Abs(f-c.factor) > 1e-12 || s != c.source {
			t.Errorf("%s: %v %s, want %v %s", c.port, f, s, c.factor, c.source)
		}
	}
	for _, f := range got {
		if f.Port == "new-orleans" && f.Commodity == "soybeans" && (f.Factor != 0.5 || f.Source != SourceManual) {
			t.Errorf("soybeans in force: %+v", f)
		}
		if f.Port == "new-orleans" && f.Commodity == "corn" && (f.Factor != 0.9 || f.Source != SourceSelf) {
			t.Errorf("corn in force: %+v", f)
		}
	}
}
