package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/seaport"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// calibrationBody is the JSON of /v1/calibration.
type calibrationBody struct {
	Calibration     read.CalibrationSummary  `json:"calibration"`
	Overrides       []read.CalibrationFactor `json:"overrides"`
	SelfCalibrated  []read.SelfCalibrated    `json:"self_calibrated"`
	ManualOverrides []read.ManualOverride    `json:"manual_overrides"`
}

// The calibration end to end, on its own databases: two real USDA WA_GR101
// reports and a CSV of two more weeks imported with `overwatch import
// actuals`, estimates for the same weeks, the calibration job run with
// `overwatch jobs --job calibration`; /v1/calibration shows the fitted
// factors (new-orleans over 4 weeks; seattle, with 2, none); a manual
// override set with `overwatch calibration set` (port by UUID) is listed
// with who and why and applied by /v1/estimates, named; cleared, the
// self-calibrated factor is back. Responses validated against the OpenAPI
// document; bad parameters are 400s, bad CLI arguments usage errors.
func TestCalibrationEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	env := map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "e2e_cal"), "DATABASE_URL": pgtest.URL(t, "e2e_cal"), "OVERWATCH_LOG_LEVEL": "warn"}
	s := apptest.StartServer(t, env)
	ctx := context.Background()
	cli := func(args ...string) (string, error) {
		t.Helper()
		var out, errs strings.Builder
		err := app.Run(ctx, append([]string{"overwatch"}, args...), apptest.ClockEnv(func(k string) string { return env[k] }), &out, &errs)
		return out.String() + errs.String(), err
	}
	// A clean slate: earlier runs' overrides (the databases are kept).
	for _, c := range []string{"all", "corn"} {
		s.Pg.ClearCalibrationOverride(ctx, "seattle", c)     //nolint:errcheck
		s.Pg.ClearCalibrationOverride(ctx, "new-orleans", c) //nolint:errcheck
	}

	// Actuals: the two real reports and a CSV of two earlier weeks.
	dir := t.TempDir()
	csv := filepath.Join(dir, "older.csv")
	if err := os.WriteFile(csv, []byte("port,week,commodity,tonnes\nnew-orleans,2026-04-13,corn,800000\nnew-orleans,2026-04-20,corn,900000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := cli("import", "actuals", "../sources/actuals/testdata/usda/ams_wa_gr101_grain_inspections_for_export_2026-04-30.txt",
		"../sources/actuals/testdata/usda/ams_wa_gr101_grain_inspections_for_export_2026-08-06.txt", csv)
	if err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	for _, want := range []string{"published 2026-05-04, ISO week of 2026-04-27", "published 2026-08-10, ISO week of 2026-08-03",
		"dropped PACIFIC / COLUMBIA R. (852114 t)", "older.csv: 2 export figures imported"} {
		if !strings.Contains(out, want) {
			t.Errorf("import output lacks %q:\n%s", want, out)
		}
	}
	var published time.Time
	if err := s.Fx.QueryRow(t, `SELECT max(published) FROM export_actuals FINAL WHERE port = 'new-orleans' AND day = toDate('2026-08-03')`).Scan(&published); err != nil ||
		published.Format(time.DateOnly) != "2026-08-10" {
		t.Errorf("published %v, %v; the report was issued on 2026-08-10", published, err)
	}
	// new-orleans actuals per week, read off the reports (Mississippi R.
	// TOTALS) and the CSV.
	actual := map[string]float64{"2026-04-13": 800000, "2026-04-20": 900000, "2026-04-27": 1_120_938, "2026-08-03": 1_253_938}
	estimate := map[string]float64{"2026-04-13": 700000, "2026-04-20": 750000, "2026-04-27": 1_000_000, "2026-08-03": 1_100_000}
	gen := uint64(time.Now().UnixNano())
	var rows [][]any
	for day, est := range estimate {
		d, _ := time.Parse(time.DateOnly, day)
		y, w := d.ISOWeek()
		rows = append(rows, []any{d, gen, "new-orleans", uint16(y), uint8(w), uint32(5), uint32(6), uint32(5), est, 0.7},
			[]any{d, gen, "seattle", uint16(y), uint8(w), uint32(1), uint32(1), uint32(1), 100000.0, 0.5})
	}
	s.Fx.Insert(t, "estimates_weekly", strings.Split("day,gen,port,iso_year,iso_week,vessels,calls,calls_with_draught,tonnage,confidence", ","), rows...)
	for day := range estimate {
		d, _ := time.Parse(time.DateOnly, day)
		s.Fx.RecordGeneration(t, "estimates_weekly", d, gen)
	}
	if out, err := cli("jobs", "--job", "calibration"); err != nil || !strings.Contains(out, "calibration") {
		t.Fatalf("calibration job: %v\n%s", err, out)
	}

	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ip := apptest.FreshIP()
	get := func(path string) apptest.Response {
		t.Helper()
		return s.Do(t, apptest.Request{Path: path, IP: ip, Key: key})
	}
	var sumA, sumE float64
	for d := range actual {
		sumA += actual[d]
		sumE += estimate[d]
	}
	wantSelf := math.Round(sumA/sumE*1e4) / 1e4
	var cal calibrationBody
	apptest.Eventually(t, 10*time.Second, "the self-calibrated factor", func() bool {
		r := get("/v1/calibration")
		if r.StatusCode != 200 {
			t.Fatalf("/v1/calibration: %d %s", r.StatusCode, r.Body)
		}
		cal = calibrationBody{}
		if err := json.Unmarshal(r.Body, &cal); err != nil {
			t.Fatal(err)
		}
		return len(cal.SelfCalibrated) > 0
	})
	var nolaAll *read.SelfCalibrated
	for i, f := range cal.SelfCalibrated {
		if f.Port == "seattle" {
			t.Errorf("seattle has 2 weeks, fewer than the minimum, but got %+v", f)
		}
		if f.Port == "new-orleans" && f.Commodity == "all" {
			nolaAll = &cal.SelfCalibrated[i]
		}
	}
	if nolaAll == nil || nolaAll.Factor != wantSelf || nolaAll.Weeks != 4 || nolaAll.FirstWeek != "2026-04-13" || nolaAll.LastWeek != "2026-08-03" ||
		nolaAll.MAPEAfter >= nolaAll.MAPEBefore || nolaAll.ActualTonnes != sumA {
		t.Fatalf("new-orleans all: %+v, want factor %v over 4 weeks", nolaAll, wantSelf)
	}
	t.Logf("new-orleans: factor %v over %d weeks, MAPE %.2f%% -> %.2f%%", nolaAll.Factor, nolaAll.Weeks, nolaAll.MAPEBefore, nolaAll.MAPEAfter)
	if cal.Calibration.ComputedAt == nil || cal.Calibration.MinWeeks != 4 || len(cal.ManualOverrides) != 0 {
		t.Errorf("calibration %+v, manual %+v", cal.Calibration, cal.ManualOverrides)
	}

	estimates := func(port string) []read.Estimate {
		t.Helper()
		r := get("/v1/estimates?port=" + port + "&limit=200")
		if r.StatusCode != 200 {
			t.Fatalf("estimates: %d %s", r.StatusCode, r.Body)
		}
		var body struct{ Estimates []read.Estimate }
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		return body.Estimates
	}
	for _, e := range estimates("new-orleans") {
		if e.CalibrationSource != "self" || e.CalibrationFactor != wantSelf || e.CalibratedTonnage != math.Round(e.Tonnage*wantSelf) {
			t.Errorf("new-orleans %s: %+v", e.WeekStart, e)
		}
		if e.WeekStart == "2026-08-03" && (e.USDAActuals == nil || *e.USDAActuals != 1_253_938) {
			t.Errorf("new-orleans usda_actuals %v, the report says 1,253,938", e.USDAActuals)
		}
	}

	// A manual override of seattle, by its UUID.
	seattle, _ := seaport.BySlug("seattle")
	if out, err := cli("calibration", "set", "--port", seattle.ID, "--commodity", "all", "--factor", "1.3", "--reason", "Puget Sound split", "--by", "e2e-operator"); err != nil {
		t.Fatalf("calibration set: %v\n%s", err, out)
	}
	if out, err := cli("calibration", "list"); err != nil || !strings.Contains(out, "e2e-operator") || !strings.Contains(out, "Puget Sound split") {
		t.Errorf("calibration list: %v\n%s", err, out)
	}
	es := estimates("seattle")
	if len(es) != 4 {
		t.Fatalf("seattle: %d weeks", len(es))
	}
	for _, e := range es {
		if e.CalibrationSource != "manual" || e.CalibrationFactor != 1.3 || e.CalibratedTonnage != 130000 {
			t.Errorf("seattle %s: %+v", e.WeekStart, e)
		}
	}
	cal = calibrationBody{}
	if err := json.Unmarshal(get("/v1/calibration").Body, &cal); err != nil {
		t.Fatal(err)
	}
	if len(cal.ManualOverrides) != 1 || cal.ManualOverrides[0].SetBy != "e2e-operator" || cal.ManualOverrides[0].Port != "seattle" ||
		cal.ManualOverrides[0].SetAt == "" {
		t.Errorf("manual overrides %+v", cal.ManualOverrides)
	}
	// A commodity override of new-orleans: the port's factor becomes the
	// sum of its commodities' factors in force.
	if out, err := cli("calibration", "set", "--port", "new-orleans", "--commodity", "corn", "--factor", "0.9", "--reason", "corn only"); err != nil {
		t.Fatalf("calibration set corn: %v\n%s", err, out)
	}
	var inForce float64
	for _, f := range calibrationOf(t, get("/v1/calibration")).Overrides {
		if f.Port == "new-orleans" && f.Commodity != "all" {
			inForce += f.Factor
		}
	}
	if e := estimates("new-orleans")[0]; e.CalibrationSource != "manual" || math.Abs(e.CalibrationFactor-inForce) > 1e-3 {
		t.Errorf("new-orleans with a corn override: %+v, want the sum %v", e, inForce)
	}
	for _, args := range [][]string{{"calibration", "clear", "--port", "seattle", "--commodity", "all"}, {"calibration", "clear", "--port", "new-orleans", "--commodity", "corn"}} {
		if out, err := cli(args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	if e := estimates("seattle")[0]; e.CalibrationSource != "none" || e.CalibrationFactor != 1 || e.CalibratedTonnage != e.Tonnage {
		t.Errorf("seattle cleared: %+v", e)
	}

	// Errors.
	for _, args := range [][]string{
		{"calibration", "set", "--port", "atlantis", "--commodity", "all", "--factor", "1.1", "--reason", "r"},
		{"calibration", "set", "--port", "seattle", "--commodity", "all", "--factor", "0", "--reason", "r"},
		{"calibration", "set", "--port", "seattle", "--commodity", "all", "--factor", "1.1"},
		{"calibration", "set", "--port", "seattle", "--commodity", "Corn!", "--factor", "1.1", "--reason", "r"},
		{"calibration", "bogus"},
	} {
		if out, err := cli(args...); !errors.Is(err, app.ErrUsage) {
			t.Errorf("%v: %v\n%s", args, err, out)
		}
	}
	if _, err := cli("calibration", "clear", "--port", "seattle", "--commodity", "all"); err == nil {
		t.Error("clearing a missing override succeeded")
	}
	expect := apptest.Expecter(t)
	expect(get("/v1/estimates?port=atlantis"), 400, "port")
	expect(get("/v1/estimates?limit=0"), 400, "limit")
	expect(s.Do(t, apptest.Request{Path: "/v1/calibration", IP: ip}), 401, "")
}

func calibrationOf(t *testing.T, r apptest.Response) calibrationBody {
	t.Helper()
	var c calibrationBody
	if r.StatusCode != 200 || json.Unmarshal(r.Body, &c) != nil {
		t.Fatalf("/v1/calibration: %d %s", r.StatusCode, r.Body)
	}
	return c
}
