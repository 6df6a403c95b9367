package accuracy

import (
	"context"
	"fmt"
	"io"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The accuracy of every detector against the simulator's ground truth:
// seeded simulations through the real pipeline, the
// derivations run by the jobs command, and every event read back from the
// real server's API, as a user would (accuracy_api_test.go), then matched
// to the truth (accuracy_score_test.go and the matching rules of
// e2e_risk_single_test.go and e2e_risk_pair_test.go).
//
// OVERWATCH_ACCURACY chooses the run:
//   - smoke (make test): one seed, 300 vessels over 21 days, in each of
//     the three settings; every row with enough true events must reach
//     the floor of its setting.
//   - full (make accuracy): three seeds of the default fleet (800 vessels)
//     over 30 days in each setting; the table is printed, written as
//     markdown to OVERWATCH_ACCURACY_OUT when set, and every row must
//     reach the goal of its setting.
//
// The settings: the simulator's default behaviour rates, those rates
// doubled, and sparse sampling (the default rates, a position every 30
// minutes under way, every 90 minutes stopped, static data every 3 hours).
// The goal is a precision and a recall of 0.95 or more at default and
// doubled rates, 0.90 or more sparse. Unset, the test is skipped: it is
// the evaluation of make test and make accuracy, not a unit test.
func TestAccuracy(t *testing.T) {
	mode := os.Getenv("OVERWATCH_ACCURACY")
	var p accPlan
	switch mode {
	case "smoke":
		p = accPlan{seeds: []uint64{31}, vessels: 300, days: 21, minTruth: 20}
	case "full":
		p = accPlan{seeds: []uint64{31, 32, 33}, vessels: 800, days: 30, minTruth: 1}
	case "":
		t.Skip("OVERWATCH_ACCURACY is unset: make test runs the smoke run (smoke), make accuracy the full run (full)")
	default:
		t.Fatalf("OVERWATCH_ACCURACY=%q: want smoke or full", mode)
	}
	if v := os.Getenv("OVERWATCH_ACCURACY_SEEDS"); v != "" { // e.g. 41,42 to look at other seeds
		p.seeds = nil
		for _, s := range strings.Split(v, ",") {
			n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
			if err != nil {
				t.Fatalf("OVERWATCH_ACCURACY_SEEDS: %v", err)
			}
			p.seeds = append(p.seeds, n)
		}
	}
	if v, err := strconv.Atoi(os.Getenv("OVERWATCH_ACCURACY_VESSELS")); err == nil && v > 0 {
		p.vessels = v
	}
	only := os.Getenv("OVERWATCH_ACCURACY_SETTINGS") // e.g. sparse
	table := &accTable{}
	began := time.Now()
	for _, st := range accSettings {
		if only != "" && !strings.Contains(","+only+",", ","+st.name+",") {
			continue
		}
		table.settings = append(table.settings, st)
		for _, seed := range p.seeds {
			t.Run(fmt.Sprintf("%s/seed=%d", st.name, seed), func(t *testing.T) {
				table.add(st.name, accuracyRun(t, st, seed, p.vessels, p.days))
			})
		}
	}
	text := table.text(p)
	t.Logf("accuracy against the ground truth, %d vessels over %d days, seeds %v, in %s:\n%s", p.vessels, p.days, p.seeds,
		time.Since(began).Round(time.Second), text)
	if out := os.Getenv("OVERWATCH_ACCURACY_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table.markdown(p)), 0o644); err != nil {
			t.Error(err)
		}
	}
	for _, miss := range table.misses(p) {
		t.Error(miss)
	}
}

// accPlan is a run of the evaluation: seeds, fleet, span, and the fewest
// true events for a row's floor to be asserted.
type accPlan struct {
	seeds         []uint64
	vessels, days int
	minTruth      int
}

// accSetting is a simulation setting, its `overwatch simulate` flags and
// the goal its rows must reach.
type accSetting struct {
	name        string
	flags       []string
	goal        float64
	staticEvery time.Duration // the static reports' interval, when thinned (0: the AIS cadence)
}

// accSettings are the three settings of the evaluation.
var accSettings = []accSetting{
	{name: "default", goal: 0.95},
	{name: "doubled", flags: doubledRates(), goal: 0.95},
	{name: "sparse", flags: []string{"--downsample", "180"}, goal: 0.90, staticEvery: 3 * time.Hour},
}

// doubledRates are the flags that double every behaviour rate of
// sim.DefaultRates.
func doubledRates() []string {
	return []string{"--gap-rate", "0.04", "--dark-call-rate", "1", "--sts-rate", "0.7", "--loiter-rate", "0.07",
		"--identity-rate", "0.08", "--mismatch-rate", "0.06", "--destination-rate", "0.1", "--spoof-rate", "0.024"}
}

// accuracyRun simulates one seed in one setting, derives, serves and
// scores it.
func accuracyRun(t *testing.T, st accSetting, seed uint64, vessels, days int) []accRow {
	began := time.Now()
	// A database per run: a test binary creates each afresh once.
	r := sharedFleet(t, fmt.Sprintf("accuracy_%s_%d", st.name, seed), seed, vessels, days, st.flags...)
	simulated := time.Since(began)
	for _, job := range []string{"port_calls", "destination_reliability", "risk_events"} {
		r.Command(t, io.Discard, "jobs", "--job", job)
	}
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
	if dir := os.Getenv("OVERWATCH_ACCURACY_TRUTH_DIR"); dir != "" { // keep the truth to look into a miss
		if b, err := os.ReadFile(r.TruthPath); err != nil {
			t.Error(err)
		} else if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("truth-%s-%d.jsonl", st.name, seed)), b, 0o644); err != nil {
			t.Error(err)
		}
	}
	truth := apptest.ReadTruth(t, r.TruthPath)
	api := fetchAccuracyAPI(t, s, key, fleetOf(truth))
	s.Stop()
	rows := scoreAccuracy(truth, api, r.Start, r.End, dataEnd, st.staticEvery)
	t.Logf("%s, seed %d: simulated in %s, derived in %s, %d events read through the API in %s",
		st.name, seed, simulated.Round(time.Second), derived.Round(time.Second), len(api.events),
		(time.Since(began) - simulated - derived).Round(time.Second))
	if os.Getenv("EVAL_DEBUG") != "" { // every miss of every row, logged
		for _, row := range rows {
			t.Logf("%s, seed %d: %s: %s", st.name, seed, row.name, row.cell())
			for _, m := range row.misses {
				t.Logf("%s: %s", row.name, m)
			}
		}
	}
	return rows
}

// accRow is one row of the table for one run: true events in scope and
// how many were found; detections in scope and how many matched. A row
// without detections (agreement rows) has its share in found/truth.
type accRow struct {
	name            string
	truth, found    int
	detected, right int
	recallOnly      bool // no precision: the row measures coverage
	misses          []string
}

// accTable sums the rows of each setting over the seeds.
type accTable struct {
	settings []accSetting
	order    []string
	sums     map[string]map[string]*accRow // setting → row → sums
}

func (tb *accTable) add(setting string, rows []accRow) {
	if tb.sums == nil {
		tb.sums = map[string]map[string]*accRow{}
	}
	if tb.sums[setting] == nil {
		tb.sums[setting] = map[string]*accRow{}
	}
	for _, r := range rows {
		s := tb.sums[setting][r.name]
		if s == nil {
			s = &accRow{name: r.name, recallOnly: r.recallOnly}
			tb.sums[setting][r.name] = s
			if !contains(tb.order, r.name) {
				tb.order = append(tb.order, r.name)
			}
		}
		s.truth += r.truth
		s.found += r.found
		s.detected += r.detected
		s.right += r.right
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// cell is a row's figures in a setting: precision, recall (true events).
func (r *accRow) cell() string {
	if r == nil {
		return "—"
	}
	if r.recallOnly {
		return fmt.Sprintf("R %.3f (%d)", ratio(r.found, r.truth), r.truth)
	}
	return fmt.Sprintf("%.3f / %.3f (%d)", ratio(r.right, r.detected), ratio(r.found, r.truth), r.truth)
}

func (tb *accTable) text(p accPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-40s", "detector: precision / recall (true events)")
	for _, st := range tb.settings {
		fmt.Fprintf(&b, " %-26s", st.name)
	}
	b.WriteString("\n")
	for _, name := range tb.order {
		fmt.Fprintf(&b, "%-40s", name)
		for _, st := range tb.settings {
			fmt.Fprintf(&b, " %-26s", tb.sums[st.name][name].cell())
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (tb *accTable) markdown(p accPlan) string {
	var b strings.Builder
	b.WriteString("| detector |")
	for _, st := range tb.settings {
		fmt.Fprintf(&b, " %s |", st.name)
	}
	b.WriteString("\n|---|")
	for range tb.settings {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, name := range tb.order {
		fmt.Fprintf(&b, "| %s |", name)
		for _, st := range tb.settings {
			fmt.Fprintf(&b, " %s |", tb.sums[st.name][name].cell())
		}
		b.WriteString("\n")
	}
	return b.String()
}

// misses lists the rows below the goal of their setting (those with at
// least minTruth true events, or detections).
func (tb *accTable) misses(p accPlan) []string {
	var out []string
	for _, st := range tb.settings {
		for _, name := range tb.order {
			r := tb.sums[st.name][name]
			if r == nil || r.truth < p.minTruth && r.detected < p.minTruth {
				continue
			}
			pr, rc := ratio(r.right, r.detected), ratio(r.found, r.truth)
			if rc < st.goal || !r.recallOnly && pr < st.goal {
				out = append(out, fmt.Sprintf("%s, %s: %s, below the goal of %.2f", st.name, name, r.cell(), st.goal))
			}
		}
	}
	return out
}
