package apptest

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/portcall"
	"overwatch/maritime/risk"
	"overwatch/postgres/pgtest"
	"overwatch/write/sim"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// SimulateWithRates is simulateForEval with extra `overwatch simulate`
// flags (the event rates).
func SimulateWithRates(t *testing.T, name string, seed uint64, vessels, days int, extra ...string) *EvalRun {
	t.Helper()
	if len(extra) == 0 {
		return SimulateForEval(t, name, seed, vessels, days)
	}
	r := &EvalRun{ChURL: chtest.URL(t, name), PgURL: pgtest.URL(t, name)}
	r.Start = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	r.End = r.Start.Add(time.Duration(days) * 24 * time.Hour)
	r.TruthPath = filepath.Join(t.TempDir(), "truth.jsonl")
	r.Env = map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	args := append([]string{"overwatch", "simulate", "--seed", strconv.FormatUint(seed, 10), "--vessels", strconv.Itoa(vessels),
		"--days", strconv.Itoa(days), "--start", r.Start.Format(time.RFC3339), "--truth", r.TruthPath}, extra...)
	if err := app.Run(context.Background(), args, r.Getenv, io.Discard, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return r
}

// riskClass selects the true and detected events of one row.
type riskClass struct {
	truth    func(*sim.Truth) bool
	detected func(*risk.Event) bool
}

// IsType is the class of a truth type and event type, of one subtype or
// all ("*").
func IsType(truthType, eventType, subtype string) riskClass {
	return riskClass{
		truth:    func(tr *sim.Truth) bool { return tr.Type == truthType && (subtype == "*" || tr.Subtype == subtype) },
		detected: func(e *risk.Event) bool { return e.Type == eventType && (subtype == "*" || e.Subtype == subtype) },
	}
}

// RiskScore is one detector's score against the ground truth: what it
// found, what it missed, what it raised that no truth explains.
type RiskScore struct {
	Name                            string
	Truth, Found, Detected, Matched int
	Excused, Dark                   int
	Misses                          []string
}

// Recall is the share of truths found.
func (s RiskScore) Recall() float64 {
	if s.Truth == 0 {
		return 1
	}
	return float64(s.Found) / float64(s.Truth)
}

// Precision is the share of detections that a truth explains.
func (s RiskScore) Precision() float64 {
	if s.Detected == 0 {
		return 1
	}
	return float64(s.Matched) / float64(s.Detected)
}

// ScoreRisk scores one class by the matching rule of
// evaluateRiskSingle (e2e/e2e_risk_single_test.go).
func ScoreRisk(name string, truth []sim.Truth, events []risk.Event, from, to, dataEnd time.Time, c riskClass) RiskScore {
	s := RiskScore{Name: name}
	type span struct {
		imo        overwatch.IMO
		start, end time.Time
	}
	truthSpan := func(tr *sim.Truth) (span, bool) {
		if tr.Start == nil || len(tr.Vessels) == 0 {
			return span{}, false
		}
		sp := span{tr.Vessels[0], *tr.Start, dataEnd}
		if tr.End != nil {
			sp.end = *tr.End
		}
		return sp, tr.End != nil && !sp.start.Before(from) && !sp.end.After(to)
	}
	eventSpan := func(e *risk.Event) (span, bool) {
		sp := span{e.IMO, e.Start, dataEnd}
		if e.End != nil {
			sp.end = *e.End
		}
		return sp, e.End != nil && !sp.start.Before(from) && !sp.end.After(to)
	}
	overlap := func(a, b span) bool { return a.imo == b.imo && !a.start.After(b.end) && !b.start.After(a.end) }
	var trueSpans, stsSpans, gapSpans []span
	for i := range truth {
		tr := &truth[i]
		if tr.Type == "sts_transfer" && tr.Start != nil && tr.End != nil {
			for _, v := range tr.Vessels {
				stsSpans = append(stsSpans, span{v, *tr.Start, *tr.End})
			}
		}
		if tr.Type == "ais_gap" && tr.Start != nil {
			sp, _ := truthSpan(tr)
			gapSpans = append(gapSpans, sp)
		}
	}
	// observable is the time of a true event outside the vessel's true gaps
	// (which do not overlap one another).
	observable := func(sp span) time.Duration {
		d := sp.end.Sub(sp.start)
		for _, g := range gapSpans {
			if g.imo == sp.imo && g.start.Before(sp.end) && sp.start.Before(g.end) {
				from, to := g.start, g.end
				if sp.start.After(from) {
					from = sp.start
				}
				if sp.end.Before(to) {
					to = sp.end
				}
				d -= to.Sub(from)
			}
		}
		return d
	}
	for i := range truth {
		tr := &truth[i]
		if !c.truth(tr) {
			continue
		}
		sp, inside := truthSpan(tr)
		if sp.imo == 0 {
			continue
		}
		trueSpans = append(trueSpans, sp)
		if !inside {
			continue
		}
		if tr.Type == "loitering" && observable(sp) < risk.LoiterMinimum {
			s.Dark++
			continue
		}
		s.Truth++
		hit := false
		for i := range events {
			if e := &events[i]; c.detected(e) {
				if es, _ := eventSpan(e); overlap(es, sp) {
					hit = true
					break
				}
			}
		}
		if hit {
			s.Found++
		} else {
			s.Misses = append(s.Misses, fmt.Sprintf("missed: %s %s vessel %d %s – %s %v", tr.Type, tr.Subtype, sp.imo,
				sp.start.Format(time.RFC3339), sp.end.Format(time.RFC3339), tr.Detail))
		}
	}
	for i := range events {
		e := &events[i]
		if !c.detected(e) {
			continue
		}
		es, inside := eventSpan(e)
		if !inside {
			continue
		}
		hit := false
		for _, sp := range trueSpans {
			if overlap(es, sp) {
				hit = true
				break
			}
		}
		if !hit && e.Type == risk.EventLoitering {
			excused := false
			for _, sp := range stsSpans {
				excused = excused || overlap(es, sp)
			}
			if excused {
				s.Excused++
				continue
			}
		}
		s.Detected++
		if hit {
			s.Matched++
		} else {
			s.Misses = append(s.Misses, fmt.Sprintf("false: %s %s vessel %d %s – %s at %.3f,%.3f %v", e.Type, e.Subtype, e.IMO,
				e.Start.Format(time.RFC3339), e.End.Format(time.RFC3339), e.Lat, e.Lon, e.Detail))
		}
	}
	return s
}

// ScoreOpenGaps matches the gaps still open at the end of the data, on
// vessel and start (within a minute), over the whole run.
func ScoreOpenGaps(truth []sim.Truth, events []risk.Event, start time.Time) RiskScore {
	s := RiskScore{Name: "open gaps"}
	key := func(imo overwatch.IMO, at time.Time) string { return fmt.Sprint(imo, at.Truncate(time.Minute).Unix()) }
	open := map[string]bool{}
	for i := range truth {
		tr := &truth[i]
		if tr.Type == "ais_gap" && tr.End == nil && tr.Start != nil && !tr.Start.Before(start) {
			open[key(tr.Vessels[0], *tr.Start)] = true
			s.Truth++
		}
	}
	seen := map[string]bool{}
	for _, e := range events {
		if e.Type != risk.EventGap || e.End != nil {
			continue
		}
		s.Detected++
		k := key(e.IMO, e.Start)
		if open[k] {
			s.Matched++
			seen[k] = true
		} else {
			s.Misses = append(s.Misses, fmt.Sprintf("false open gap: vessel %d from %s", e.IMO, e.Start.Format(time.RFC3339)))
		}
	}
	s.Found = len(seen)
	return s
}

// pairScore is one row of the accuracy table.
type pairScore struct {
	Name                   string
	Truth, Detected        int
	TruthFound, DetectedOK int
	Excused                int
}

func (s pairScore) Precision() float64 {
	if s.Detected-s.Excused <= 0 {
		return 0
	}
	return float64(s.DetectedOK) / float64(s.Detected-s.Excused)
}

func (s pairScore) Recall() float64 {
	if s.Truth == 0 {
		return 0
	}
	return float64(s.TruthFound) / float64(s.Truth)
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

// EvaluatePair scores each detector against the truth of the data span
// [from, to].
func EvaluatePair(truth []sim.Truth, detected []risk.Event, from, to time.Time, firstSeen map[overwatch.IMO]time.Time, staticEvery time.Duration) []pairScore {
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
		s := pairScore{Name: k.name, Detected: len(dets)}
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
				s.Truth++
				if usedT[ti] {
					s.TruthFound++
				} else if os.Getenv("EVAL_DEBUG") != "" {
					fmt.Printf("MISSED %s %v %s..%s %v\n", k.name, tr.Vessels, tr.Start.Format("01-02T15:04"), end(tr).Format("01-02T15:04"), tr.Detail)
				}
			}
		}
		s.DetectedOK = len(usedD)
		for di, e := range dets {
			if !usedD[di] && k.excuse != nil && k.excuse(e) {
				s.Excused++
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
