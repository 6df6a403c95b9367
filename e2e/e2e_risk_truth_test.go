package e2e

import (
	"os"
	"overwatch/apptest"
	"strconv"
	"testing"
	"time"
)

// riskPairRates are the rates of ship-to-ship transfers, draught
// misreports and identity changes, raised from sim.DefaultRates so that
// each pair detector is measured on tens of events.
var riskPairRates = []string{"--sts-rate", "0.9", "--mismatch-rate", "0.3", "--identity-rate", "0.3"}

// Every risk detector against the ground truth of one seeded simulation
// with raised rates of every behaviour they look for (riskSingleRates and
// riskPairRates), stored through the real pipeline and derived by the
// port_calls and risk_events jobs: the single-vessel detectors
// (evaluateRiskSingle) and the pair and identity detectors
// (evaluateRiskPair) read the same store, as the service derives them
// from one feed. OVERWATCH_EVAL_FULL=1 runs the default fleet and span,
// OVERWATCH_EVAL_DEFAULT_RATES=1 the simulator's own rates,
// OVERWATCH_EVAL_SEED another seed (make accuracy measures the detectors
// through the API on three seeds at the default, doubled and sparse
// settings).
func TestRiskDetectorsAgainstGroundTruth(t *testing.T) {
	t.Parallel() // its own databases
	vessels, days, seed := 300, 21, uint64(11)
	if v, err := strconv.ParseUint(os.Getenv("OVERWATCH_EVAL_SEED"), 10, 64); err == nil {
		seed = v
	}
	if os.Getenv("OVERWATCH_EVAL_FULL") == "1" { // the default fleet and span
		vessels, days = 800, 30
	}
	rates := append(append([]string{}, riskSingleRates...), riskPairRates...)
	if os.Getenv("OVERWATCH_EVAL_DEFAULT_RATES") == "1" { // the simulator's default event rates
		rates = nil
	}
	r := apptest.SimulateWithRates(t, "risk_truth", seed, vessels, days, rates...)
	began := time.Now()
	events := r.StoredRiskEvents(t)
	t.Logf("%d vessels over %d days (seed %d): port_calls and risk_events jobs in %s, %d events stored",
		vessels, days, seed, time.Since(began).Round(time.Millisecond), len(events))
	t.Run("single", func(t *testing.T) { evaluateRiskSingle(t, r, events) })
	t.Run("pair", func(t *testing.T) { evaluateRiskPair(t, r, events, seed) })
}
