package sim

import (
	"math"
	"sort"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
)

// stsArea is a known ship-to-ship transfer area, where the dark fleet's
// shuttles (floating storage) wait for the tankers that meet them.
type stsArea struct {
	Name     string
	Lat, Lon float64
	shuttles []*shuttle
}

// The transfer areas: open water off the coasts where STS transfers are
// routinely reported, on the tanker routes of the simulated trades.
var stsAreaSpots = []struct {
	name     string
	lat, lon float64
}{
	{"Gulf of Laconia", 36.55, 22.85},
	{"Off Lome", 5.70, 1.50},
	{"Eastern OPL, Johor", 1.30, 104.55},
	{"Gulf of Oman, off Khor Fakkan", 25.35, 56.70},
}

func newSTSAreas() []*stsArea {
	var out []*stsArea
	for _, s := range stsAreaSpots {
		out = append(out, &stsArea{Name: s.name, Lat: s.lat, Lon: s.lon})
	}
	return out
}

// shuttle is a tanker stationed in a transfer area.
type shuttle struct {
	t        *track
	area     *stsArea
	lat, lon float64
	fill     float64 // tonnes aboard, as of the reservations made so far
	built    time.Time
	idle     time.Time // since when it has been waiting
	res      []reservation
}

type reservation struct {
	start, end time.Time
	lat, lon   float64
	partner    int
	tonnes     float64 // into the shuttle; negative out of it
}

// shuttleSpacingM is the least distance between the stations of an area's
// shuttles: ships at anchor keep their swing circles apart, and a tanker
// alongside one shuttle (alongsideM off) then lies well beyond the
// transfer detector's reach (500 m) of every other.
const shuttleSpacingM = 1500

// addShuttle stations the vessel in the area, within 2 km of its centre and
// shuttleSpacingM or more from the area's other shuttles.
func (a *stsArea) addShuttle(t *track, from time.Time) {
	var lat, lon float64
	for try := 0; try < 50; try++ {
		lat, lon = offset(a.Lat, a.Lon, (t.r.Float64()-0.5)*4000, (t.r.Float64()-0.5)*4000)
		if a.spaced(lat, lon) {
			break
		}
	}
	s := &shuttle{t: t, area: a, lat: lat, lon: lon, fill: t.v.capacity() * 0.5, built: from, idle: from}
	t.shuttle = s
	t.commodity, t.cargo = t.v.class.Cargo[0], s.fill
	t.draft = t.v.draftFor(s.fill)
	t.reported = round1(t.draft)
	t.declared = "FOR ORDERS"
	a.shuttles = append(a.shuttles, s)
}

// spaced reports whether a station at lat, lon lies shuttleSpacingM or
// more from every shuttle of the area.
func (a *stsArea) spaced(lat, lon float64) bool {
	for _, s := range a.shuttles {
		if geo.DistanceKM(lat, lon, s.lat, s.lon)*1000 < shuttleSpacingM {
			return false
		}
	}
	return true
}

// freeShuttle finds a shuttle of the area free from start to end (with an
// hour either side).
func (a *stsArea) freeShuttle(start, end time.Time) *shuttle {
	for _, s := range a.shuttles {
		if s.free(start, end) {
			return s
		}
	}
	return nil
}

// free reports whether the shuttle is free from start to end (with an
// hour either side).
func (s *shuttle) free(start, end time.Time) bool {
	if start.Before(s.built) {
		return false
	}
	for _, r := range s.res {
		if start.Before(r.end.Add(time.Hour)) && r.start.Before(end.Add(time.Hour)) {
			return false
		}
	}
	return true
}

// book reserves the shuttle for a transfer with the partner, who lies at
// lat, lon (alongside the shuttle's station).
func (s *shuttle) book(start, end time.Time, lat, lon float64, partner int, tonnes float64) {
	s.res = append(s.res, reservation{start: start, end: end, lat: lat, lon: lon, partner: partner, tonnes: tonnes})
	s.fill += tonnes
}

// alongsideM is how far west of a shuttle's station its partner lies.
const alongsideM = 150

// materialize writes the shuttles' timelines up to until: waiting in the
// area between transfers (each wait of four hours or more is loitering in
// a known transfer area), alongside the partner during them.
func (a *stsArea) materialize(p *Planner, until time.Time) {
	for _, s := range a.shuttles {
		t := s.t
		sort.Slice(s.res, func(i, j int) bool { return s.res[i].start.Before(s.res[j].start) })
		for _, r := range s.res {
			if r.start.Before(s.built) || r.start.After(until) {
				continue
			}
			s.wait(p, r.start)
			s.idled(p, r.start, false)
			after := math.Max(0, math.Min(t.v.capacity(), t.cargo+r.tonnes))
			t.cargo = after
			draft := t.v.draftFor(after)
			lat, lon := offset(r.lat, r.lon, 0, alongsideM) // the shuttle stays at its station
			t.segs = append(t.segs, Segment{Kind: STS, Start: r.start, End: r.end, Lat: lat, Lon: lon,
				Draft0: t.draft, Draft1: draft, Reported: t.reported, Dest: t.declared, Partner: r.partner})
			t.draft, t.reported = draft, round1(draft)
			s.built, s.idle = r.end, r.end
		}
		s.wait(p, until)
	}
}

// wait keeps the shuttle at its station until the time, extending its
// current wait.
func (s *shuttle) wait(p *Planner, until time.Time) {
	if !until.After(s.built) {
		return
	}
	t := s.t
	if n := len(t.segs); n > 0 && t.segs[n-1].Kind == Drift && t.segs[n-1].End.Equal(s.built) {
		t.segs[n-1].End = until
	} else {
		t.segs = append(t.segs, Segment{Kind: Drift, Start: s.built, End: until, Lat: s.lat, Lon: s.lon,
			Draft0: t.draft, Draft1: t.draft, Reported: t.reported, Dest: t.declared})
	}
	s.built = until
}

// idled records the shuttle's wait that ends at the time (or is still
// going on) as loitering in a known transfer area, when it lasted four
// hours or more.
func (s *shuttle) idled(p *Planner, until time.Time, ongoing bool) {
	if until.Sub(s.idle) < 4*time.Hour || until.Before(p.cfg.Start) {
		return
	}
	tr := Truth{Type: "loitering", Subtype: "stationary", Vessels: []overwatch.IMO{s.t.v.IMO}, Start: tp(s.idle),
		Position: &Position{Lat: s.lat, Lon: s.lon}, Detail: map[string]any{"area": s.area.Name, "context": "known transfer area",
			"distance_from_shore_nm": math.Round(geo.DistanceToShoreKM(s.lat, s.lon) / kmPerNM)}}
	if ongoing {
		tr.Detail.(map[string]any)["ongoing"] = true
	} else {
		tr.End = tp(until)
	}
	p.truth.write(tr)
}

// nearestArea is the transfer area closest to the path, the index of the
// path point nearest it and their distance in km.
func (p *Planner) nearestArea(pa *path) (*stsArea, int, float64) {
	var best *stsArea
	bestK, bestD := 0, math.Inf(1)
	for _, a := range p.areas {
		if len(a.shuttles) == 0 {
			continue
		}
		for k, pt := range pa.pts {
			if d := geo.DistanceKM(a.Lat, a.Lon, pt[0], pt[1]); d < bestD {
				best, bestK, bestD = a, k, d
			}
		}
	}
	return best, bestK, bestD
}

// sts detours the leg from the route point via to a shuttle of the area
// and back: 3-8 hours alongside the shuttle at its station, 150 m off,
// both stopped. A laden tanker passes part of its cargo to the shuttle;
// one in ballast takes cargo from a shuttle that has some (and tops up at
// its loading port). Nothing happens if the detour would cross land or no
// shuttle is free.
func (b *legBuilder) sts(area *stsArea, via [2]float64, laden bool) {
	t := b.t
	d := time.Duration(between(t.r, 3, 8) * float64(time.Hour))
	var tonnes float64
	if laden {
		tonnes = t.cargo * between(t.r, 0.3, 0.6)
	} else {
		tonnes = -t.v.capacity() * between(t.r, 0.3, 0.5)
	}
	// A shuttle free about when the tanker gets to the area (within an hour
	// of its sailing to the area's centre: the stations lie within 3 km).
	guess := b.at.Add(sailTime(line(via[0], via[1], area.Lat, area.Lon).lengthKM(), b.speed))
	sh := area.freeShuttle(guess.Add(-time.Hour), guess.Add(d+time.Hour))
	if sh == nil || !laden && sh.fill+tonnes < 0 { // in ballast, from a shuttle with too little
		return
	}
	spotLat, spotLon := offset(sh.lat, sh.lon, 0, -alongsideM)
	if geo.CrossesLand(via[0], via[1], spotLat, spotLon) {
		return
	}
	out := line(via[0], via[1], spotLat, spotLon)
	arrive := b.at.Add(sailTime(out.lengthKM(), b.speed))
	if !sh.free(arrive, arrive.Add(d)) {
		return
	}
	sh.book(arrive, arrive.Add(d), spotLat, spotLon, t.v.Index, tonnes)
	b.sail(out)
	if laden {
		t.cargo -= tonnes
	} else {
		t.cargo -= tonnes // tonnes is negative: the cargo grows
		t.commodity = sh.t.commodity
	}
	after := t.v.draftFor(t.cargo)
	seg := b.stop(STS, spotLat, spotLon, d, after)
	seg.Partner = sh.t.v.Index
	b.stsStart, b.stsEnd = seg.Start, seg.End
	back := line(spotLat, spotLon, via[0], via[1])
	b.sail(back)
	b.segs[len(b.segs)-1].Reported = round1(after) // the crew updates the draught after the transfer
	direction := "to_partner"
	if !laden {
		direction = "from_partner"
	}
	// Written once the leg's dark periods are known (writeSTSTruth).
	b.stsTruth = &Truth{Type: "sts_transfer", Vessels: []overwatch.IMO{t.v.IMO, sh.t.v.IMO}, Start: tp(seg.Start), End: tp(seg.End),
		Position: &Position{Lat: spotLat, Lon: spotLon}, Detail: map[string]any{"area": area.Name, "tonnes": math.Round(math.Abs(tonnes)),
			"direction": direction, "commodity": sh.t.commodity}}
}

// writeSTSTruth writes the leg's transfer, if any, once its dark periods are
// set: detail "dark" is true when the tanker's AIS was off throughout the
// transfer (a dark-fleet transfer hidden in a silence: there is no
// encounter in the data, only the draught changed across the silence).
func (b *legBuilder) writeSTSTruth(segs []Segment) {
	tr := b.stsTruth
	if tr == nil {
		return
	}
	b.stsTruth = nil
	dark := true
	for _, s := range segs {
		if s.End.After(*tr.Start) && s.Start.Before(*tr.End) && !s.Dark {
			dark = false
			break
		}
	}
	if dark {
		tr.Detail.(map[string]any)["dark"] = true
	}
	b.p.truth.write(*tr)
}
