package sim

import (
	"math"
	"strings"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
)

// darkPeriod switches AIS off for 6-48 hours of the leg, starting and
// ending at least offshoreNM from shore: an AIS gap from 12 hours, an
// off/on event below. For the dark fleet, a transfer at sea on the leg is
// hidden in a dark period of 6-24 hours or more when possible, so that the
// draught changes across the silence.
func (p *Planner) darkPeriod(t *track, segs []Segment, stsStart, stsEnd time.Time) []Segment {
	start, end := segs[0].Start, segs[len(segs)-1].End
	if t.v.DarkFleet && !stsStart.IsZero() && t.r.IntN(2) == 0 {
		least := time.Duration(between(t.r, 6, 24) * float64(time.Hour))
		from, to := stsStart, stsEnd
		for from.After(start.Add(time.Hour)) && !offshoreAt(segs, from) && stsStart.Sub(from) < 40*time.Hour {
			from = from.Add(-30 * time.Minute)
		}
		for to.Before(end.Add(-time.Hour)) && (!offshoreAt(segs, to) || to.Sub(from) < least) && to.Sub(stsEnd) < 40*time.Hour {
			to = to.Add(30 * time.Minute)
		}
		if offshoreAt(segs, from) && offshoreAt(segs, to) && to.Sub(from) >= least {
			return setDark(segs, from, to)
		}
	}
	d := time.Duration(between(t.r, 6, 48) * float64(time.Hour))
	window := end.Sub(start) - d - 12*time.Hour
	if window <= 0 {
		return segs
	}
	for try := 0; try < 20; try++ {
		from := start.Add(6*time.Hour + time.Duration(t.r.Float64()*float64(window)))
		if offshoreAt(segs, from) && offshoreAt(segs, from.Add(d)) {
			return setDark(segs, from, from.Add(d))
		}
	}
	return segs
}

// darkTail switches AIS off for the end of a leg, from the last point
// offshoreNM out (or 10 hours out when there is none within 48 hours).
func (p *Planner) darkTail(t *track, segs []Segment) []Segment {
	end := segs[len(segs)-1].End
	from := end.Add(-10 * time.Hour)
	for back := 30 * time.Minute; back <= 48*time.Hour; back += 30 * time.Minute {
		if at := end.Add(-back); at.After(segs[0].Start) && offshoreAt(segs, at) {
			from = at
			break
		}
	}
	if from.Before(segs[0].Start) {
		from = segs[0].Start
	}
	return setDark(segs, from, end)
}

// darkHead switches AIS off for the start of a leg, until the first point
// offshoreNM out (or for 10 hours).
func (p *Planner) darkHead(t *track, segs []Segment) []Segment {
	start := segs[0].Start
	to := start.Add(10 * time.Hour)
	for fwd := 30 * time.Minute; fwd <= 48*time.Hour; fwd += 30 * time.Minute {
		if at := start.Add(fwd); at.Before(segs[len(segs)-1].End) && offshoreAt(segs, at) {
			to = at
			break
		}
	}
	if end := segs[len(segs)-1].End; to.After(end) {
		to = end
	}
	return setDark(segs, start, to)
}

// misreport draws the draught misreports of a leg: a directional one (the
// draught reported up in ballast or down laden, with no port call) until the
// next call, or a few hours of an implausible magnitude.
func (p *Planner) misreport(t *track, segs []Segment, laden bool) []Segment {
	v := t.v
	start, end := segs[0].Start, segs[len(segs)-1].End
	if end.Sub(start) < 24*time.Hour {
		return segs
	}
	at := start.Add(time.Duration(between(t.r, 0.3, 0.6) * float64(end.Sub(start))))
	lat, lon, _ := positionAt(segs, at)
	switch x := t.r.Float64(); {
	case x < p.cfg.Rates.Mismatch/2:
		old := reportedAt(segs, at)
		change := between(t.r, 2, 4)
		next := math.Min(v.DesignDraftM, old+change)
		if laden {
			next = math.Max(v.BallastDraft()-0.5, old-change)
		}
		next = round1(next)
		segs = setReported(segs, at, end, next)
		p.truth.write(Truth{Type: "draught_mismatch", Subtype: "directional", Vessels: []overwatch.IMO{v.IMO}, Start: tp(at), End: tp(end),
			Position: &Position{Lat: lat, Lon: lon}, Detail: map[string]any{"reported_from": old, "reported_to": next, "actual": round1(t.draft)}})
	case x < p.cfg.Rates.Mismatch/2+p.cfg.Rates.Mismatch/3:
		old := reportedAt(segs, at)
		wrong := round1(v.DesignDraftM * between(t.r, 1.6, 2.2))
		to := at.Add(time.Duration(between(t.r, 2, 6) * float64(time.Hour)))
		segs = setReported(segs, at, to, wrong)
		// Written when a static report carrying it is received (a feed that
		// keeps one in three hours may carry none of two hours of it).
		pt := &pending{tr: Truth{Type: "draught_mismatch", Subtype: "magnitude", Vessels: []overwatch.IMO{v.IMO}, Start: tp(at), End: tp(to),
			Position: &Position{Lat: lat, Lon: lon}, Detail: map[string]any{"reported_from": old, "reported_to": wrong, "design_draft": v.DesignDraftM}}}
		for i := range segs {
			if !segs[i].Start.Before(at) && !segs[i].End.After(to) {
				segs[i].Misreport = pt
			}
		}
	}
	return segs
}

// mismatch records a zero-change misreport: a call that moved cargo
// without the reported draught changing.
func (p *Planner) mismatch(t *track, subtype string, at time.Time, port string, from, to float64) {
	z := p.trade.ports[port].Area
	p.truth.write(Truth{Type: "draught_mismatch", Subtype: subtype, Vessels: []overwatch.IMO{t.v.IMO}, Start: tp(at), End: tp(at),
		Position: &Position{Lat: z.Lat, Lon: z.Lon}, Detail: map[string]any{"port": port, "reported_from": from, "reported_to": to, "actual": round1(t.draft)}})
}

func reportedAt(segs []Segment, at time.Time) float64 {
	for _, s := range segs {
		if !at.Before(s.Start) && at.Before(s.End) {
			return s.Reported
		}
	}
	return segs[len(segs)-1].Reported
}

// setReported sets the reported draught from one time to another,
// splitting segments at both.
func setReported(segs []Segment, from, to time.Time, value float64) []Segment {
	var out []Segment
	for _, s := range segs {
		if s.Start.Before(from) && s.End.After(from) {
			a, b := s.split(from)
			out, s = append(out, a), b
		}
		if s.Start.Before(to) && s.End.After(to) {
			a, b := s.split(to)
			a.Reported = value
			out = append(out, a, b)
			continue
		}
		if !s.Start.Before(from) && !s.End.After(to) {
			s.Reported = value
		}
		out = append(out, s)
	}
	return out
}

// spoof places 10-40 minutes of a leg's reports 300-1,500 km away, at sea.
func (p *Planner) spoof(t *track, segs []Segment) {
	for try := 0; try < 10; try++ {
		i := t.r.IntN(len(segs))
		s := &segs[i]
		if s.Kind != Sail || s.Dark || s.duration() < 3*time.Hour {
			continue
		}
		at := s.Start.Add(time.Duration(between(t.r, 0.2, 0.7) * float64(s.duration())))
		lat, lon, _, _ := s.position(at)
		dist := between(t.r, 300, 1500) * 1000
		angle := t.r.Float64() * 2 * math.Pi
		sLat, sLon := offset(lat, lon, dist*math.Cos(angle), dist*math.Sin(angle))
		if sLat > 80 || sLat < -75 || geo.OnLand(sLat, sLon) {
			continue
		}
		// Whole minutes: a spoofed position each minute, the last ending
		// at the truth's End.
		d := time.Duration(between(t.r, 10, 40)) * time.Minute
		// Written when a spoofed position is received: a feed that keeps
		// a position every half hour may carry none of a 10-minute spoof.
		pt := &pending{tr: Truth{Type: "spoofing", Vessels: []overwatch.IMO{t.v.IMO}, Start: tp(at), End: tp(at.Add(d)),
			Position: &Position{Lat: lat, Lon: lon}, Detail: map[string]any{"reported": Position{Lat: sLat, Lon: sLon}, "jump_km": math.Round(dist / 1000)}}}
		for k := time.Duration(0); k < d; k += time.Minute {
			s.Spoofs = append(s.Spoofs, Spoof{At: at.Add(k), Lat: sLat, Lon: sLon, truth: pt})
		}
		return
	}
}

// declare is the destination the crew enters for a leg: the real next port
// in one of the forms crews use, or, at the destination rate, another port
// or FOR ORDERS.
func (p *Planner) declare(t *track, to string, depart time.Time) string {
	if t.r.Float64() >= p.cfg.Rates.Destination {
		return declaredName(t.r, to)
	}
	var text, actual string
	if t.r.IntN(3) == 0 {
		text = "FOR ORDERS"
	} else {
		ports := seaport.All()
		for {
			other := ports[t.r.IntN(len(ports))].Slug
			if other != to {
				text, actual = declaredName(t.r, other), other
				break
			}
		}
	}
	p.truth.write(Truth{Type: "destination_mismatch", Vessels: []overwatch.IMO{t.v.IMO}, Start: tp(depart),
		Detail: map[string]any{"declared": text, "declared_port": actual, "actual_port": to}})
	return text
}

// declaredName writes a port as crews type it into AIS: the UN/LOCODE with
// or without its space, the name, the name with the country, or a short
// form.
func declaredName(r interface{ IntN(int) int }, slug string) string {
	port, _ := seaport.BySlug(slug)
	name := asciiUpper(port.Name)
	switch r.IntN(6) {
	case 0, 1:
		return port.LOCODE
	case 2:
		return port.LOCODE[:2] + " " + port.LOCODE[2:]
	case 3:
		return name
	case 4:
		return name + " " + port.Country
	default:
		short := strings.ReplaceAll(name, " ", "")
		if len(short) > 6 {
			short = short[:6]
		}
		return short
	}
}

func asciiUpper(s string) string {
	r := strings.NewReplacer("á", "a", "à", "a", "ã", "a", "â", "a", "é", "e", "ê", "e", "í", "i", "ó", "o", "ô", "o", "õ", "o", "ú", "u", "ç", "c", "ñ", "n", "ț", "t", "ş", "s", "ș", "s")
	out := strings.ToUpper(r.Replace(s))
	if len(out) > 20 {
		out = out[:20]
	}
	return out
}
