package sim

import (
	"testing"
	"time"

	"overwatch/maritime/geo"
)

// Every silence of GapOffOn or more is in the truth with its cause (issue
// 17: the gap truth was the detector's own thresholds): ais_gap from
// GapMinimum, ais_off_on below; the vessel switching its AIS off, a
// coverage hole (where the silence crosses one), the revisit interval of
// the satellites, or reception near the coast. A gap is intentional only
// when the vessel switched off, both ends far offshore.
func TestSilencesByCause(t *testing.T) {
	t.Parallel()
	cfg := testConfig(12)
	cfg.Vessels = 240
	c := capture(t, cfg, 12)
	count := map[string]int{}
	for _, tr := range c.truth {
		if tr.Type != "ais_gap" && tr.Type != "ais_off_on" {
			continue
		}
		d := tr.Detail.(map[string]any)
		cause, _ := d["cause"].(string)
		count[tr.Type+"/"+cause]++
		if tr.End == nil {
			if tr.Type != "ais_gap" || d["ongoing"] != true {
				t.Errorf("open silence %+v", tr)
			}
			continue
		}
		h := tr.End.Sub(*tr.Start)
		if tr.Type == "ais_gap" && h < GapMinimum || tr.Type == "ais_off_on" && (h < GapOffOn || h >= GapMinimum) {
			t.Errorf("%s of %s", tr.Type, h)
		}
		switch cause {
		case CauseTransponderOff, CauseSatelliteRevisit, CauseReception:
		case CauseCoverageHole:
			// The straight line between the ends passes through a hole.
			a, b := d["start_position"].(map[string]any), d["end_position"].(map[string]any)
			through := false
			for f := 0.0; f <= 1; f += 0.02 {
				lat, lon := geo.Intermediate(a["lat"].(float64), a["lon"].(float64), b["lat"].(float64), b["lon"].(float64), f)
				through = through || inCoverageHole(lat, lon)
			}
			if !through {
				t.Errorf("a coverage-hole silence away from every hole: %+v", tr)
			}
		default:
			t.Errorf("cause %q: %+v", cause, tr)
		}
		if tr.Subtype == "intentional" && (cause != CauseTransponderOff || d["start_distance_shore_nm"].(float64) <= 50 || d["end_distance_shore_nm"].(float64) <= 50) {
			t.Errorf("intentional without switching off far offshore: %+v", tr)
		}
	}
	t.Logf("silences: %v", count)
	for _, k := range []string{"ais_gap/transponder_off", "ais_off_on/transponder_off", "ais_gap/coverage_hole", "ais_off_on/coverage_hole", "ais_off_on/satellite_revisit"} {
		if count[k] == 0 {
			t.Errorf("no %s in the truth", k)
		}
	}
}

// revisitInterval is longer in the tropics.
func TestRevisitInterval(t *testing.T) {
	t.Parallel()
	s, err := New(testConfig(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := s.emitters[0]
	var tropics, north time.Duration
	for i := 0; i < 200; i++ {
		tropics = max(tropics, e.revisitInterval(5))
		north = max(north, e.revisitInterval(45))
	}
	if north > 5*time.Hour || tropics <= 5*time.Hour || tropics > 8*time.Hour {
		t.Errorf("longest revisit %s in the tropics, %s at 45° N", tropics, north)
	}
}

// On a feed that keeps a position every half hour and a static report every
// three hours, a spoofing of 10 minutes or an implausible draught of two
// hours may never be received: the truth records only those that were
// (spoofing and magnitude recall at sparse sampling counted
// events no data showed). Every one recorded shows in the sentences.
func TestTruthOnAThinnedFeed(t *testing.T) {
	t.Parallel()
	cfg := testConfig(13)
	cfg.Downsample = 180
	cfg.Rates.Spoof, cfg.Rates.Mismatch = 0.5, 0.6
	c := capture(t, cfg, 10)
	vessels := byIMO(decodeAll(t, c), fleetIndex(c))
	n := map[string]int{}
	for _, tr := range c.truth {
		if tr.Type != "spoofing" && !(tr.Type == "draught_mismatch" && tr.Subtype == "magnitude") {
			continue
		}
		n[tr.Type]++
		if !evidence(t, tr, vessels) {
			t.Errorf("no evidence in the sentences for %+v", tr)
		}
	}
	if n["spoofing"] < 5 || n["draught_mismatch"] < 5 {
		t.Errorf("too few to check: %v", n)
	}
}
