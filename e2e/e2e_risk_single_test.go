package e2e

import (
	"context"
	"fmt"
	"math"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/risk"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/write/sim"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// riskSingleRates are the event rates of the accuracy simulation, raised
// from sim.DefaultRates (where 300 vessels over 14 days give a handful of
// gaps, slow rolls and spoofs) so that every detector is measured on tens
// of events; the dark fleet keeps its default size.
var riskSingleRates = []string{"--gap-rate", "0.25", "--loiter-rate", "0.3", "--spoof-rate", "0.15"}

// evaluateRiskSingle scores the single-vessel risk detectors (AIS gaps,
// loitering, spoofing) run on the tracks a seeded simulation stored
// through the real pipeline, against the simulation's ground truth.
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
func evaluateRiskSingle(t *testing.T, r *apptest.EvalRun, events []risk.Event) {
	truth := apptest.ReadTruth(t, r.TruthPath)
	from, to := r.Start.Add(12*time.Hour), r.End.Add(-12*time.Hour)
	rows := []apptest.RiskScore{
		apptest.ScoreRisk("gaps", truth, events, from, to, r.End, apptest.IsType("ais_gap", risk.EventGap, "*")),
		apptest.ScoreRisk("intentional gaps", truth, events, from, to, r.End, apptest.IsType("ais_gap", risk.EventGap, "intentional")),
		apptest.ScoreOpenGaps(truth, events, r.Start),
		apptest.ScoreRisk("loitering", truth, events, from, to, r.End, apptest.IsType("loitering", risk.EventLoitering, "*")),
		apptest.ScoreRisk("loitering stationary", truth, events, from, to, r.End, apptest.IsType("loitering", risk.EventLoitering, risk.LoiterStationary)),
		apptest.ScoreRisk("loitering slow_roll", truth, events, from, to, r.End, apptest.IsType("loitering", risk.EventLoitering, risk.LoiterSlowRoll)),
		apptest.ScoreRisk("spoofing", truth, events, from, to, r.End, apptest.IsType("spoofing", risk.EventSpoofing, "*")),
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-22s %6s %5s %9s %8s %8s %10s\n", "detector", "truth", "dark", "detected", "excused", "recall", "precision")
	for _, s := range rows {
		fmt.Fprintf(&b, "%-22s %6d %5d %9d %8d %8.3f %10.3f\n", s.Name, s.Truth, s.Dark, s.Detected, s.Excused, s.Recall(), s.Precision())
	}
	t.Log(b.String())
	agree, compared := gapDraughtAgreement(truth, events, from, to)
	t.Logf("draught change across gaps: %d of %d true gaps in the window agree within 0.1 m", agree, compared)
	if compared == 0 || float64(agree) < 0.9*float64(compared) {
		t.Errorf("draught change across gaps agrees on %d of %d gaps, want ≥ 90%%", agree, compared)
	}
	for _, s := range rows {
		if s.Truth < 10 && s.Name != "open gaps" {
			t.Errorf("%s: only %d true events in the window: too few to measure", s.Name, s.Truth)
		}
		bad := s.Recall() < 0.9 || s.Precision() < 0.9
		if bad {
			t.Errorf("%s: recall %.3f, precision %.3f: want both ≥ 0.9", s.Name, s.Recall(), s.Precision())
		}
		if bad || os.Getenv("EVAL_DEBUG") != "" {
			for _, m := range s.Misses {
				t.Log("  ", m)
			}
		}
	}
}

// The detectors run on every real capture of ../shared/data/ais, each
// replayed into a database of its own: no failure, and the events found
// are listed.
func TestRiskSingleOnRealCaptures(t *testing.T) {
	files, _ := filepath.Glob("../../shared/data/ais/ais_*")
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
		if err := app.Run(context.Background(), []string{"overwatch", "replay", "--source", "aishub", f}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, &errs); err != nil {
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
