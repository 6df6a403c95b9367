package accuracy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The accuracy of the trade analytics against the truths the
// simulator injects: a seeded simulation with seasons, cheap older history
// and injected trade truths, through the real pipeline (`overwatch
// simulate`, then `overwatch jobs --once`), every answer read from the
// real server's API with a Pro key (accuracy_trade_api_test.go), then
// scored (accuracy_trade_score_test.go, accuracy_trade_forecast_test.go):
//
//   - shifts: precision and recall; a shift is found when its origin's row
//     has its to destination gaining or its from destination losing, with
//     a start within ±3 weeks (only the shifts the last window can see);
//   - deceptions: precision and recall of suspicious=true against the
//     deceptive legs; the honest late changes must not be flagged;
//   - each anomaly type: precision and recall against the injected weeks
//     (which type is expected to fire: accuracy_trade_forecast_test.go);
//   - flows: the weekly origin→destination tonnes against the truth's;
//   - forecasts: the statistical method's backtest MAPE against the
//     seasonal-naive baseline's, the pipeline's next-week MAE against the
//     true weekly exports.
//
// OVERWATCH_ACCURACY_TRADE chooses the run: smoke (a small run: 100
// vessels over 420 days; its rows are printed, every endpoint must serve
// rows, and the recall of the rows with at least 5 truths in scope (and
// the deceptions' precision) must reach 0.5 — a small fleet carries a few
// voyages per lane and week: tradeMisses) or full (make accuracy-trade: 800 vessels
// over 730 days for each of the seeds of OVERWATCH_ACCURACY_TRADE_SEEDS,
// by default three never used to tune anything (accuracy_trade_seeds_test.go),
// every row at its goal on each, a table per seed and a summary per goal
// written as markdown to OVERWATCH_ACCURACY_OUT; the smoke run is one
// seed, 41). OVERWATCH_ACCURACY_TRADE_VESSELS, _DAYS, _SEED (one seed
// instead of the list) and _FLAGS (the simulator's options, "none" for
// none) change the run; OVERWATCH_ACCURACY_TRADE_KEEP=dir keeps its truth
// and answers (in dir/seed-N when several seeds run), which
// OVERWATCH_ACCURACY_TRADE_RESCORE=dir scores again. Unset, the test is
// skipped.
func TestAccuracyTrade(t *testing.T) {
	mode := os.Getenv("OVERWATCH_ACCURACY_TRADE")
	p := tradePlan{seed: 41}
	switch mode {
	case "smoke":
		p.vessels, p.days, p.minTruth, p.floor = 100, 420, 5, 0.5
	case "full":
		p.vessels, p.days, p.minTruth, p.floor = 800, 730, 1, tradeGoal
	case "":
		t.Skip("OVERWATCH_ACCURACY_TRADE is unset: make accuracy-trade runs the full run (full), smoke a small one")
	default:
		t.Fatalf("OVERWATCH_ACCURACY_TRADE=%q: want smoke or full", mode)
	}
	for name, dst := range map[string]*int{"VESSELS": &p.vessels, "DAYS": &p.days} {
		if v, err := strconv.Atoi(os.Getenv("OVERWATCH_ACCURACY_TRADE_" + name)); err == nil && v > 0 {
			*dst = v
		}
	}
	if dir := os.Getenv("OVERWATCH_ACCURACY_TRADE_RESCORE"); dir != "" { // a kept run, scored again
		kept := loadTradeRun(t, dir)
		rows := scoreTrade(newTradeTruth(apptest.ReadTruth(t, filepath.Join(dir, "truth.jsonl"))), &kept.API, kept.Start, kept.DataEnd)
		t.Logf("kept run %s rescored:\n%s", dir, tradeTable(rows, false))
		logMisses(t, rows)
		rescoreEarnings(t, dir, kept.DataEnd)
		return
	}
	flags := tradeSimFlags(t)
	var runs []tradeSeedRun
	seeds := tradeSeeds(t, mode)
	for _, seed := range seeds {
		p.seed, p.seeds = seed, len(seeds)
		n := len(runs)
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			runs = append(runs, runTradeSeed(t, p, mode, flags))
		})
		if len(runs) == n { // stopped before its rows: the summary says so
			runs = append(runs, tradeSeedRun{seed: seed, head: "The run stopped before it was scored (see the test's log)."})
		}
	}
	if out := os.Getenv("OVERWATCH_ACCURACY_OUT"); out != "" && mode == "full" && len(runs) > 0 {
		if err := os.WriteFile(out, []byte(tradeSeedsMarkdown(runs)), 0o644); err != nil {
			t.Error(err)
		}
	}
	if len(runs) > 1 {
		t.Logf("trade accuracy over %d seeds:\n%s", len(runs), tradeSummaryText(runs))
	}
}

// runTradeSeed is one run of the plan (its seed): simulated, derived,
// read through the API, scored and asserted; its rows come back for the
// tables of every seed.
func runTradeSeed(t *testing.T, p tradePlan, mode string, flags []string) tradeSeedRun {
	began := time.Now()
	name := fmt.Sprintf("acc_trade_%s_%d", mode, p.seed) // a database per mode and seed, kept for a look (or `loadtest trade`)
	r := &apptest.EvalRun{ChURL: chtest.URL(t, name), PgURL: pgtest.URL(t, name)}
	r.End = time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC)
	r.Start = r.End.Add(-time.Duration(p.days) * 24 * time.Hour)
	r.TruthPath = filepath.Join(t.TempDir(), "truth.jsonl")
	r.Env = map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	r.Command(t, io.Discard, append([]string{"simulate", "--seed", strconv.FormatUint(p.seed, 10), "--vessels", strconv.Itoa(p.vessels),
		"--days", strconv.Itoa(p.days), "--start", r.Start.Format(time.RFC3339), "--truth", r.TruthPath}, flags...)...)
	simulated := time.Since(began)
	var summary bytes.Buffer
	r.Command(t, &summary, "jobs", "--once")
	derived := time.Since(began) - simulated
	db, err := clickhouse.Open(r.ChURL)
	if err != nil {
		t.Fatal(err)
	}
	_, dataEnd, err := db.DataSpan(context.Background())
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL})
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	tt := newTradeTruth(apptest.ReadTruth(t, r.TruthPath))
	api := fetchTradeAPI(t, s, key, r.Start, dataEnd)
	scoreEarningsRun(t, s, key, r.TruthPath, mode, dataEnd) // accuracy_earnings_test.go
	s.Stop()
	if dir := os.Getenv("OVERWATCH_ACCURACY_TRADE_KEEP"); dir != "" {
		if p.seeds > 1 { // a folder per seed
			dir = filepath.Join(dir, fmt.Sprintf("seed-%d", p.seed))
		}
		keepTradeRun(t, dir, r.TruthPath, keptTradeRun{Start: r.Start, DataEnd: dataEnd, API: *api})
	}
	rows := scoreTrade(tt, api, r.Start, dataEnd)
	text := tradeTable(rows, false)
	t.Logf("trade accuracy, %d vessels over %d days (seed %d, %s): simulated in %s, derived in %s, scored in %s; %d flows, %d shifts, %d deceptions, %d anomalies, %d backtest rows, forecasts %v\n%s",
		p.vessels, p.days, p.seed, strings.Join(flags, " "), simulated.Round(time.Second), derived.Round(time.Second),
		(time.Since(began) - simulated - derived).Round(time.Second), len(api.flows), len(api.shifts), len(api.deceptions), len(api.anomalies),
		len(api.accuracy), api.forecasts, text)
	if os.Getenv("EVAL_DEBUG") != "" {
		t.Logf("jobs:\n%s", summary.String())
		logMisses(t, rows)
	}
	run := tradeSeedRun{seed: p.seed, rows: rows, head: fmt.Sprintf("%d vessels over %d days (seed %d; `overwatch simulate %s`), %s end to end.",
		p.vessels, p.days, p.seed, strings.Join(flags, " "), time.Since(began).Round(time.Second))}
	for _, m := range []string{"pipeline", "statistical", "ml"} {
		if api.forecasts[m] == 0 {
			t.Errorf("/v1/forecasts?method=%s served no forecast", m)
		}
	}
	// Anomalies pass a significance gate on the vessel counts
	// (docs/forecasts.md): a small fleet may hold none, so their rows are
	// the full run's to judge.
	if len(api.flows) == 0 || len(api.deceptions) == 0 || len(api.accuracy) == 0 || len(api.maturity) == 0 {
		t.Errorf("an endpoint served no rows: %d flows, %d deceptions, %d anomalies, %d backtest rows, %d maturity rows",
			len(api.flows), len(api.deceptions), len(api.anomalies), len(api.accuracy), len(api.maturity))
	}
	for _, miss := range tradeMisses(rows, p) {
		t.Error(miss)
	}
	return run
}

// tradePlan is a run of the trade evaluation: seed, fleet, span, the
// fewest truths (or detections) in scope for a row to be asserted, and the
// floor asserted (the goal in the full run).
type tradePlan struct {
	seed          uint64
	seeds         int // how many seeds the test runs
	vessels, days int
	minTruth      int
	floor         float64
}

// tradeSimFlags are the `overwatch simulate` options of the trade world
// (seasons, injected trade truths, cheap older history), read from the
// command's own usage; the test is skipped when the simulator has none.
func tradeSimFlags(t *testing.T) []string {
	t.Helper()
	if v, ok := os.LookupEnv("OVERWATCH_ACCURACY_TRADE_FLAGS"); ok { // e.g. to try other cadences; "none" for none
		return strings.Fields(strings.ReplaceAll(v, "none", ""))
	}
	var usage bytes.Buffer
	_ = app.Run(context.Background(), []string{"overwatch", "simulate", "-h"}, func(string) string { return "" }, io.Discard, &usage)
	var flags []string
	for _, f := range []string{"seasons", "trade-truths"} {
		if strings.Contains(usage.String(), "-"+f+"\n") || strings.Contains(usage.String(), "-"+f+" ") {
			flags = append(flags, "--"+f)
		}
	}
	if len(flags) < 2 {
		t.Skip("overwatch simulate has no --seasons and --trade-truths yet (write/sim): nothing to measure against")
	}
	return flags
}

// scoreTrade is every row of the trade table.
func scoreTrade(tt *tradeTruth, api *tradeAPI, start, dataEnd time.Time) []tradeRow {
	var rows []tradeRow
	rows = append(rows, scoreShifts(tt, api.shifts, dataEnd))
	rows = append(rows, scoreDeceptions(tt, api.deceptions, start, dataEnd)...)
	rows = append(rows, scoreAnomalies(tt, api.anomalies, start, dataEnd)...)
	rows = append(rows, scoreFlows(tt, api.flows, start, dataEnd)...)
	rows = append(rows, scoreForecasts(tt, api.accuracy, start, dataEnd)...)
	return rows
}

// tradeTable prints the rows as text or markdown.
func tradeTable(rows []tradeRow, markdown bool) string {
	var b strings.Builder
	status := func(r tradeRow) string {
		switch {
		case !r.scored:
			return "nothing in scope"
		case r.info:
			return "—"
		case r.met:
			return "met"
		}
		return "MISSED"
	}
	if markdown {
		b.WriteString("| measure | figure | goal | |\n|---|---|---|---|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.name, r.figure, r.goal, status(r))
		}
		return b.String()
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "%-42s %-16s %-16s %s\n", r.name, status(r), r.goal, r.figure)
	}
	return b.String()
}

// tradeMisses are the asserted rows below the plan's floor: in the full
// run, every scored row below its goal; in the smoke run, the recall of
// the rows with at least minTruth truths, and the precision of the
// deceptions with at least minTruth detections (a small fleet's weekly
// volumes are a few vessels, whose ordinary swings the anomaly types
// flag: their precision is the full run's to judge), but nothing of the
// shifts (a small fleet's origins never reach the detector's minimum
// voyages).
func tradeMisses(rows []tradeRow, p tradePlan) []string {
	var out []string
	for _, r := range rows {
		if !r.scored {
			continue
		}
		if p.floor >= tradeGoal {
			if !r.met {
				out = append(out, fmt.Sprintf("%s: %s, goal %s", r.name, r.figure, r.goal))
			}
			continue
		}
		if r.noSmoke {
			continue
		}
		if r.truth >= p.minTruth && ratio(r.found, r.truth) < p.floor || r.smokeP && r.detected >= p.minTruth && ratio(r.right, r.detected) < p.floor {
			out = append(out, fmt.Sprintf("%s: %s, below the smoke floor %.2f", r.name, r.figure, p.floor))
		}
	}
	return out
}
