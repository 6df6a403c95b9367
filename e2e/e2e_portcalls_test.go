package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/write/sim"
	"slices"
	"testing"
	"time"
)

// evalScale is the seeded simulation the port-call test measures: small
// in `make test`, the default fleet over 30 days with OVERWATCH_EVAL_FULL=1
// (`make bench-derive`).
func evalScale() (vessels, days int) {
	if os.Getenv("OVERWATCH_EVAL_FULL") == "1" {
		return 800, 30
	}
	return 200, 14
}

// The port calls, waiting times and cargo estimates derived by the jobs
// from a seeded simulation, through the real pipeline, ClickHouse and
// the jobs command, against the simulation's ground truth.
func TestPortCallsAgainstGroundTruth(t *testing.T) {
	t.Parallel() // its own databases
	vessels, days := evalScale()
	r := apptest.SimulateForEval(t, "portcalls_eval", 7, vessels, days)
	start, end, chURL := r.Start, r.End, r.ChURL
	ctx := context.Background()
	out := &apptest.SyncWriter{}
	began := time.Now()
	r.Command(t, out, "jobs", "--once")
	full := time.Since(began)
	t.Logf("all derivations over %d days of %d vessels: %s\n%s", days, vessels, full.Round(time.Millisecond), out)
	// A second run is incremental (the trailing window) and changes nothing.
	ch, err := clickhouse.Open(chURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	before, err := ch.Calls(ctx, start.Add(-time.Hour), end.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	began = time.Now()
	out2 := &apptest.SyncWriter{}
	r.Command(t, out2, "jobs", "--once")
	t.Logf("incremental run: %s\n%s", time.Since(began).Round(time.Millisecond), out2)
	calls, err := ch.Calls(ctx, start.Add(-time.Hour), end.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(before, calls, sameCall) {
		t.Errorf("a re-run changed the calls: %d then %d", len(before), len(calls))
	}

	truth := readTruthCalls(t, r.TruthPath)
	e := evaluateCalls(truth, calls, start.Add(6*time.Hour), end.Add(-6*time.Hour))
	t.Logf("port calls: %d true, %d detected; precision %.3f recall %.3f; waiting: median error %.1f%% over %d calls, median wait %.1f h detected vs %.1f h true; cargo: median error %.1f%%, %.0f%% within 15%% over %d calls (totals %.0f t est. vs %.0f t true)",
		e.truth, e.detected, e.precision, e.recall, 100*e.waitErr, e.waits, e.waitDetected, e.waitTrue, 100*e.cargoErr, 100*e.cargoWithin, e.cargos, e.cargoEst, e.cargoTrue)
	if e.precision < 0.95 || e.recall < 0.95 {
		t.Errorf("precision %.3f, recall %.3f: want both ≥ 0.95", e.precision, e.recall)
	}
	if e.waits < 10 || e.waitErr > 0.10 {
		t.Errorf("waiting times: median error %.1f%% over %d calls, want ≤ 10%%", 100*e.waitErr, e.waits)
	}
	if e.cargos < 10 || e.cargoErr > 0.15 {
		t.Errorf("cargo: median error %.1f%% over %d calls, want ≤ 15%%", 100*e.cargoErr, e.cargos)
	}
}

func sameCall(a, b portcall.Call) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

type truthCall struct {
	imo overwatch.IMO
	sim.PortCall
}

func readTruthCalls(t *testing.T, path string) []truthCall {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []truthCall
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tr sim.Truth
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		if tr.Type == "port_call" && tr.Call != nil {
			out = append(out, truthCall{tr.Vessels[0], *tr.Call})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

type callEval struct {
	truth, detected                 int
	precision, recall               float64
	waits                           int
	waitErr, waitDetected, waitTrue float64
	cargos                          int
	cargoErr, cargoWithin           float64
	cargoEst, cargoTrue             float64
}

// evaluateCalls matches published detected calls to true calls (same
// vessel and port, overlapping in time) among the calls wholly inside
// [from, to]. Dark true calls (the vessel's AIS off in port) are not
// expected to be found, but finding one is no false positive.
func evaluateCalls(truth []truthCall, detected []portcall.Call, from, to time.Time) callEval {
	inside := func(a, d time.Time) bool { return !a.Before(from) && !d.After(to) }
	var e callEval
	used := map[int]bool{}
	var waitErrs, cargoErrs, waitsD, waitsT []float64
	matchedTruth := map[int]bool{}
	for _, c := range detected {
		if !c.Published() || c.Departure == nil || !inside(c.Arrival, *c.Departure) {
			continue
		}
		e.detected++
		for i, tc := range truth {
			if used[i] || tc.imo != c.IMO || tc.Port != c.Port || !tc.Arrival.Before(*c.Departure) || !c.Arrival.Before(tc.Departure) {
				continue
			}
			used[i], matchedTruth[i] = true, true
			if tc.AnchorStart != nil && tc.AnchorEnd != nil && c.WaitHours() > 0 {
				tw := tc.AnchorEnd.Sub(*tc.AnchorStart).Hours()
				waitErrs = append(waitErrs, math.Abs(c.WaitHours()-tw)/tw)
				waitsD, waitsT = append(waitsD, c.WaitHours()), append(waitsT, tw)
				if os.Getenv("EVAL_DEBUG") != "" {
					fmt.Printf("wait %d %s: true %s..%s (%.2f h) detected %s..%s (%.2f h)\n", c.IMO, c.Port, tc.AnchorStart.Format("02T15:04"), tc.AnchorEnd.Format("02T15:04"), tw,
						c.AnchorStart.Format("02T15:04"), c.AnchorEnd.Format("02T15:04"), c.WaitHours())
				}
			}
			if (tc.Operation == "load" || tc.Operation == "discharge") && tc.CargoTonnes > 0 && c.CargoQuality != portcall.CargoNoDraught &&
				tc.ReportedFrom > 0 && tc.ReportedTo > 0 {
				cargoErrs = append(cargoErrs, math.Abs(c.CargoTonnes-tc.CargoTonnes)/tc.CargoTonnes)
				e.cargoEst += c.CargoTonnes
				e.cargoTrue += tc.CargoTonnes
			}
			break
		}
	}
	found := 0
	for i, tc := range truth {
		if tc.Dark || !inside(tc.Arrival, tc.Departure) {
			continue
		}
		e.truth++
		if matchedTruth[i] {
			found++
		}
	}
	if e.detected > 0 {
		e.precision = float64(len(matchedTruth)) / float64(e.detected)
	}
	if e.truth > 0 {
		e.recall = float64(found) / float64(e.truth)
	}
	e.waits, e.waitErr = len(waitErrs), portstats.Quantile(waitErrs, 0.5)
	e.waitDetected, e.waitTrue = portstats.Quantile(waitsD, 0.5), portstats.Quantile(waitsT, 0.5)
	e.cargos, e.cargoErr = len(cargoErrs), portstats.Quantile(cargoErrs, 0.5)
	for _, x := range cargoErrs {
		if x <= 0.15 {
			e.cargoWithin++
		}
	}
	if e.cargos > 0 {
		e.cargoWithin /= float64(e.cargos)
	}
	return e
}

var _ = fmt.Sprintf
