package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/portcall"
	"overwatch/maritime/risk"
	"overwatch/postgres/pgtest"
	"overwatch/write/sim"
)

// The ship-to-ship transfer, draught-mismatch and identity-change
// detectors against the ground truth of a seeded simulation with raised
// rates of those behaviours, through the real pipeline and ClickHouse.
//
// Matching (one truth event to at most one detection and back):
//   - transfers: the same two vessels, the detected encounter overlapping
//     the true transfer (within an hour); in scope, the transfers with two
//     hours or more inside the simulated window, but not those of which a
//     vessel was dark throughout (the simulator hides some dark-fleet
//     transfers in silences, detail "dark": with no position of one vessel there is no
//     encounter to see; the gap detector reports the draught change across
//     the gap).
//   - mismatches, by subtype, the same vessel and: directional and
//     magnitude, the detection starting within six hours of the true
//     misreport (the next static report after it, or the end of a reception
//     outage), or, on a feed that keeps one static report in staticEvery,
//     within DraughtSettle of it (the report carrying it may be missed
//     too); zero_change, the same port, the detected call containing the
//     true berth end. In scope: directional and magnitude misreports made
//     inside the window (two hours from either end: one made before the
//     data starts cannot be seen to change), of MinDraftChangeM (0.3 m)
//     or more (a smaller change is no change for any detector), and for
//     magnitude, over by the end of the window (until the draught is
//     corrected, an entry error cannot be told from a lasting change);
//     zero_change calls whose
//     arrival and departure (with three hours after it) are inside the
//     window, not dark and not liner calls (a container ship loads and
//     discharges at each call: an unchanged draught is what a true report
//     shows too, so a misreport there cannot be seen in AIS).
//   - identity changes, by field, the same vessel, the detection within an
//     hour before and three days after the true change (the vessel may be
//     silent when it happens); in scope, changes inside the window, an hour
//     from its end, of vessels seen under their old identity first (one
//     dark from before the window until after the change is first seen
//     with the new one: there is no change in the data).
//
// Precision counts a detection right when it matches any true event of its
// kind, in scope or not. A directional change that no misreport made, but
// cargo moved at sea across a silence or in a true transfer the pair
// detector did not report, is excused (see evaluatePair). A zero_change detected at a call the vessel
// reached with a wrong draught left by a misreport made before the window
// (the truth has it at that earlier call, whose stale draught this call's
// report merely put right) is excused: counted neither way, and shown.
func TestRiskPairAgainstGroundTruth(t *testing.T) {
	vessels, days, seed := 300, 21, uint64(11)
	if v, err := strconv.ParseUint(os.Getenv("OVERWATCH_EVAL_SEED"), 10, 64); err == nil {
		seed = v
	}
	rates := []string{"--sts-rate", "0.9", "--mismatch-rate", "0.3", "--identity-rate", "0.3"}
	if os.Getenv("OVERWATCH_EVAL_FULL") == "1" { // the default fleet and span
		vessels, days = 800, 30
	}
	if os.Getenv("OVERWATCH_EVAL_DEFAULT_RATES") == "1" { // the simulator's default event rates
		rates = nil
	}
	r := simulatePairRates(t, "risk_pair", seed, vessels, days, rates...)
	began := time.Now()
	detected := r.storedRiskEvents(t)
	t.Logf("%d vessels over %d days: port_calls and risk_events jobs in %s, %d events stored",
		vessels, days, time.Since(began).Round(time.Millisecond), len(detected))
	ctx := context.Background()
	db, err := clickhouse.Open(r.chURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, dataEnd, err := db.DataSpan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.IdentityHistory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	truth := readTruth(t, r.truthPath)
	firstSeen := map[overwatch.IMO]time.Time{} // each vessel's first identity row
	for _, row := range rows {
		if _, ok := firstSeen[row.IMO]; !ok {
			firstSeen[row.IMO] = row.ValidFrom
		}
	}
	table := evaluatePair(truth, detected, r.start, dataEnd, firstSeen, 0)
	var b strings.Builder
	fmt.Fprintf(&b, "%-30s %6s %9s %8s %9s %9s\n", "detector", "truth", "detected", "excused", "precision", "recall")
	for _, s := range table {
		fmt.Fprintf(&b, "%-30s %6d %9d %8d %9.3f %9.3f\n", s.name, s.truth, s.detected, s.excused, s.precision(), s.recall())
	}
	t.Logf("against the ground truth (seed %d):\n%s", seed, b.String())
	for _, s := range table {
		if s.truth < 10 {
			t.Errorf("%s: only %d true events in scope, too few to measure", s.name, s.truth)
		}
		if s.precision() < 0.9 || s.recall() < 0.9 {
			t.Errorf("%s: precision %.3f, recall %.3f: want both ≥ 0.9", s.name, s.precision(), s.recall())
		}
	}
}

// simulatePairRates is simulateForEval with extra flags of `overwatch
// simulate` (the behaviours' rates).
func simulatePairRates(t *testing.T, name string, seed uint64, vessels, days int, flags ...string) *evalRun {
	t.Helper()
	r := &evalRun{chURL: chtest.URL(t, name), pgURL: pgtest.URL(t, name)}
	r.start = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	r.end = r.start.Add(time.Duration(days) * 24 * time.Hour)
	r.truthPath = filepath.Join(t.TempDir(), "truth.jsonl")
	if dir := os.Getenv("EVAL_KEEP"); dir != "" {
		r.truthPath = filepath.Join(dir, name+"_truth.jsonl")
	}
	r.env = map[string]string{"CLICKHOUSE_URL": r.chURL, "DATABASE_URL": r.pgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	args := append([]string{"overwatch", "simulate", "--seed", strconv.FormatUint(seed, 10), "--vessels", strconv.Itoa(vessels),
		"--days", strconv.Itoa(days), "--start", r.start.Format(time.RFC3339), "--truth", r.truthPath}, flags...)
	if err := run(context.Background(), args, r.getenv, io.Discard, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return r
}

// pairScore is one row of the accuracy table.
type pairScore struct {
	name                   string
	truth, detected        int
	truthFound, detectedOK int
	excused                int
}

func (s pairScore) precision() float64 {
	if s.detected-s.excused <= 0 {
		return 0
	}
	return float64(s.detectedOK) / float64(s.detected-s.excused)
}

func (s pairScore) recall() float64 {
	if s.truth == 0 {
		return 0
	}
	return float64(s.truthFound) / float64(s.truth)
}

// pairKind is one row's selection of true and detected events, which of
// the true ones are in scope, and when a detection matches a true event.
type pairKind struct {
	name    string
	truth   func(tr *sim.Truth) bool
	det     func(e *risk.Event) bool
	inScope func(tr *sim.Truth) bool
	match   func(tr *sim.Truth, e *risk.Event) bool
	excuse  func(e *risk.Event) bool // may be nil
}

// evaluatePair scores each detector against the truth of the data span
// [from, to].
func evaluatePair(truth []sim.Truth, detected []risk.Event, from, to time.Time, firstSeen map[overwatch.IMO]time.Time, staticEvery time.Duration) []pairScore {
	settle := risk.DraughtSettle(6*time.Hour, staticEvery) // how late a misreport may first be seen
	trueCalls := map[string]*sim.PortCall{}                // "imo port berth-end" → call
	callsOf := map[overwatch.IMO][]*sim.PortCall{}
	misreports := map[overwatch.IMO][]*sim.Truth{} // directional and zero_change
	gaps := map[overwatch.IMO][]*sim.Truth{}
	silences := map[overwatch.IMO][]*sim.Truth{}  // gaps and off/on events across which the reported draught changed
	transfers := map[overwatch.IMO][]*sim.Truth{} // each vessel's true transfers
	for i := range truth {
		tr := &truth[i]
		if c := tr.Call; c != nil {
			trueCalls[pairCallKey(tr.Vessels[0], c.Port, c.BerthEnd)] = c
			callsOf[tr.Vessels[0]] = append(callsOf[tr.Vessels[0]], c)
		}
		if tr.Type == risk.EventGap {
			gaps[tr.Vessels[0]] = append(gaps[tr.Vessels[0]], tr)
		}
		if d, _ := tr.Detail.(map[string]any); (tr.Type == risk.EventGap || tr.Type == "ais_off_on") && tr.End != nil {
			if c, _ := d["draught_change"].(float64); math.Abs(c) >= portcall.MinDraftChangeM-1e-9 {
				silences[tr.Vessels[0]] = append(silences[tr.Vessels[0]], tr)
			}
		}
		if tr.Type == risk.EventSTS {
			for _, v := range tr.Vessels {
				transfers[v] = append(transfers[v], tr)
			}
		}
		if tr.Type == risk.EventMismatch && tr.Subtype != "magnitude" {
			misreports[tr.Vessels[0]] = append(misreports[tr.Vessels[0]], tr)
		}
	}
	end := func(tr *sim.Truth) time.Time {
		if tr.End == nil {
			return to
		}
		return *tr.End
	}
	detEnd := func(e *risk.Event) time.Time {
		if e.End == nil {
			return to
		}
		return *e.End
	}
	overlaps := func(a0, a1, b0, b1 time.Time, slack time.Duration) bool {
		return !a0.After(b1.Add(slack)) && !b0.After(a1.Add(slack))
	}
	within := func(t time.Time, lo, hi time.Time) bool { return !t.Before(lo) && !t.After(hi) }
	misreport := func(sub string) pairKind {
		return pairKind{
			name:  risk.EventMismatch + "/" + sub,
			truth: func(tr *sim.Truth) bool { return tr.Type == risk.EventMismatch && tr.Subtype == sub },
			det:   func(e *risk.Event) bool { return e.Type == risk.EventMismatch && e.Subtype == sub },
			inScope: func(tr *sim.Truth) bool {
				d, _ := tr.Detail.(map[string]any)
				rf, _ := d["reported_from"].(float64)
				rt, _ := d["reported_to"].(float64)
				return within(*tr.Start, from.Add(2*time.Hour), to.Add(-2*time.Hour)) && math.Abs(rt-rf) >= portcall.MinDraftChangeM-1e-9 &&
					(sub != "magnitude" || !end(tr).After(to))
			},
			match: func(tr *sim.Truth, e *risk.Event) bool {
				return tr.Vessels[0] == e.IMO && within(e.Start, tr.Start.Add(-6*time.Hour), tr.Start.Add(settle))
			},
		}
	}
	identity := func(field string) pairKind {
		return pairKind{
			name:  risk.EventIdentity + "/" + field,
			truth: func(tr *sim.Truth) bool { return tr.Type == risk.EventIdentity && tr.Subtype == field },
			det:   func(e *risk.Event) bool { return e.Type == risk.EventIdentity && e.Subtype == field },
			inScope: func(tr *sim.Truth) bool {
				first, ok := firstSeen[tr.Vessels[0]]
				return ok && first.Before(*tr.Start) && within(*tr.Start, from, to.Add(-time.Hour))
			},
			match: func(tr *sim.Truth, e *risk.Event) bool {
				return tr.Vessels[0] == e.IMO && within(e.Start, tr.Start.Add(-time.Hour), tr.Start.Add(72*time.Hour))
			},
		}
	}
	// A directional change that no misreport made but cargo moved at sea:
	// across a silence (the 6–12 h ones are the directional detector's,
	// measured apart), or a true transfer's change that the pair detector
	// did not report (its partner dark, say) — counted neither way.
	directional := misreport("directional")
	directional.excuse = func(e *risk.Event) bool {
		for _, g := range silences[e.IMO] {
			if within(e.Start, *g.End, g.End.Add(risk.MismatchGapSettle+6*time.Hour)) {
				return true
			}
		}
		for _, tr := range transfers[e.IMO] {
			if within(e.Start, *tr.Start, end(tr).Add(risk.MismatchStopLookback)) {
				return true
			}
		}
		return false
	}
	zero := misreport("zero_change")
	zero.inScope = func(tr *sim.Truth) bool {
		port, _ := tr.Detail.(map[string]any)["port"].(string)
		c := trueCalls[pairCallKey(tr.Vessels[0], port, *tr.Start)]
		return c != nil && !c.Dark && c.Operation != "both" && !c.Arrival.Before(from.Add(time.Hour)) && !c.Departure.After(to.Add(-4*time.Hour)) &&
			!zeroAgain(tr, c, callsOf[tr.Vessels[0]], misreports[tr.Vessels[0]])
	}
	zero.match = func(tr *sim.Truth, e *risk.Event) bool {
		port, _ := tr.Detail.(map[string]any)["port"].(string)
		return tr.Vessels[0] == e.IMO && port == e.Port && within(*tr.Start, e.Start.Add(-time.Hour), detEnd(e).Add(time.Hour))
	}
	zero.excuse = func(e *risk.Event) bool {
		for _, c := range callsOf[e.IMO] {
			if c.Port != e.Port || !overlaps(c.Arrival, c.Departure, e.Start, detEnd(e), time.Hour) || math.Abs(c.ReportedFrom-c.DraftBefore) < 0.3 {
				continue
			}
			var last *sim.Truth // the misreport in force on arrival
			for _, tr := range misreports[e.IMO] {
				if tr.Start.Before(c.Arrival) && (last == nil || tr.Start.After(*last.Start)) {
					last = tr
				}
			}
			return last != nil && last.Start.Before(from.Add(2*time.Hour))
		}
		return false
	}
	kinds := []pairKind{
		{
			name:  risk.EventSTS,
			truth: func(tr *sim.Truth) bool { return tr.Type == risk.EventSTS },
			det:   func(e *risk.Event) bool { return e.Type == risk.EventSTS },
			inScope: func(tr *sim.Truth) bool {
				if dark, _ := tr.Detail.(map[string]any)["dark"].(bool); dark {
					return false // the simulator hid it in a silence of the tanker
				}
				for _, v := range tr.Vessels {
					for _, g := range gaps[v] {
						if !g.Start.After(*tr.Start) && !end(g).Before(end(tr)) {
							return false // dark throughout: no encounter to see
						}
					}
				}
				return pairMinT(end(tr), to).Sub(pairMaxT(*tr.Start, from)) >= 2*time.Hour
			},
			match: func(tr *sim.Truth, e *risk.Event) bool {
				a, b := tr.Vessels[0], tr.Vessels[1]
				return (a == e.IMO && b == e.Other || b == e.IMO && a == e.Other) && overlaps(*tr.Start, end(tr), e.Start, detEnd(e), time.Hour)
			},
		},
		directional, misreport("magnitude"), zero,
		identity("flag"), identity("name"), identity("mmsi"),
	}
	var out []pairScore
	for _, k := range kinds {
		var trs []*sim.Truth
		for i := range truth {
			if k.truth(&truth[i]) && truth[i].Start != nil {
				trs = append(trs, &truth[i])
			}
		}
		var dets []*risk.Event
		for i := range detected {
			if k.det(&detected[i]) {
				dets = append(dets, &detected[i])
			}
		}
		s := pairScore{name: k.name, detected: len(dets)}
		usedT, usedD := map[int]bool{}, map[int]bool{}
		for di, e := range dets {
			for ti, tr := range trs {
				if !usedT[ti] && k.match(tr, e) {
					usedT[ti], usedD[di] = true, true
					break
				}
			}
		}
		for ti, tr := range trs {
			if k.inScope(tr) {
				s.truth++
				if usedT[ti] {
					s.truthFound++
				} else if os.Getenv("EVAL_DEBUG") != "" {
					fmt.Printf("MISSED %s %v %s..%s %v\n", k.name, tr.Vessels, tr.Start.Format("01-02T15:04"), end(tr).Format("01-02T15:04"), tr.Detail)
				}
			}
		}
		s.detectedOK = len(usedD)
		for di, e := range dets {
			if !usedD[di] && k.excuse != nil && k.excuse(e) {
				s.excused++
				usedD[di] = true // not shown below
			}
		}
		if os.Getenv("EVAL_DEBUG") != "" {
			for di, e := range dets {
				if !usedD[di] {
					fmt.Printf("FALSE %s %d/%d %s..%s %s %v\n", k.name, e.IMO, e.Other, e.Start.Format("01-02T15:04"), detEnd(e).Format("01-02T15:04"), e.Port, e.Detail)
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// zeroAgain reports whether the zero_change tr at call c follows one at the
// vessel's previous call that left the same reported draught: the second
// cannot be told from a correct report (the cargo loaded brought the
// draught back to the stale figure), and the detector reports the first
// only (DetectMismatches: "unless the previous call was itself a
// zero_change at the same draught").
func zeroAgain(tr *sim.Truth, c *sim.PortCall, calls []*sim.PortCall, misreports []*sim.Truth) bool {
	var prev *sim.PortCall
	for _, o := range calls {
		if o.Departure.Before(c.Arrival) && (prev == nil || o.Arrival.After(prev.Arrival)) {
			prev = o
		}
	}
	if prev == nil {
		return false
	}
	from, _ := tr.Detail.(map[string]any)["reported_from"].(float64)
	for _, m := range misreports {
		d, _ := m.Detail.(map[string]any)
		port, _ := d["port"].(string)
		to, _ := d["reported_to"].(float64)
		if m.Subtype == "zero_change" && port == prev.Port && !m.Start.Before(prev.Arrival) && !m.Start.After(prev.Departure) && math.Abs(to-from) < portcall.MinDraftChangeM-1e-9 {
			return true
		}
	}
	return false
}

func pairCallKey(imo overwatch.IMO, port string, berthEnd time.Time) string {
	return fmt.Sprintf("%d %s %d", imo, port, int64(math.Round(float64(berthEnd.UnixNano())/1e9)))
}

func pairMinT(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func pairMaxT(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
