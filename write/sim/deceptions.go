package sim

import (
	"time"

	"overwatch"
	"overwatch/maritime/seaport"
)

// deceive draws, on a laden leg from a loading port (not a liner's) whose
// destination is declared truly, after the warm-up, at the Trade rates: a deceptive destination (another
// port declared from the departure, kept until the arrival or changed 12-48
// hours before it to the real port, in another country), or an honest late
// change of orders (a port of the same country declared, changed 24-96
// hours before the arrival to the real one). See docs/trade-routes.md for
// what the detector calls suspicious. The truth is written at once:
// deceptive_destination or destination_change (subtype honest), from the
// departure to the arrival at the destination's anchorage.
func (p *Planner) deceive(t *track, segs []Segment, from, to string) []Segment {
	w := p.world
	if w == nil || w.cfg.Deceptive <= 0 && w.cfg.Honest <= 0 || len(segs) == 0 {
		return segs
	}
	// Liner calls (containers) load and discharge at every port: no voyage
	// from a loading to a discharging call to judge.
	if t.commodity == "" || t.v.class.Name == "container" || t.darkCall || segs[0].Dark || !p.trade.isExporter(from, t.commodity) {
		return segs
	}
	if slug, ok := seaport.OfDestination(t.declared); !ok || slug != to {
		return segs
	}
	depart, arrive := segs[0].Start, segs[len(segs)-1].End
	// Not in the warm-up, whose loading calls nobody sees.
	if depart.Before(p.cfg.Start) || arrive.Sub(depart) < 72*time.Hour {
		return segs
	}
	actual, _ := seaport.BySlug(to)
	x := t.r.Float64()
	honest := false
	switch {
	case x < w.cfg.Deceptive:
	case x < w.cfg.Deceptive+w.cfg.Honest:
		honest = true
	default:
		return segs
	}
	kept := !honest && t.r.IntN(2) == 0
	var others []string
	for _, port := range seaport.All() {
		if port.Slug == to || port.Slug == from {
			continue
		}
		same := port.Country == actual.Country
		if honest && same || !honest && (kept || !same) {
			others = append(others, port.Slug)
		}
	}
	if len(others) == 0 {
		return segs
	}
	other := others[t.r.IntN(len(others))]
	// A form the normalisation resolves (a short form may name no port).
	declared := otherPortText(t, other)
	truly := t.declared
	for i := range segs {
		segs[i].Dest = declared
	}
	otherPort, _ := seaport.BySlug(other)
	detail := map[string]any{"declared": declared, "declared_port": other, "actual_port": to,
		"other_country": otherPort.Country != actual.Country}
	if kept {
		t.declared = declared
	} else {
		lo, hi := 12.0, 48.0
		if honest {
			lo, hi = 24, 96
		}
		at := arrive.Add(-time.Duration(between(t.r, lo, hi) * float64(time.Hour))).Truncate(time.Second)
		if at.Before(depart.Add(12 * time.Hour)) {
			at = depart.Add(12 * time.Hour)
		}
		segs = setDest(segs, at, truly)
		detail["changed_at"] = at
	}
	typ, subtype := "deceptive_destination", ""
	if honest {
		typ, subtype = "destination_change", "honest"
	}
	detail["kept_until_arrival"] = kept
	a := actual.Area
	p.truth.write(Truth{Type: typ, Subtype: subtype, Vessels: []overwatch.IMO{t.v.IMO}, Start: tp(depart), End: tp(arrive),
		Position: &Position{Lat: a.Lat, Lon: a.Lon}, Detail: detail})
	return segs
}

// setDest sets the declared destination from a time on, splitting the
// segment holding it.
func setDest(segs []Segment, at time.Time, dest string) []Segment {
	var out []Segment
	for _, s := range segs {
		if s.Start.Before(at) && s.End.After(at) {
			a, b := s.split(at)
			b.Dest = dest
			out = append(out, a, b)
			continue
		}
		if !s.Start.Before(at) {
			s.Dest = dest
		}
		out = append(out, s)
	}
	return out
}

// otherPortText is a declared form of the port that names it.
func otherPortText(t *track, port string) string {
	l, _ := seaport.BySlug(port)
	for try := 0; try < 8; try++ {
		text := declaredName(t.r, port)
		if slug, ok := seaport.OfDestination(text); ok && slug == port {
			return text
		}
	}
	return l.LOCODE
}
