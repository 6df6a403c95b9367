package sim

import (
	"math"
	"math/rand/v2"
	"time"

	"overwatch"
	"overwatch/maritime/geo"
	"overwatch/write/ais"
)

// Report is one AIS message a vessel transmits, with the providers that
// received it (bit i stands for overwatch.Sources[i]).
type Report struct {
	At        time.Time
	Vessel    int
	Msg       ais.Message
	Providers uint8
}

// Reception (per report, per provider): terrestrial networks hear vessels
// within terrestrialNM of the coast; satellite providers hear everywhere
// else, less reliably, and only while a satellite is overhead (between
// passes, the revisit interval, nothing is heard: longer in the tropics,
// where the orbits' tracks lie farther apart); and nobody hears the
// coverage holes.
const terrestrialNM = 40

var (
	coastal = [4]float64{0.85, 0.70, 0.15, 0.35} // aishub, aisstream, satellite, spire
	ocean   = [4]float64{0, 0, 0.40, 0.60}
)

// coverageHoles are stretches of open ocean that none of the providers
// hears (the satellites' receivers saturated or blind there), the same for
// every seed: a vessel crossing one is silent from edge to edge, 12 to 20
// hours across the middle.
var coverageHoles = []struct{ lat, lon, radiusKM float64 }{
	{10, -30, 250},  // the mid-Atlantic, on the lanes from Europe and West Africa to South America
	{-25, -25, 250}, // the South Atlantic, between Brazil and the Cape
	{-2, 75, 250},   // the equatorial Indian Ocean, south of the Maldives
}

// inCoverageHole reports whether nobody hears a vessel at the position.
func inCoverageHole(lat, lon float64) bool {
	for _, h := range coverageHoles {
		if math.Abs(lat-h.lat) < 3 && geo.DistanceKM(lat, lon, h.lat, h.lon) < h.radiusKM {
			return true
		}
	}
	return false
}

// revisitInterval draws how long until the next satellite pass hears a
// vessel at the latitude: 1–5 hours, up to 8 in the tropics.
func (e *emitter) revisitInterval(lat float64) time.Duration {
	hi := 5.0
	if math.Abs(lat) < 20 {
		hi = 8
	}
	return time.Duration(between(e.r, 1, hi) * float64(time.Hour))
}

// emitter walks one vessel's timeline at the AIS cadence.
type emitter struct {
	p          *Planner
	t          *track
	r          *rand.Rand
	seg        int
	nextPos    time.Time
	nextStatic time.Time
	outage     time.Time // no reception in open ocean until then
	underway   time.Duration
	stationary time.Duration
	static     time.Duration
	gap        gapTracker
	shore      map[[2]int32]float64
	pending    Report   // the next report, while queued
	spoofed    *pending // the report being built carries a spoofed position: the spoofing's truth
}

func newEmitter(p *Planner, t *track, start time.Time, shore map[[2]int32]float64) *emitter {
	d := time.Duration(p.cfg.Downsample)
	slow := time.Duration(max(1, p.cfg.Downsample/6))
	e := &emitter{p: p, t: t, r: rand.New(rand.NewPCG(p.cfg.Seed^0x5eed, uint64(t.v.Index)+1)),
		underway: 10 * time.Second * d, stationary: 3 * time.Minute * slow, static: 6 * time.Minute * slow, shore: shore}
	e.nextPos = start.Add(time.Duration(e.r.Float64() * float64(e.underway))).Truncate(time.Second)
	e.nextStatic = start.Add(time.Duration(e.r.Float64() * float64(e.static))).Truncate(time.Second)
	e.gap.init(p, t)
	return e
}

// jitter spreads report times by ±10 % so vessels do not report in step;
// reports are stamped in whole seconds, as tag blocks carry them.
func (e *emitter) jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.9 + 0.2*e.r.Float64())).Round(time.Second)
}

// next returns the vessel's next received report at or before limit, or
// false when there is none before the limit or the timeline ends first
// (the planner must run further).
func (e *emitter) next(limit time.Time) (Report, bool) {
	segs := e.t.segs
	for {
		at := e.nextPos
		isStatic := e.nextStatic.Before(at)
		if isStatic {
			at = e.nextStatic
		}
		if at.After(limit) {
			return Report{}, false
		}
		for e.seg < len(segs) && !segs[e.seg].End.After(at) {
			e.seg++
		}
		if e.seg >= len(segs) {
			return Report{}, false
		}
		s := &segs[e.seg]
		if at.Before(s.Start) { // before the vessel's first segment
			first := s.Start.Truncate(time.Second).Add(time.Second)
			e.nextPos, e.nextStatic = first, first.Add(time.Minute)
			continue
		}
		moving := s.Kind == Sail || s.Kind == Shift
		if isStatic {
			e.nextStatic = at.Add(e.jitter(e.static))
		} else if moving {
			e.nextPos = at.Add(e.jitter(e.underway))
		} else {
			e.nextPos = at.Add(e.jitter(e.stationary))
		}
		if at.Before(e.p.cfg.Coarse.Until) {
			e.coarsen(s, at, isStatic)
		}
		if s.Dark {
			e.gap.dark(s)
			continue
		}
		var m ais.Message
		lat, lon := s.Lat, s.Lon
		if isStatic {
			lat, lon, _, _ = s.position(at)
			m = e.staticMessage(s, at)
		} else {
			m = e.positionMessage(s, at)
			lat, lon = m.Lat, m.Lon
		}
		providers := e.receive(at, lat, lon)
		if e.spoofed != nil {
			// A spoofed position is what someone wants seen: it reaches a
			// satellite provider at least (and the ground truth can be
			// checked against the sentences).
			providers |= 1 << 3
			e.p.truth.writeOnce(e.spoofed)
			e.spoofed = nil
		}
		if providers == 0 {
			continue
		}
		if isStatic {
			e.p.truth.writeOnce(s.Misreport)
		}
		if !isStatic {
			e.gap.received(at, s, m.Lat, m.Lon)
		}
		return Report{At: at, Vessel: e.t.v.Index, Msg: m, Providers: providers}, true
	}
}

// positionMessage is a type 1 report of where the vessel is, with the
// noise of a real receiver: GPS jitter, an anchored ship swinging about its
// anchor, speed and course wavering.
func (e *emitter) positionMessage(s *Segment, at time.Time) ais.Message {
	id := e.t.identityAt(at)
	lat, lon, sog, cog := s.position(at)
	heading := cog
	var nav uint8
	switch s.Kind {
	case Sail, Shift:
		lat, lon = offset(lat, lon, e.r.NormFloat64()*8, e.r.NormFloat64()*8)
		sog = math.Max(0, sog+e.r.NormFloat64()*0.2)
		cog = math.Mod(cog+e.r.NormFloat64()*1.5+360, 360)
		heading = cog + e.r.NormFloat64()*2
	case Anchor:
		nav = 1
		swing := float64(at.Unix()%21600) / 21600 * 2 * math.Pi // the tide turns the ship about its anchor
		lat, lon = offset(lat, lon, 120*math.Cos(swing)+e.r.NormFloat64()*5, 120*math.Sin(swing)+e.r.NormFloat64()*5)
		sog, cog, heading = math.Abs(e.r.NormFloat64()*0.15), math.Mod(swing*180/math.Pi+360, 360), math.Mod(swing*180/math.Pi+180, 360)
	case Berth:
		nav = 5
		lat, lon = offset(lat, lon, e.r.NormFloat64()*2, e.r.NormFloat64()*2)
		sog, cog, heading = 0, e.r.Float64()*360, float64(e.t.v.Index%360)
	case Drift, STS:
		if s.SlowRoll {
			lat, lon = offset(lat, lon, e.r.NormFloat64()*10, e.r.NormFloat64()*10)
			sog = math.Max(0.5, sog+e.r.NormFloat64()*0.1)
		} else {
			drift := float64(at.Sub(s.Start).Minutes())
			lat, lon = offset(lat, lon, 20*math.Sin(drift/90)+e.r.NormFloat64()*5, 20*math.Cos(drift/90)+e.r.NormFloat64()*5)
			sog, cog = math.Abs(e.r.NormFloat64()*0.15), e.r.Float64()*360
		}
		heading = cog
	}
	for _, sp := range s.Spoofs {
		if !at.Before(sp.At) && at.Before(sp.At.Add(time.Minute)) {
			lat, lon = sp.Lat, sp.Lon
			e.spoofed = sp.truth
		}
	}
	m := ais.Message{Type: 1, MMSI: id.MMSI, NavStatus: nav, Lat: lat, Lon: lon, SOG: round1(sog), COG: round1(math.Mod(cog, 360)),
		Heading: uint16(math.Mod(math.Round(heading)+360, 360)), Second: uint8(at.Second()),
		Fields: ais.HasPosition | ais.HasSOG | ais.HasCOG | ais.HasHeading | ais.HasNavStatus}
	return m
}

// staticMessage is a type 5 report of the identity in force, the reported
// draught, the declared destination and the ETA.
func (e *emitter) staticMessage(s *Segment, at time.Time) ais.Message {
	v := e.t.v
	id := e.t.identityAt(at)
	bow := uint16(math.Round(v.LengthM * 0.85))
	half := uint16(math.Round(v.BeamM / 2))
	m := ais.Message{Type: 5, MMSI: id.MMSI, IMO: v.IMO, CallSign: id.CallSign, Name: id.Name, ShipType: v.ShipType,
		ToBow: bow, ToStern: uint16(math.Round(v.LengthM)) - bow, ToPort: half, ToStarboard: uint16(math.Round(v.BeamM)) - half,
		EPFD: 1, Draught: s.Reported, Destination: s.Dest,
		Fields: ais.HasIMO | ais.HasCallSign | ais.HasName | ais.HasShipType | ais.HasDimensions | ais.HasDestination}
	if s.Reported > 0 {
		m.Fields |= ais.HasDraught
	}
	if eta, ok := e.eta(at); ok {
		m.ETAMonth, m.ETADay, m.ETAHour, m.ETAMinute = uint8(eta.Month()), uint8(eta.Day()), uint8(eta.Hour()), uint8(eta.Minute())
		m.Fields |= ais.HasETA | ais.HasETATime
	}
	return m
}

// eta is the arrival at the end of the current voyage, as the crew would
// estimate it (within a few hours).
func (e *emitter) eta(at time.Time) (time.Time, bool) {
	segs := e.t.segs
	for i := e.seg; i < len(segs) && i < e.seg+40; i++ {
		if k := segs[i].Kind; k == Anchor || k == Shift || k == Berth {
			if i == e.seg {
				return time.Time{}, false // in port
			}
			eta := segs[i].Start.Add(time.Duration(e.r.NormFloat64() * float64(3*time.Hour))).UTC().Truncate(time.Minute)
			return eta, true
		}
	}
	return time.Time{}, false
}

// receive draws which providers hear a report at the position, and tells
// the gap tracker why none did.
func (e *emitter) receive(at time.Time, lat, lon float64) uint8 {
	probs := &coastal
	if e.shoreNM(lat, lon) > terrestrialNM {
		probs = &ocean
		if inCoverageHole(lat, lon) {
			e.gap.lost(CauseCoverageHole)
			return 0
		}
		if at.Before(e.outage) {
			e.gap.lost(CauseSatelliteRevisit)
			return 0
		}
		// The satellites pass out of reach about once a day and a half,
		// not within the hour after they came back (a pass lasts that long).
		if e.r.Float64() < float64(e.underway)/float64(36*time.Hour) && !at.Before(e.outage.Add(time.Hour)) {
			e.outage = at.Add(e.revisitInterval(lat))
			e.gap.lost(CauseSatelliteRevisit)
			return 0
		}
	}
	var mask uint8
	for i, pr := range probs {
		if e.r.Float64() < pr {
			mask |= 1 << i
		}
	}
	if mask == 0 {
		if probs == &ocean {
			e.gap.lost(CauseSatelliteRevisit)
		} else {
			e.gap.lost(CauseReception)
		}
	}
	return mask
}

// shoreNM is the distance to shore, cached on a 0.1° grid (11 km): plenty
// to tell coastal from open-ocean reception.
func (e *emitter) shoreNM(lat, lon float64) float64 {
	k := [2]int32{int32(math.Floor(lat * 10)), int32(math.Floor(lon * 10))}
	if d, ok := e.shore[k]; ok {
		return d
	}
	d := geo.DistanceToShoreKM(float64(k[0])/10+0.05, float64(k[1])/10+0.05) / kmPerNM
	e.shore[k] = d
	return d
}

// providersOf lists the sources of a mask.
func providersOf(mask uint8) []overwatch.Source {
	var out []overwatch.Source
	for i, s := range overwatch.Sources {
		if mask&(1<<i) != 0 {
			out = append(out, s)
		}
	}
	return out
}
