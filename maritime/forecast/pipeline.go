package forecast

import (
	"math"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/portcall"
	"overwatch/maritime/seaport"
)

// The pipeline method: next week's exports of a port are the vessels now
// at the port that are not discharging (anchored or berthed, their call
// still going on) and the vessels sailing towards it (their latest AIS
// destination names the port once normalised, and their ETA, from the
// distance and speed, falls within PipelineETA), each carrying the port's
// mean cargo per loading vessel over the last PipelineCargoWeeks weeks
// with exports.

// Pipeline settings.
const (
	PipelineETA        = 7 * 24 * time.Hour // how soon a vessel under way must arrive
	PipelineCargoWeeks = 8                  // weeks of the mean cargo per vessel
	PipelineMinSpeedKt = 3                  // slower: not under way (no ETA)
	PipelineStale      = 72 * time.Hour     // older positions are not counted
	MinPipelineWeeks   = 1                  // a week with exports gives the mean cargo
)

// InPort is a call still going on at a port (no departure yet).
type InPort struct {
	IMO       uint32
	Port      string
	Operation string // "discharge" calls are not counted
}

// Underway is a vessel's latest position and declared destination.
type Underway struct {
	IMO         uint32
	At          time.Time
	Lat, Lon    float64
	SpeedKt     float64
	Destination string
}

// PipelineVessels are the vessels counted in a port's pipeline at now.
type PipelineVessels struct {
	InPort   int
	Underway int
}

// Total is every vessel of the pipeline.
func (p PipelineVessels) Total() int { return p.InPort + p.Underway }

// Pipelines counts, per port slug, the vessels of its pipeline at now: the
// calls in progress that are not discharging, and the vessels not in any
// port whose destination names the port (seaport.OfDestination), whose
// position is not older than PipelineStale, that make at least
// PipelineMinSpeedKt and would arrive (great-circle distance at their
// speed) within PipelineETA.
func Pipelines(now time.Time, calls []InPort, moving []Underway) map[string]PipelineVessels {
	out := map[string]PipelineVessels{}
	inPort := map[uint32]bool{}
	for _, c := range calls {
		inPort[c.IMO] = true
		if c.Operation == portcall.OpDischarge {
			continue
		}
		p := out[c.Port]
		p.InPort++
		out[c.Port] = p
	}
	for _, v := range moving {
		if inPort[v.IMO] || now.Sub(v.At) > PipelineStale || !(v.SpeedKt >= PipelineMinSpeedKt) {
			continue
		}
		slug, ok := seaport.OfDestination(v.Destination)
		if !ok {
			continue
		}
		port, ok := seaport.BySlug(slug)
		if !ok {
			continue
		}
		km := geo.DistanceKM(v.Lat, v.Lon, port.Lat, port.Lon)
		hours := km / 1.852 / v.SpeedKt
		if math.IsNaN(hours) || hours > PipelineETA.Hours() {
			continue
		}
		p := out[slug]
		p.Underway++
		out[slug] = p
	}
	return out
}

// CargoPerVessel is the mean tonnes per loading vessel over the last
// PipelineCargoWeeks weeks of the series with exports (0 when none had).
func CargoPerVessel(s Series) float64 {
	var tonnes, vessels float64
	n := 0
	for i := len(s.Weeks) - 1; i >= 0 && n < PipelineCargoWeeks; i-- {
		w := s.Weeks[i]
		if w.Vessels > 0 && w.Tonnes > 0 {
			tonnes, vessels, n = tonnes+finite(w.Tonnes), vessels+finite(w.Vessels), n+1
		}
	}
	if vessels == 0 {
		return 0
	}
	return tonnes / vessels
}

// Pipeline forecasts the next week from count vessels each carrying
// cargo tonnes. Its interval treats the count as Poisson: (count ∓
// 1.96·√count) × cargo, the lower bound at least 0.
func Pipeline(count int, cargo float64) (tonnes, lower, upper float64) {
	c := float64(max(count, 0))
	cargo = nonNegative(cargo)
	half := 1.96 * math.Sqrt(c)
	return c * cargo, math.Max(0, c-half) * cargo, (c + half) * cargo
}

// PipelineHistory reconstructs, per port and week, the pipeline's vessel
// count at the week's Monday, for the backtest: the published calls in
// progress at the port at that instant and the published calls that
// arrived in the week having declared the port (their normalised declared
// destination), in both cases not discharging. What a call turned out to
// be stands in for what was known then (the ETA is the real arrival).
func PipelineHistory(calls []portcall.Call, weeks []time.Time) map[string]map[time.Time]int {
	out := map[string]map[time.Time]int{}
	for _, w := range weeks {
		end := w.Add(week)
		for i := range calls {
			c := &calls[i]
			if !c.Published() || c.Operation == portcall.OpDischarge {
				continue
			}
			inPort := c.Arrival.Before(w) && (c.Departure == nil || !c.Departure.Before(w))
			arriving := !c.Arrival.Before(w) && c.Arrival.Before(end) && c.DeclaredPort == c.Port
			if !inPort && !arriving {
				continue
			}
			if out[c.Port] == nil {
				out[c.Port] = map[time.Time]int{}
			}
			out[c.Port][w]++
		}
	}
	return out
}
