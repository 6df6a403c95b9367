package forecast

import (
	"math"
	"sort"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/portcall"
	"overwatch/maritime/seaport"
)

// The pipeline method: next week's exports of a port from the vessels now
// at the port that are not discharging (anchored or berthed, their call
// still going on) and the vessels sailing towards it (their latest AIS
// destination names the port once normalised, and their ETA, from the
// distance and speed, falls within PipelineETA). Each vessel counts with
// the chance that it leaves within the week, read off the durations of
// the port's completed loading calls (for a vessel in port: given how long
// it has stayed so far, alongside or in all), times what it can load (its deadweight estimate
// × portcall.PayloadShare). The sum is scaled by the port's calibration
// factor: its exports over the model's figure in the last
// PipelineCalibrationWeeks weeks, which takes in the vessels that load
// without having declared the port, part cargoes and the calls that turn
// out not to load. See docs/forecasts.md.

// Pipeline settings.
const (
	PipelineETA        = 7 * 24 * time.Hour // how soon a vessel under way must arrive
	PipelineMinSpeedKt = 3                  // slower: not under way (no ETA)
	PipelineStale      = 72 * time.Hour     // older positions are not counted
	// PipelineDwellWeeks is how far back the loading calls whose
	// durations give a vessel's chance of leaving within the week go.
	PipelineDwellWeeks = 52
	// PipelineCalibrationWeeks is how many past weeks the calibration
	// factor is fitted on; PipelineMinCalibration is the fewest it needs
	// (under that the factor is 1).
	PipelineCalibrationWeeks = 26
	PipelineMinCalibration   = 4
	// PipelineStoppedVessels: a week with no departure although the
	// model expected this many vessels is a stopped port, not calibrated
	// on (Calibrate).
	PipelineStoppedVessels = 4
	MinPipelineWeeks       = 1 // a week with exports gives the fallback cargo per vessel
	// pipelineFactorMin and pipelineFactorMax bound the calibration factor
	// (an import port's pipeline is mostly vessels that come to
	// discharge: its factor lies far below 1).
	pipelineFactorMin, pipelineFactorMax = 0.02, 50
	// pipelineDefaultDwellHours is the duration assumed when a port has no
	// completed loading call yet.
	pipelineDefaultDwellHours = 72
)

// InPort is a call still going on at a port (no departure yet).
type InPort struct {
	IMO       uint32
	Port      string
	Operation string // "discharge" calls are not counted
	Arrival   time.Time
	// Berthed is when it went alongside (zero while it waits at anchor).
	Berthed time.Time
	// DWT is the call's deadweight estimate in tonnes (0: unknown).
	DWT float64
	// ShipType is the vessel's AIS ship type (0: unknown).
	ShipType uint8
}

// Underway is a vessel's latest position and declared destination.
type Underway struct {
	IMO         uint32
	At          time.Time
	Lat, Lon    float64
	SpeedKt     float64
	Destination string
	// DWT is the vessel's deadweight estimate in tonnes (0: unknown).
	DWT float64
	// ShipType is the vessel's AIS ship type (0: unknown).
	ShipType uint8
}

// Bound is a vessel of a port's pipeline: in port since Arrival, or due
// there at Arrival (its ETA).
type Bound struct {
	IMO     uint32
	Port    string
	Arrival time.Time
	InPort  bool
	// Berthed is when a vessel in port went alongside (zero while it
	// waits at anchor, and for a vessel under way).
	Berthed time.Time
	// Capacity is what it can load in tonnes (DWT × PayloadShare; 0 when
	// unknown: the port's mean cargo per loading vessel stands in).
	Capacity float64
	// ShipType is its AIS ship type (0: unknown): a vessel of a kind
	// that has not loaded at the port lately does not count (Dwell).
	ShipType uint8
}

// Pipelines lists, per port slug, the vessels of its pipeline at now:
// the calls in progress that are not discharging, and the vessels not in
// any port whose destination names the port (seaport.OfDestination),
// whose position is not older than PipelineStale, that make at least
// PipelineMinSpeedKt and would arrive (great-circle distance at their
// speed) within PipelineETA.
func Pipelines(now time.Time, calls []InPort, moving []Underway) map[string][]Bound {
	out := map[string][]Bound{}
	inPort := map[uint32]bool{}
	for _, c := range calls {
		inPort[c.IMO] = true
		if c.Operation == portcall.OpDischarge {
			continue
		}
		out[c.Port] = append(out[c.Port], Bound{IMO: c.IMO, Port: c.Port, Arrival: c.Arrival, InPort: true, Berthed: c.Berthed, Capacity: capacity(c.DWT),
			ShipType: c.ShipType})
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
		eta := v.At.Add(time.Duration(hours * float64(time.Hour)))
		out[slug] = append(out[slug], Bound{IMO: v.IMO, Port: slug, Arrival: eta, Capacity: capacity(v.DWT), ShipType: v.ShipType})
	}
	return out
}

// capacity is what a vessel of deadweight dwt loads in full.
func capacity(dwt float64) float64 {
	if !(dwt > 0) || math.IsInf(dwt, 0) {
		return 0
	}
	return dwt * portcall.PayloadShare
}

// Dwell is how long a port's completed loading calls lasted, in hours,
// each list sorted: Call from arrival to departure (the wait at anchor
// included), Berth from going alongside to departure; and Loaders, the
// kinds of vessel (AIS ship type tens: 7 cargo, 8 tanker) that loaded
// there, when the calls know them.
type Dwell struct {
	Call, Berth durations
	Loaders     map[uint8]bool
}

// counts reports whether a vessel of the ship type may load at the port:
// its kind loaded there in the dwell's weeks, or either is unknown. A
// tanker bound for a grain terminal, or a bulk carrier for an LNG one,
// comes to discharge.
func (d Dwell) counts(b Bound) bool {
	return b.ShipType == 0 || len(d.Loaders) == 0 || d.Loaders[b.ShipType/10]
}

// durations are sorted durations in hours.
type durations []float64

// DwellOf is the dwell of the published loading calls of the port that
// departed in the PipelineDwellWeeks weeks before t.
func DwellOf(calls []portcall.Call, port string, t time.Time) Dwell {
	from := t.Add(-PipelineDwellWeeks * week)
	var d Dwell
	for i := range calls {
		c := &calls[i]
		if c.Port != port || !c.Published() || c.Operation != portcall.OpLoad || c.Departure == nil ||
			!c.Departure.Before(t) || c.Departure.Before(from) {
			continue
		}
		d.Call = append(d.Call, c.Departure.Sub(c.Arrival).Hours())
		if c.ShipType > 0 {
			if d.Loaders == nil {
				d.Loaders = map[uint8]bool{}
			}
			d.Loaders[c.ShipType/10] = true
		}
		if c.BerthStart != nil && !c.BerthStart.After(*c.Departure) {
			d.Berth = append(d.Berth, c.Departure.Sub(*c.BerthStart).Hours())
		}
	}
	sort.Float64s(d.Call)
	sort.Float64s(d.Berth)
	return d
}

// share is the share of the durations at most h hours.
func (d durations) share(h float64) float64 {
	if len(d) == 0 {
		if h >= pipelineDefaultDwellHours {
			return 1
		}
		return 0
	}
	return float64(sort.Search(len(d), func(i int) bool { return d[i] > h })) / float64(len(d))
}

// leaves is the chance that vessel b leaves between now and end: for a
// vessel alongside, that its berth stay, already elapsed long, ends by
// end; for one waiting at anchor, the same of its whole call; for one due
// at its ETA, that its whole call fits before end.
func (d Dwell) leaves(b Bound, now, end time.Time) float64 {
	if !end.After(now) {
		return 0
	}
	switch {
	case !b.InPort:
		start := b.Arrival
		if start.Before(now) {
			start = now
		}
		return d.Call.share(end.Sub(start).Hours())
	case !b.Berthed.IsZero() && !b.Berthed.After(now) && len(d.Berth) > 0:
		return d.Berth.given(now.Sub(b.Berthed).Hours(), end.Sub(now).Hours())
	}
	return d.Call.given(math.Max(now.Sub(b.Arrival).Hours(), 0), end.Sub(now).Hours())
}

// given is the chance that a duration already elapsed hours long ends
// within left more hours.
func (d durations) given(elapsed, left float64) float64 {
	stay := 1 - d.share(elapsed)
	if stay <= 0 { // longer than every one seen: it ends soon
		return 1
	}
	return (d.share(elapsed+left) - d.share(elapsed)) / stay
}

// Expected is what a port's pipeline is expected to export in a week.
type Expected struct {
	// Vessels and Tonnes are the model's figures for the rest of the week
	// (from now), before calibration: the sum of the vessels' chances of
	// leaving, and of those chances × their capacity.
	Vessels, Tonnes float64
	// Count is how many vessels the pipeline holds.
	Count int
	// DepartedVessels and DepartedTonnes are the loading calls of the week
	// that already left before now (when the data ends within the week).
	DepartedVessels, DepartedTonnes float64
}

// Expect is the pipeline's expectation between now and end, of the
// vessels of a kind that loads at the port (Dwell.counts). A vessel of
// unknown capacity counts with the mean capacity of the others, or
// fallback when none is known.
func Expect(bound []Bound, d Dwell, now, end time.Time, fallback float64) Expected {
	var e Expected
	var known float64
	n := 0
	for _, b := range bound {
		if d.counts(b) && b.Capacity > 0 && !math.IsInf(b.Capacity, 0) {
			known, n = known+b.Capacity, n+1
		}
	}
	if n > 0 {
		fallback = known / float64(n)
	}
	fallback = nonNegative(fallback)
	for _, b := range bound {
		if !d.counts(b) {
			continue
		}
		e.Count++
		p := d.leaves(b, now, end)
		c := b.Capacity
		if !(c > 0) || math.IsInf(c, 0) {
			c = fallback
		}
		e.Vessels += p
		e.Tonnes += p * c
	}
	return e
}

// CargoPerVessel is the mean tonnes per loading vessel over the last 8
// weeks of the series with exports (0 when none had): the capacity of a
// vessel whose deadweight is unknown.
func CargoPerVessel(s Series) float64 {
	var tonnes, vessels float64
	n := 0
	for i := len(s.Weeks) - 1; i >= 0 && n < 8; i-- {
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
