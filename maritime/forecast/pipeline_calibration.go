package forecast

import (
	"math"
	"time"

	"overwatch/maritime/portcall"
)

// PipelineHistory reconstructs, per port and Monday, the pipeline's
// expectation for the week that starts then, for the backtest and the
// calibration: the published calls in progress at the port at that
// instant and the published calls that arrived in the week having
// declared the port (their normalised declared destination), in both
// cases not discharging, each with its deadweight estimate (and, in port,
// whether it was alongside yet); their chances
// of leaving within the week from the durations of the port's loading
// calls that left before the Monday. What a call turned out to be stands
// in for what was known then (the ETA is the real arrival, the operation
// the final one).
func PipelineHistory(calls []portcall.Call, weeks []time.Time) map[string]map[time.Time]Expected {
	byPort := map[string][]portcall.Call{}
	for _, c := range calls {
		if c.Published() {
			byPort[c.Port] = append(byPort[c.Port], c)
		}
	}
	out := map[string]map[time.Time]Expected{}
	for port, pc := range byPort {
		for _, w := range weeks {
			end := w.Add(week)
			var bound []Bound
			for i := range pc {
				c := &pc[i]
				if c.Operation == portcall.OpDischarge {
					continue
				}
				inPort := c.Arrival.Before(w) && (c.Departure == nil || !c.Departure.Before(w))
				arriving := !c.Arrival.Before(w) && c.Arrival.Before(end) && c.DeclaredPort == c.Port
				if inPort || arriving {
					b := Bound{IMO: uint32(c.IMO), Port: port, Arrival: c.Arrival, InPort: inPort, Capacity: capacity(c.DWTEstimate), ShipType: c.ShipType}
					if inPort && c.BerthStart != nil && c.BerthStart.Before(w) {
						b.Berthed = *c.BerthStart
					}
					bound = append(bound, b)
				}
			}
			if len(bound) == 0 {
				continue
			}
			if out[port] == nil {
				out[port] = map[time.Time]Expected{}
			}
			out[port][w] = Expect(bound, DwellOf(pc, port, w), w, end, 0)
		}
	}
	return out
}

// Calibration is a port's pipeline calibration at an origin: Factor
// scales the model's tonnes (1 when fewer than PipelineMinCalibration
// weeks could be fitted), RelSD is the root mean square of the relative
// errors of the calibrated model over those weeks, Weeks how many there
// were.
type Calibration struct {
	Factor, RelSD float64
	Weeks         int
}

// Calibrate fits the calibration at origin o of the series (index of
// the first week forecast) on the PipelineCalibrationWeeks weeks before
// it whose reconstructed pipeline (hist, by Monday) expected tonnes: the
// weeks' exports over the model's tonnes, bounded to [0.02, 50]. A week in
// which no vessel left although the model expected PipelineStoppedVessels
// or more (Poisson: under a 2% chance) is the port stopping (a closure, a
// strike), which no pipeline foresees: it is left out, lest it pull the
// ordinary weeks' factor down.
func Calibrate(s Series, hist map[time.Time]Expected, o int) Calibration {
	var model, actual []float64
	for k := max(0, o-PipelineCalibrationWeeks); k < o && k < len(s.Weeks); k++ {
		e, ok := hist[s.Weeks[k].Start]
		if !ok || !(e.Tonnes > 0) || math.IsInf(e.Tonnes, 0) || e.Vessels >= PipelineStoppedVessels && !(s.Weeks[k].Vessels > 0) {
			continue
		}
		model, actual = append(model, e.Tonnes), append(actual, finite(s.Weeks[k].Tonnes))
	}
	c := Calibration{Factor: 1, Weeks: len(model)}
	if c.Weeks < PipelineMinCalibration {
		return c
	}
	var sm, sa float64
	for i := range model {
		sm, sa = sm+model[i], sa+actual[i]
	}
	c.Factor = math.Min(math.Max(sa/sm, pipelineFactorMin), pipelineFactorMax)
	var sq float64
	for i := range model {
		r := actual[i]/(c.Factor*model[i]) - 1
		sq += r * r
	}
	c.RelSD = math.Sqrt(sq / float64(len(model)))
	return c
}

// Pipeline forecasts the week from its pipeline: the tonnes already gone
// plus the calibrated expectation of the rest. Its 95% interval is
// ±1.96·RelSD around the calibrated expectation; without a calibration,
// the vessels are treated as Poisson (±1.96·√vessels at their mean
// cargo). The lower bound is at least the tonnes already gone.
func Pipeline(e Expected, c Calibration) (tonnes, lower, upper, vessels float64) {
	rest := nonNegative(e.Tonnes) * nonNegative(c.Factor)
	done := nonNegative(e.DepartedTonnes)
	var half float64
	switch v := nonNegative(e.Vessels); {
	case c.Weeks >= PipelineMinCalibration:
		half = 1.96 * nonNegative(c.RelSD) * rest
	case v > 0:
		half = 1.96 * math.Sqrt(v) * rest / v
	}
	tonnes = done + rest
	return tonnes, math.Max(done, tonnes-half), nonNegative(tonnes + half), nonNegative(e.Vessels) + nonNegative(e.DepartedVessels)
}
