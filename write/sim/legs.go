package sim

import (
	"fmt"
	"math"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"

	"overwatch"
)

// offshoreNM is how far from shore an intentional dark period starts and
// ends: beyond METHODS.md's 50 nm, so that the detector's criterion holds.
const offshoreNM = 55

const kmPerNM = 1.852

// departFrom chooses the next port and plans the leg there.
func (p *Planner) departFrom(t *track, port seaport.Port, commodity, op string, depart time.Time, lat, lon float64) error {
	v := t.v
	var next string
	var ok bool
	switch {
	case v.class.Name == "container":
		next, ok = p.trade.pick(t.r, port.Slug, p.trade.importers[overwatch.CommodityContainers], 0.5, v.DesignDraftM)
	case t.commodity != "":
		next, ok = p.trade.nextDischarge(t.r, v, port.Slug, t.commodity, t.draft)
	default:
		t.loading, next, ok = p.trade.nextLoad(t.r, v, port.Slug)
	}
	if p.world != nil {
		next, ok = p.tradeNext(t, port.Slug, next, ok, depart)
	}
	if !ok {
		return fmt.Errorf("sim: no next port for %s (%s) from %s", v.Name, v.Class, port.Slug)
	}
	return p.planLeg(t, port.Slug, next, depart, lat, lon)
}

// planLeg plans the voyage from the berth spot to an anchorage of the next
// port, with the behaviours drawn for it.
func (p *Planner) planLeg(t *track, from, to string, depart time.Time, lat, lon float64) error {
	v := t.v
	route, err := p.legRoute(from, to, depart, v.SpeedKn)
	if err != nil {
		return err
	}
	dest := p.trade.ports[to]
	anchor := dest.Anchorages[t.r.IntN(len(dest.Anchorages))]
	spotLat, spotLon := offset(anchor.Lat, anchor.Lon, (t.r.Float64()-0.5)*anchor.RadiusKM*1200, (t.r.Float64()-0.5)*anchor.RadiusKM*1200)
	pts := route.Points
	origin := p.trade.ports[from]
	laneEnd := pts[len(pts)-1]
	main := join(
		p.harbourLeg(origin.Area, lat, lon, pts[0][0], pts[0][1]),
		newPath(pts),
		p.harbourLeg(dest.Area, laneEnd[0], laneEnd[1], spotLat, spotLon),
	)
	speed := v.SpeedKn * between(t.r, 0.97, 1.03)
	if t.commodity == "" {
		speed *= 1.04 // faster in ballast
	}
	laden := t.commodity != ""
	t.declared = p.declare(t, to, depart)
	b := &legBuilder{p: p, t: t, speed: speed, at: depart}
	b.base = Segment{Kind: Sail, Port: to, Dest: t.declared, Reported: t.reported, Draft0: t.draft, Draft1: t.draft}

	done := 0.0
	if v.class.Tanker && t.shuttle == nil {
		if area, k, km := p.nearestArea(main); area != nil && km < 300 && t.r.Float64() < p.cfg.Rates.STS {
			d := main.cum[k]
			b.sail(main.sub(done, d))
			done = d
			b.sts(area, main.pts[k], laden)
		}
	}
	if t.r.Float64() < p.cfg.Rates.Loiter {
		if d, ok := p.offshorePoint(t, main, done, 25); ok {
			b.sail(main.sub(done, d))
			done = d
			done = b.loiter(main, done)
		}
	}
	b.sail(main.sub(done, main.lengthKM()))
	segs := b.segs

	if t.darkHead {
		segs = p.darkHead(t, segs)
		t.darkHead = false
	}
	rate := p.cfg.Rates.Gap
	if v.DarkFleet {
		rate *= 5
	}
	if t.r.Float64() < rate {
		segs = p.darkPeriod(t, segs, b.stsStart, b.stsEnd)
	}
	if v.DarkFleet && v.class.Tanker && t.loading != "" && t.r.Float64() < p.cfg.Rates.DarkCall && p.trade.isExporter(to, t.loading) {
		segs = p.darkTail(t, segs)
		t.darkCall, t.darkHead = true, true
	}
	b.writeSTSTruth(segs)
	segs = p.misreport(t, segs, laden)
	if p.world != nil {
		segs = p.deceive(t, segs, from, to)
	}
	if t.r.Float64() < p.cfg.Rates.Spoof {
		p.spoof(t, segs)
	}
	if t.r.Float64() < p.cfg.Rates.Mismatch/3 {
		t.zeroChange = true
	}
	t.segs = append(t.segs, segs...)
	last := segs[len(segs)-1]
	t.next, t.port = last.End, to
	t.draft, t.reported = last.Draft1, last.Reported
	return nil
}

// legBuilder appends the segments of a leg.
type legBuilder struct {
	p                *Planner
	t                *track
	base             Segment
	speed            float64
	at               time.Time
	segs             []Segment
	stsStart, stsEnd time.Time
	stsTruth         *Truth // the leg's transfer, written by writeSTSTruth
}

func (b *legBuilder) draft() float64 {
	if len(b.segs) == 0 {
		return b.base.Draft0
	}
	return b.segs[len(b.segs)-1].Draft1
}

func (b *legBuilder) reported() float64 {
	if len(b.segs) == 0 {
		return b.base.Reported
	}
	return b.segs[len(b.segs)-1].Reported
}

// sail appends a Sail segment along the path at the leg's speed.
func (b *legBuilder) sail(pa *path) {
	if pa.lengthKM() < 0.01 {
		return
	}
	s := b.base
	s.Kind, s.Start, s.Path = Sail, b.at, pa
	s.End = b.at.Add(sailTime(pa.lengthKM(), b.speed))
	s.Draft0, s.Draft1, s.Reported = b.draft(), b.draft(), b.reported()
	b.segs = append(b.segs, s)
	b.at = s.End
}

// stop appends a segment in which the vessel stays about one spot.
func (b *legBuilder) stop(kind SegKind, lat, lon float64, d time.Duration, draftAfter float64) *Segment {
	s := b.base
	s.Kind, s.Start, s.End, s.Lat, s.Lon = kind, b.at, b.at.Add(d), lat, lon
	s.Draft0, s.Draft1, s.Reported = b.draft(), draftAfter, b.reported()
	b.segs = append(b.segs, s)
	b.at = s.End
	return &b.segs[len(b.segs)-1]
}

// loiter stops the vessel offshore for 4-30 hours, stationary or rolling
// slowly along its way, and returns how far along the path it then is.
func (b *legBuilder) loiter(main *path, done float64) float64 {
	t := b.t
	d := time.Duration(between(t.r, 4, 30) * float64(time.Hour))
	lat, lon, _ := main.at(done)
	start := b.at
	subtype := "stationary"
	if t.r.IntN(2) == 0 {
		subtype = "slow_roll"
		knots := between(t.r, 0.8, 1.7)
		km := knots * kmPerNM * d.Hours()
		end := math.Min(main.lengthKM()-20, done+km)
		s := b.base
		s.Kind, s.Start, s.Path, s.SlowRoll = Drift, b.at, main.sub(done, end), true
		s.End = b.at.Add(sailTime(end-done, knots))
		s.Draft0, s.Draft1, s.Reported = b.draft(), b.draft(), b.reported()
		b.segs = append(b.segs, s)
		b.at = s.End
		done = end
	} else {
		b.stop(Drift, lat, lon, d, b.draft())
	}
	b.p.truth.write(Truth{Type: "loitering", Subtype: subtype, Vessels: []overwatch.IMO{t.v.IMO}, Start: tp(start), End: tp(b.at),
		Position: &Position{Lat: lat, Lon: lon}, Detail: map[string]any{"distance_from_shore_nm": math.Round(geo.DistanceToShoreKM(lat, lon) / kmPerNM)}})
	return done
}

// offshorePoint finds a distance along the path, past done and away from
// both ends, at least minNM from shore.
func (p *Planner) offshorePoint(t *track, pa *path, done, minNM float64) (float64, bool) {
	total := pa.lengthKM()
	for try := 0; try < 12; try++ {
		d := between(t.r, math.Max(done, total*0.15), total*0.85)
		if d <= done {
			continue
		}
		lat, lon, _ := pa.at(d)
		if geo.DistanceToShoreKM(lat, lon) >= minNM*kmPerNM {
			return d, true
		}
	}
	return 0, false
}

// positionAt is where the leg's segments put the vessel at time at.
func positionAt(segs []Segment, at time.Time) (lat, lon float64, ok bool) {
	for i := range segs {
		if !at.Before(segs[i].Start) && !at.After(segs[i].End) {
			lat, lon, _, _ = segs[i].position(at)
			return lat, lon, true
		}
	}
	return 0, 0, false
}

// offshoreAt reports whether the vessel is at least offshoreNM from shore
// at the time.
func offshoreAt(segs []Segment, at time.Time) bool {
	lat, lon, ok := positionAt(segs, at)
	return ok && geo.DistanceToShoreKM(lat, lon) >= offshoreNM*kmPerNM
}

// setDark switches AIS off on the segments between from and to, splitting
// the segments at the two times.
func setDark(segs []Segment, from, to time.Time) []Segment {
	var out []Segment
	for _, s := range segs {
		if s.End.After(from) && s.Start.Before(from) {
			a, b := s.split(from)
			out, s = append(out, a), b
		}
		if s.End.After(to) && s.Start.Before(to) {
			a, b := s.split(to)
			a.Dark = true
			out = append(out, a)
			out = append(out, b)
			continue
		}
		if !s.Start.Before(from) && !s.End.After(to) {
			s.Dark = true
		}
		out = append(out, s)
	}
	return out
}

// harbourLeg is the way over water inside a port area between two points:
// the berth and the sea lane, or the lane's anchorage and the spot where the
// vessel anchors.
func (p *Planner) harbourLeg(area seaport.Zone, lat1, lon1, lat2, lon2 float64) *path {
	return newPath(p.harbour.path(area, lat1, lon1, lat2, lon2))
}
