package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/risk"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/postgres/pgtest"
	"overwatch/write/sim"
)

// riskSingleRates are the event rates of the accuracy simulation, raised
// from sim.DefaultRates (where 300 vessels over 14 days give a handful of
// gaps, slow rolls and spoofs) so that every detector is measured on tens
// of events; the dark fleet keeps its default size.
var riskSingleRates = []string{"--gap-rate", "0.25", "--loiter-rate", "0.3", "--spoof-rate", "0.15"}

// simulateWithRates is simulateForEval with extra `overwatch simulate`
// flags (the event rates).
func simulateWithRates(t *testing.T, name string, seed uint64, vessels, days int, extra ...string) *evalRun {
	t.Helper()
	if len(extra) == 0 {
		return simulateForEval(t, name, seed, vessels, days)
	}
	r := &evalRun{chURL: chtest.URL(t, name), pgURL: pgtest.URL(t, name)}
	r.start = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	r.end = r.start.Add(time.Duration(days) * 24 * time.Hour)
	r.truthPath = filepath.Join(t.TempDir(), "truth.jsonl")
	r.env = map[string]string{"CLICKHOUSE_URL": r.chURL, "DATABASE_URL": r.pgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	args := append([]string{"overwatch", "simulate", "--seed", strconv.FormatUint(seed, 10), "--vessels", strconv.Itoa(vessels),
		"--days", strconv.Itoa(days), "--start", r.start.Format(time.RFC3339), "--truth", r.truthPath}, extra...)
	if err := run(context.Background(), args, r.getenv, io.Discard, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return r
}

// The single-vessel risk detectors (AIS gaps, loitering, spoofing) run on
// the tracks a seeded simulation stored through the real pipeline, against
// the simulation's ground truth.
//
// Matching rule: a detected event matches a true event of the same class
// (and subtype, for the subtype rows) when both concern the same vessel
// and their time intervals overlap (closed intervals; an open event runs
// to the end of the data). Recall is the share of the true events wholly
// inside [start+12 h, end−12 h] that some detected event (inside or not)
// matches; precision the share of the detected events wholly inside that
// window that match some true event (inside or not), so that events cut by
// the window's edges count neither way. A detected loitering that matches
// no true loitering but overlaps a true ship-to-ship transfer of the
// vessel is excused (not counted): alongside another ship, a tanker is
// loitering by METHODS.md's definition, which a single-vessel detector
// cannot tell from a transfer, while the simulator records the stop only
// as sts_transfer. A true loitering that the vessel spent dark for all
// but less than LoiterMinimum (inside true AIS gaps) is not expected to be
// found (column dark), nor counted. Open gaps are matched on vessel and
// start.
func TestRiskSingleAgainstGroundTruth(t *testing.T) {
	vessels, days, rates := 300, 14, riskSingleRates
	if os.Getenv("OVERWATCH_EVAL_FULL") == "1" { // the default fleet and span
		vessels, days = 800, 30
	}
	if os.Getenv("OVERWATCH_EVAL_DEFAULT_RATES") == "1" { // the simulator's default event rates
		rates = nil
	}
	r := simulateWithRates(t, "risk_single", 11, vessels, days, rates...)
	truth := readTruth(t, r.truthPath)
	began := time.Now()
	events := r.storedRiskEvents(t)
	t.Logf("%d vessels over %d days: port_calls and risk_events jobs in %s, %d events stored",
		vessels, days, time.Since(began).Round(time.Millisecond), len(events))

	from, to := r.start.Add(12*time.Hour), r.end.Add(-12*time.Hour)
	rows := []riskScore{
		scoreRisk("gaps", truth, events, from, to, r.end, isType("ais_gap", risk.EventGap, "*")),
		scoreRisk("intentional gaps", truth, events, from, to, r.end, isType("ais_gap", risk.EventGap, "intentional")),
		scoreOpenGaps(truth, events, r.start),
		scoreRisk("loitering", truth, events, from, to, r.end, isType("loitering", risk.EventLoitering, "*")),
		scoreRisk("loitering stationary", truth, events, from, to, r.end, isType("loitering", risk.EventLoitering, risk.LoiterStationary)),
		scoreRisk("loitering slow_roll", truth, events, from, to, r.end, isType("loitering", risk.EventLoitering, risk.LoiterSlowRoll)),
		scoreRisk("spoofing", truth, events, from, to, r.end, isType("spoofing", risk.EventSpoofing, "*")),
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-22s %6s %5s %9s %8s %8s %10s\n", "detector", "truth", "dark", "detected", "excused", "recall", "precision")
	for _, s := range rows {
		fmt.Fprintf(&b, "%-22s %6d %5d %9d %8d %8.3f %10.3f\n", s.name, s.truth, s.dark, s.detected, s.excused, s.recall(), s.precision())
	}
	t.Log(b.String())
	agree, compared := gapDraughtAgreement(truth, events, from, to)
	t.Logf("draught change across gaps: %d of %d true gaps in the window agree within 0.1 m", agree, compared)
	if compared == 0 || float64(agree) < 0.9*float64(compared) {
		t.Errorf("draught change across gaps agrees on %d of %d gaps, want ≥ 90%%", agree, compared)
	}
	for _, s := range rows {
		if s.truth < 10 && s.name != "open gaps" {
			t.Errorf("%s: only %d true events in the window: too few to measure", s.name, s.truth)
		}
		bad := s.recall() < 0.9 || s.precision() < 0.9
		if bad {
			t.Errorf("%s: recall %.3f, precision %.3f: want both ≥ 0.9", s.name, s.recall(), s.precision())
		}
		if bad || os.Getenv("EVAL_DEBUG") != "" {
			for _, m := range s.misses {
				t.Log("  ", m)
			}
		}
	}
}

// riskClass selects the true and detected events of one row.
type riskClass struct {
	truth    func(*sim.Truth) bool
	detected func(*risk.Event) bool
}

// isType is the class of a truth type and event type, of one subtype or
// all ("*").
func isType(truthType, eventType, subtype string) riskClass {
	return riskClass{
		truth:    func(tr *sim.Truth) bool { return tr.Type == truthType && (subtype == "*" || tr.Subtype == subtype) },
		detected: func(e *risk.Event) bool { return e.Type == eventType && (subtype == "*" || e.Subtype == subtype) },
	}
}

type riskScore struct {
	name                            string
	truth, found, detected, matched int
	excused, dark                   int
	misses                          []string
}

func (s riskScore) recall() float64 {
	if s.truth == 0 {
		return 1
	}
	return float64(s.found) / float64(s.truth)
}

func (s riskScore) precision() float64 {
	if s.detected == 0 {
		return 1
	}
	return float64(s.matched) / float64(s.detected)
}

// scoreRisk scores one class by the matching rule of
// TestRiskSingleAgainstGroundTruth.
func scoreRisk(name string, truth []sim.Truth, events []risk.Event, from, to, dataEnd time.Time, c riskClass) riskScore {
	s := riskScore{name: name}
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
			s.dark++
			continue
		}
		s.truth++
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
			s.found++
		} else {
			s.misses = append(s.misses, fmt.Sprintf("missed: %s %s vessel %d %s – %s %v", tr.Type, tr.Subtype, sp.imo,
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
				s.excused++
				continue
			}
		}
		s.detected++
		if hit {
			s.matched++
		} else {
			s.misses = append(s.misses, fmt.Sprintf("false: %s %s vessel %d %s – %s at %.3f,%.3f %v", e.Type, e.Subtype, e.IMO,
				e.Start.Format(time.RFC3339), e.End.Format(time.RFC3339), e.Lat, e.Lon, e.Detail))
		}
	}
	return s
}

// scoreOpenGaps matches the gaps still open at the end of the data, on
// vessel and start (within a minute), over the whole run.
func scoreOpenGaps(truth []sim.Truth, events []risk.Event, start time.Time) riskScore {
	s := riskScore{name: "open gaps"}
	key := func(imo overwatch.IMO, at time.Time) string { return fmt.Sprint(imo, at.Truncate(time.Minute).Unix()) }
	open := map[string]bool{}
	for i := range truth {
		tr := &truth[i]
		if tr.Type == "ais_gap" && tr.End == nil && tr.Start != nil && !tr.Start.Before(start) {
			open[key(tr.Vessels[0], *tr.Start)] = true
			s.truth++
		}
	}
	seen := map[string]bool{}
	for _, e := range events {
		if e.Type != risk.EventGap || e.End != nil {
			continue
		}
		s.detected++
		k := key(e.IMO, e.Start)
		if open[k] {
			s.matched++
			seen[k] = true
		} else {
			s.misses = append(s.misses, fmt.Sprintf("false open gap: vessel %d from %s", e.IMO, e.Start.Format(time.RFC3339)))
		}
	}
	s.found = len(seen)
	return s
}

// The detectors run on every real capture of ../shared/data/ais, each
// replayed into a database of its own: no failure, and the events found
// are listed.
func TestRiskSingleOnRealCaptures(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/data/ais/ais_*")
	var captures []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".chk") && !strings.Contains(f, ".expected") {
			captures = append(captures, f)
		}
	}
	if len(captures) == 0 {
		t.Skip("no captures in ../shared/data/ais")
	}
	sort.Strings(captures)
	ports := seaport.NewIndex(seaport.All())
	total := 0
	for i, f := range captures {
		chURL := chtest.URL(t, "risk_real_"+strconv.Itoa(i))
		env := map[string]string{"CLICKHOUSE_URL": chURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_ATTRIBUTION_WINDOW": "48h", "OVERWATCH_LOG_LEVEL": "warn"}
		var out, errs strings.Builder
		if err := run(context.Background(), []string{"overwatch", "replay", "--source", "aishub", f}, clockEnv(func(k string) string { return env[k] }), &out, &errs); err != nil {
			t.Fatalf("replay %s: %v\n%s", f, err, errs.String())
		}
		db, err := clickhouse.Open(chURL)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		first, last, err := db.DataSpan(ctx)
		if err != nil {
			t.Fatal(err)
		}
		vessels, points := 0, 0
		var found []string
		if !last.IsZero() {
			err = db.Tracks(ctx, first, last, jobs.TrackFilter{}, func(imo overwatch.IMO, track []vessel.TrackPoint) error {
				vessels++
				points += len(track)
				var ev []risk.Event
				ev = append(ev, risk.DetectGaps(imo, track, last, 0)...)
				ev = append(ev, risk.DetectLoitering(imo, track, ports, last)...)
				ev = append(ev, risk.DetectSpoofing(imo, track)...)
				for _, e := range ev {
					if e.End != nil && e.End.Before(e.Start) {
						t.Errorf("%s: event ends before it starts: %+v", f, e)
					}
					end := "open"
					if e.End != nil {
						end = e.End.Format(time.RFC3339)
					}
					found = append(found, fmt.Sprintf("%s/%s IMO %d %s – %s at %.4f,%.4f severity %s %v", e.Type, e.Subtype, e.IMO,
						e.Start.Format(time.RFC3339), end, e.Lat, e.Lon, e.Severity, e.Detail))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		total += len(found)
		t.Logf("%s: %d positions of %d IMOs from %s to %s: %d events\n%s", filepath.Base(f), points, vessels,
			first.Format(time.RFC3339), last.Format(time.RFC3339), len(found), strings.Join(found, "\n"))
	}
	t.Logf("%d captures, %d events", len(captures), total)
}

// gapDraughtAgreement compares the draught change across the closed true
// gaps wholly inside [from, to] with that of the detected gap of the same
// vessel and start (null when unknown, on either side).
func gapDraughtAgreement(truth []sim.Truth, events []risk.Event, from, to time.Time) (agree, compared int) {
	detected := map[string]any{}
	for _, e := range events {
		if e.Type == risk.EventGap && e.End != nil {
			detected[fmt.Sprint(e.IMO, e.Start.Unix())] = e.Detail["draught_change"]
		}
	}
	for _, tr := range truth {
		if tr.Type != "ais_gap" || tr.Start == nil || tr.End == nil || tr.Start.Before(from) || tr.End.After(to) {
			continue
		}
		d, _ := tr.Detail.(map[string]any)
		want, _ := d["draught_change"].(float64)
		if before, _ := d["draught_before"].(float64); before == 0 {
			want = math.NaN()
		}
		compared++
		got, ok := detected[fmt.Sprint(tr.Vessels[0], tr.Start.Unix())]
		g, isNum := got.(float64)
		switch {
		case !ok:
		case math.IsNaN(want) && got == nil, isNum && math.Abs(g-want) <= 0.1+1e-9:
			agree++
		}
	}
	return agree, compared
}
