package accuracy

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The trade evaluation over several seeds: its goals are chosen on one
// seed and confirmed on others, so the full run's default seeds are three
// that no threshold, rule or setting was ever tuned on (the tuning seeds
// are 41 and 42), chosen before any of their results was seen.

// tradeUntunedSeeds are the full run's default seeds: none used for any
// choice.
var tradeUntunedSeeds = []uint64{977, 1201, 2718}

// tradeSeedRun is one seed's scored rows and the line that heads its table.
type tradeSeedRun struct {
	seed uint64
	head string
	rows []tradeRow
}

// tradeSeeds are the seeds the test runs: OVERWATCH_ACCURACY_TRADE_SEED
// (one), else OVERWATCH_ACCURACY_TRADE_SEEDS (separated by commas or
// spaces), else the smoke run's 41 or the full run's untuned seeds.
func tradeSeeds(t *testing.T, mode string) []uint64 {
	t.Helper()
	if v := os.Getenv("OVERWATCH_ACCURACY_TRADE_SEED"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("OVERWATCH_ACCURACY_TRADE_SEED=%q: %v", v, err)
		}
		return []uint64{seed}
	}
	if v := os.Getenv("OVERWATCH_ACCURACY_TRADE_SEEDS"); strings.TrimSpace(v) != "" {
		seeds, err := parseTradeSeeds(v)
		if err != nil {
			t.Fatalf("OVERWATCH_ACCURACY_TRADE_SEEDS=%q: %v", v, err)
		}
		return seeds
	}
	if mode == "full" {
		return tradeUntunedSeeds
	}
	return []uint64{41}
}

// parseTradeSeeds reads seeds separated by commas or spaces; a seed named
// twice runs once.
func parseTradeSeeds(v string) ([]uint64, error) {
	var out []uint64
	seen := map[uint64]bool{}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		seed, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("seed %q is not a whole number", f)
		}
		if !seen[seed] {
			seen[seed] = true
			out = append(out, seed)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no seed")
	}
	return out, nil
}

// tradeSummaryRow is one goal over every seed: met on all, or the seeds
// that missed it (with their figures), or those with nothing in scope.
type tradeSummaryRow struct {
	name, goal, verdict string
	met                 bool
}

// tradeSummary is a row per goal (the first seed's order; the rows shown
// for information are left out).
func tradeSummary(runs []tradeSeedRun) []tradeSummaryRow {
	var names []string
	goal := map[string]string{}
	type seedRow struct {
		seed uint64
		row  tradeRow
	}
	bySeed := map[string][]seedRow{}
	for _, r := range runs {
		for _, row := range r.rows {
			if row.info {
				continue
			}
			if _, ok := goal[row.name]; !ok {
				names = append(names, row.name)
				goal[row.name] = row.goal
			}
			bySeed[row.name] = append(bySeed[row.name], seedRow{r.seed, row})
		}
	}
	var out []tradeSummaryRow
	var stopped []string
	scoredRuns := 0
	for _, r := range runs {
		if len(r.rows) == 0 {
			stopped = append(stopped, fmt.Sprint(r.seed))
		} else {
			scoredRuns++
		}
	}
	for _, name := range names {
		var missed, empty []string
		for _, sr := range bySeed[name] {
			switch {
			case !sr.row.scored:
				empty = append(empty, fmt.Sprint(sr.seed))
			case !sr.row.met:
				missed = append(missed, fmt.Sprintf("seed %d (%s)", sr.seed, sr.row.figure))
			}
		}
		scored := len(bySeed[name]) - len(empty)
		s := tradeSummaryRow{name: name, goal: goal[name], met: len(missed) == 0}
		switch {
		case len(missed) > 0:
			s.verdict = "MISSED on " + strings.Join(missed, "; ")
		case scored == len(runs):
			s.verdict = fmt.Sprintf("met on all %d seeds", len(runs))
		case scored == scoredRuns:
			s.verdict = fmt.Sprintf("met on the %d seeds scored", scored)
		default:
			s.verdict = fmt.Sprintf("met on the %d seeds with something in scope", scored)
		}
		if len(empty) > 0 {
			s.verdict += "; nothing in scope on seed " + strings.Join(empty, ", ")
		}
		if len(stopped) > 0 {
			s.met = false
			s.verdict += "; NOT SCORED on seed " + strings.Join(stopped, ", ") + " (the run stopped)"
		}
		out = append(out, s)
	}
	return out
}

// tradeSeedsMarkdown is the markdown of a multi-seed run: the summary per
// goal, then each seed's table.
func tradeSeedsMarkdown(runs []tradeSeedRun) string {
	var b strings.Builder
	seeds := make([]string, len(runs))
	for i, r := range runs {
		seeds[i] = fmt.Sprint(r.seed)
	}
	fmt.Fprintf(&b, "Seeds %s.\n\n| goal | | over the seeds |\n|---|---|---|\n", strings.Join(seeds, ", "))
	for _, s := range tradeSummary(runs) {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", s.name, s.goal, s.verdict)
	}
	for _, r := range runs {
		fmt.Fprintf(&b, "\n### Seed %d\n\n%s\n\n%s", r.seed, r.head, tradeTable(r.rows, true))
	}
	return b.String()
}

// tradeSummaryText is the summary per goal as text.
func tradeSummaryText(runs []tradeSeedRun) string {
	var b strings.Builder
	for _, s := range tradeSummary(runs) {
		fmt.Fprintf(&b, "%-42s %-16s %s\n", s.name, s.goal, s.verdict)
	}
	return b.String()
}

// TestTradeScoreSeeds: the seeds' list parses (commas, spaces, a repeat),
// and the summary says met on all, names the seed that missed with its
// figure, and leaves the information rows out.
func TestTradeScoreSeeds(t *testing.T) {
	seeds, err := parseTradeSeeds(" 977,1201  2718,977")
	if err != nil || fmt.Sprint(seeds) != "[977 1201 2718]" {
		t.Fatalf("parseTradeSeeds = %v, %v", seeds, err)
	}
	if _, err := parseTradeSeeds("977,x"); err == nil {
		t.Error("a seed that is no number was accepted")
	}
	row := func(name string, met, scored bool, figure string) tradeRow {
		return tradeRow{name: name, goal: "≥ 0.90", met: met, scored: scored, figure: figure}
	}
	info := tradeRow{name: "ml", info: true, scored: true}
	runs := []tradeSeedRun{
		{seed: 977, rows: []tradeRow{row("shifts", true, true, "R 1.0"), row("trailing", false, true, "R 0.818 (9/11)"), info}},
		{seed: 1201, rows: []tradeRow{row("shifts", true, true, "R 1.0"), row("trailing", true, true, "R 0.95"), info}},
		{seed: 2718, rows: []tradeRow{row("shifts", true, false, ""), row("trailing", true, true, "R 1.0"), info}},
	}
	sum := tradeSummary(runs)
	if len(sum) != 2 {
		t.Fatalf("summary has %d rows, want 2 (the information row left out): %+v", len(sum), sum)
	}
	if sum[0].name != "shifts" || !sum[0].met || sum[0].verdict != "met on the 2 seeds with something in scope; nothing in scope on seed 2718" {
		t.Errorf("shifts: %+v", sum[0])
	}
	if sum[1].met || sum[1].verdict != "MISSED on seed 977 (R 0.818 (9/11))" {
		t.Errorf("trailing: %+v", sum[1])
	}
	runs[0].rows[1].met = true
	if s := tradeSummary(runs)[1]; !s.met || s.verdict != "met on all 3 seeds" {
		t.Errorf("trailing met everywhere: %+v", s)
	}
	stopped := append(runs[:2:2], tradeSeedRun{seed: 2718, head: "stopped"})
	if s := tradeSummary(stopped)[1]; s.met || s.verdict != "met on the 2 seeds scored; NOT SCORED on seed 2718 (the run stopped)" {
		t.Errorf("a seed whose run stopped: %+v", s)
	}
	md := tradeSeedsMarkdown(runs)
	for _, want := range []string{"Seeds 977, 1201, 2718.", "### Seed 977", "### Seed 2718", "| trailing | ≥ 0.90 | met on all 3 seeds |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}
