package sim

import (
	"fmt"
	"math"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"

	"overwatch"
)

// arrive plans the call of a vessel reaching its port at t.next: anchorage,
// berth (the earliest free place of the berth zones handling its cargo, in
// arrival order: a multi-server FIFO queue), cargo operations, and the next
// leg.
func (p *Planner) arrive(t *track) error {
	v := t.v
	port, ok := p.trade.ports[t.port]
	if !ok {
		return fmt.Errorf("sim: unknown port %s", t.port)
	}
	arrivedAt := t.next
	spot := t.segs[len(t.segs)-1]
	anchorLat, anchorLon, _, _ := spot.position(spot.End)
	_, anchorage := nearestZone(port.Anchorages, anchorLat, anchorLon)

	op, commodity, tonnes := p.operation(t, port)
	zone, place, free := p.berthFor(port, commodity)
	if zone == nil {
		return fmt.Errorf("sim: %s has no berth for %s", port.Slug, commodity)
	}
	berthLat, berthLon := offset(zone.Lat, zone.Lon, (t.r.Float64()-0.5)*zone.RadiusKM*1000, (t.r.Float64()-0.5)*zone.RadiusKM*1000)
	shiftPath := p.harbourLeg(port.Area, anchorLat, anchorLon, berthLat, berthLon)
	shiftDur := sailTime(shiftPath.lengthKM(), 6)
	if shiftDur < 20*time.Minute {
		shiftDur = 20 * time.Minute
	}
	pilot := time.Duration(between(t.r, 0.5, 2) * float64(time.Hour))
	berthStart := arrivedAt.Add(pilot + shiftDur)
	if free.After(berthStart) {
		berthStart = free
	}
	ops := time.Duration(v.opsHours(tonnes, between(t.r, 4, 8)) * float64(time.Hour))
	p.settleAnomalies(arrivedAt)
	berthStart, berthEnd := p.world.berthStay(port.Slug, berthStart, ops) // an injected closure holds it
	anchorEnd := berthStart.Add(-shiftDur)
	p.berths[zone.ID][place] = berthEnd.Add(time.Duration(between(t.r, 0.5, 2) * float64(time.Hour)))

	before, reportedBefore := t.draft, t.reported
	after := p.cargoAfter(t, op, commodity, tonnes)
	dark, declared := t.darkCall, t.declared
	base := Segment{Port: port.Slug, Dest: declared, Dark: dark, Reported: reportedBefore, Draft0: before, Draft1: before}
	if anchorEnd.After(arrivedAt) {
		s := base
		s.Kind, s.Start, s.End, s.Lat, s.Lon, s.Zone = Anchor, arrivedAt, anchorEnd, anchorLat, anchorLon, anchorage
		t.segs = append(t.segs, s)
	}
	s := base
	s.Kind, s.Start, s.End, s.Path = Shift, anchorEnd, berthStart, shiftPath
	t.segs = append(t.segs, s)
	s = base
	s.Kind, s.Start, s.End, s.Lat, s.Lon, s.Zone, s.Draft1 = Berth, berthStart, berthEnd, berthLat, berthLon, zone.ID, after
	t.segs = append(t.segs, s)
	t.draft = after
	if t.zeroChange {
		p.mismatch(t, "zero_change", berthEnd, port.Slug, reportedBefore, reportedBefore)
	} else {
		t.reported = round1(after)
	}
	t.darkCall, t.zeroChange = false, false

	call := &PortCall{
		Port: port.Slug, BerthZone: zone.ID, BerthStart: berthStart, BerthEnd: berthEnd, Operation: op, Commodity: commodity,
		CargoTonnes: math.Round(tonnes), DraftBefore: round1(before), DraftAfter: round1(after),
		ReportedFrom: reportedBefore, ReportedTo: t.reported, Dark: dark, Declared: declared,
	}
	if anchorEnd.After(arrivedAt) {
		call.AnchorStart, call.AnchorEnd, call.Anchorage = tp(arrivedAt), tp(anchorEnd), anchorage
	}
	call.Arrival = p.areaEntry(t, port.Area, arrivedAt)
	if err := p.departFrom(t, port, commodity, op, berthEnd, berthLat, berthLon); err != nil {
		return err
	}
	call.Departure = p.areaExit(t, port.Area, berthEnd)
	if dark {
		t.darkCalls = append(t.darkCalls, darkCall{Port: port.Slug, Arrival: call.Arrival, Departed: call.Departure})
	}
	if !call.Departure.Before(p.cfg.Start) {
		p.truth.write(Truth{Type: "port_call", Vessels: []overwatch.IMO{v.IMO}, Start: tp(call.Arrival), End: tp(call.Departure),
			Position: &Position{Lat: zone.Lat, Lon: zone.Lon}, Call: call})
	}
	return nil
}

// operation decides what the vessel does at the port: load a cargo in
// ballast, discharge a laden one; container ships do both.
func (p *Planner) operation(t *track, port seaport.Port) (op, commodity string, tonnes float64) {
	v := t.v
	switch {
	case v.class.Name == "container":
		return "both", overwatch.CommodityContainers, v.capacity() * between(t.r, 0.2, 0.5)
	case t.loading != "":
		// Loads to a full cargo, less what a transfer at sea already put
		// aboard; a draught-restricted port loads only what its depth allows.
		target := v.capacity() * between(t.r, 0.9, 0.98)
		for target > 0 && v.draftFor(target) > port.MaxDraftM {
			target -= v.capacity() * 0.02
		}
		return "load", t.loading, math.Max(target-t.cargo, v.capacity()*0.1)
	default:
		return "discharge", t.commodity, t.cargo
	}
}

// cargoAfter updates what is aboard after the operation and returns the
// actual draught.
func (p *Planner) cargoAfter(t *track, op, commodity string, tonnes float64) float64 {
	v := t.v
	switch op {
	case "load":
		t.commodity, t.cargo, t.loading = commodity, t.cargo+tonnes, ""
	case "discharge":
		t.commodity, t.cargo = "", 0
		return math.Max(v.BallastDraft()-0.3, v.BallastDraft()+between(t.r, -0.3, 0.3)) // ballast water varies
	case "both":
		t.commodity = commodity
		t.cargo = v.capacity() * between(t.r, 0.45, 0.9)
	}
	return v.draftFor(t.cargo)
}

// berthFor returns the berth zone and place handling the commodity that is
// free first, and when.
func (p *Planner) berthFor(port seaport.Port, commodity string) (*seaport.Zone, int, time.Time) {
	var best *seaport.Zone
	bestPlace := -1
	var bestFree time.Time
	for i := range port.Berths {
		z := &port.Berths[i]
		if !z.Handles(commodity) {
			continue
		}
		for place, free := range p.berths[z.ID] {
			if best == nil || free.Before(bestFree) {
				best, bestPlace, bestFree = z, place, free
			}
		}
	}
	return best, bestPlace, bestFree
}

// nearestZone returns the index and id of the zone nearest the point.
func nearestZone(zones []seaport.Zone, lat, lon float64) (int, string) {
	best, id := -1, ""
	bestD := math.Inf(1)
	for i, z := range zones {
		if d := geo.DistanceKM(lat, lon, z.Lat, z.Lon); d < bestD {
			best, id, bestD = i, z.ID, d
		}
	}
	return best, id
}

// areaEntry is when the vessel's timeline, going back from the arrival,
// last entered the area.
func (p *Planner) areaEntry(t *track, area seaport.Zone, arrived time.Time) time.Time {
	entry := arrived
	for i := len(t.segs) - 1; i >= 0; i-- {
		s := &t.segs[i]
		if s.End.After(arrived) {
			continue
		}
		if s.Path == nil {
			if area.Contains(s.Lat, s.Lon) {
				entry = s.Start
				continue
			}
			return entry
		}
		pts, cum := s.Path.pts, s.Path.cum
		for j := len(pts) - 1; j >= 0; j-- {
			if !area.Contains(pts[j][0], pts[j][1]) {
				return s.timeAt(crossing(s.Path, area, cum[j], cum[min(j+1, len(cum)-1)]))
			}
		}
		entry = s.Start
	}
	return entry
}

// areaExit is when the vessel's timeline, from its departure from the
// berth, leaves the area.
func (p *Planner) areaExit(t *track, area seaport.Zone, departed time.Time) time.Time {
	exit := departed
	for i := range t.segs {
		s := &t.segs[i]
		if s.Start.Before(departed) {
			continue
		}
		if s.Path == nil {
			if area.Contains(s.Lat, s.Lon) {
				exit = s.End
				continue
			}
			return exit
		}
		for j, pt := range s.Path.pts {
			if !area.Contains(pt[0], pt[1]) {
				return s.timeAt(crossing(s.Path, area, s.Path.cum[max(j-1, 0)], s.Path.cum[j]))
			}
		}
		exit = s.End
	}
	return exit
}

// crossing finds, by bisection, the distance along the path between a and
// b (one inside the area, the other outside) where it crosses the area's
// edge.
func crossing(pa *path, area seaport.Zone, a, b float64) float64 {
	inA := func(d float64) bool { lat, lon, _ := pa.at(d); return area.Contains(lat, lon) }
	ia := inA(a)
	for i := 0; i < 30 && b-a > 0.01; i++ {
		m := (a + b) / 2
		if inA(m) == ia {
			a = m
		} else {
			b = m
		}
	}
	return (a + b) / 2
}
