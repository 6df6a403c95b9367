package accuracy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"overwatch/apptest"
)

// fleets are the simulated stores of this test binary by their
// simulation (seed, fleet, span, flags), each made once: in make test the
// smoke runs of the detectors and of the predictions read the same
// simulated fleet instead of simulating it twice (the simulation is most
// of a run's time, and a second one proves nothing more at smoke size).
// The stores are only read after the simulation, and the derivations each
// run starts are those the service would run on them anyway.
var fleets struct {
	sync.Mutex
	dir  string // the truths and spool directories, removed by TestMain
	runs map[string]*apptest.EvalRun
}

// sharedFleet is the store of `overwatch simulate` with these arguments,
// simulated by the first test that asks (in the databases named name)
// and kept for the others.
func sharedFleet(t *testing.T, name string, seed uint64, vessels, days int, flags ...string) *apptest.EvalRun {
	t.Helper()
	key := fmt.Sprintf("%d/%d/%d/%s", seed, vessels, days, strings.Join(flags, " "))
	fleets.Lock()
	defer fleets.Unlock()
	if r, ok := fleets.runs[key]; ok {
		t.Logf("the fleet of seed %d, %d vessels over %d days %v: simulated by an earlier run, read again", seed, vessels, days, flags)
		return r
	}
	if fleets.dir == "" {
		dir, err := os.MkdirTemp("", "overwatch-accuracy-")
		if err != nil {
			t.Fatal(err)
		}
		fleets.dir, fleets.runs = dir, map[string]*apptest.EvalRun{}
	}
	r := apptest.SimulateWithRates(t, name, seed, vessels, days, flags...)
	// The truth and the spool outlive this test (its TempDir does not).
	own := filepath.Join(fleets.dir, name)
	if err := os.MkdirAll(filepath.Join(own, "spool"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(r.TruthPath)
	if err != nil {
		t.Fatal(err)
	}
	r.TruthPath = filepath.Join(own, "truth.jsonl")
	if err := os.WriteFile(r.TruthPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r.Env["OVERWATCH_SPOOL_DIR"] = filepath.Join(own, "spool")
	fleets.runs[key] = r
	return r
}

// TestMain removes the shared fleets' files after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if fleets.dir != "" {
		os.RemoveAll(fleets.dir) //nolint:errcheck // a temporary directory
	}
	os.Exit(code)
}
