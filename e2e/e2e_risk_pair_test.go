package e2e

import (
	"context"
	"fmt"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/maritime/risk"
	"strings"
	"testing"
	"time"
)

// evaluateRiskPair scores the ship-to-ship transfer, draught-mismatch and
// identity-change detectors against the ground truth of a seeded
// simulation with raised rates of those behaviours, through the real
// pipeline and ClickHouse.
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
func evaluateRiskPair(t *testing.T, r *apptest.EvalRun, detected []risk.Event, seed uint64) {
	ctx := context.Background()
	db, err := clickhouse.Open(r.ChURL)
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
	truth := apptest.ReadTruth(t, r.TruthPath)
	firstSeen := map[overwatch.IMO]time.Time{} // each vessel's first identity row
	for _, row := range rows {
		if _, ok := firstSeen[row.IMO]; !ok {
			firstSeen[row.IMO] = row.ValidFrom
		}
	}
	table := apptest.EvaluatePair(truth, detected, r.Start, dataEnd, firstSeen, 0)
	var b strings.Builder
	fmt.Fprintf(&b, "%-30s %6s %9s %8s %9s %9s\n", "detector", "truth", "detected", "excused", "precision", "recall")
	for _, s := range table {
		fmt.Fprintf(&b, "%-30s %6d %9d %8d %9.3f %9.3f\n", s.Name, s.Truth, s.Detected, s.Excused, s.Precision(), s.Recall())
	}
	t.Logf("against the ground truth (seed %d):\n%s", seed, b.String())
	for _, s := range table {
		if s.Truth < 10 {
			t.Errorf("%s: only %d true events in scope, too few to measure", s.Name, s.Truth)
		}
		if s.Precision() < 0.9 || s.Recall() < 0.9 {
			t.Errorf("%s: precision %.3f, recall %.3f: want both ≥ 0.9", s.Name, s.Precision(), s.Recall())
		}
	}
}
