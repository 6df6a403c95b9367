package risk

import (
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Spoofing thresholds.
const (
	// SpoofKnots: a jump between two positions is impossible at over 50
	// knots...
	SpoofKnots = 50.0
	// SpoofMinKM: ...over 10 km or more (or over 10 km or more between
	// land, outside the port areas, and sea, at any speed).
	SpoofMinKM = 10.0
	// SpoofReturnWindow: the track must come back within 6 hours of the
	// jump for the positions in between to be spoofed.
	SpoofReturnWindow = 6 * time.Hour
)

// DetectSpoofing returns the spoofed positions of a vessel's track
// (time-ordered positions), as events of type EventSpoofing, in time
// order.
//
// From the last trusted position, a position is suspect when reaching it
// means an impossible jump: SpoofMinKM (10 km) or more at over SpoofKnots
// (50 kn), or 10 km or more between sea and land (land outside every port
// area, since river ports lie where a world map has land). The suspect
// positions are a spoofed segment when, within SpoofReturnWindow (6 h) of
// the first, the track jumps back (an impossible jump from the last
// suspect position) to a position consistent with the last trusted one
// (reachable from it without an impossible jump): the vessel returns to,
// or continues along, its original path. One bad fix and a run of spoofed reports each make
// one event, and the true positions on either side are never blamed. A
// jump the track never returns from is a relocation (or a bad position
// before it) and no event: the new position becomes the trusted one.
//
// Start and End are the first and last suspect positions; Lat/Lon is the
// last trusted position before, EndLat/EndLon the first one after.
//
// Detail: jump_km (from the trusted position to the first suspect one),
// implied_speed_kn (of that jump; null when the two share a time),
// reported (the first suspect position, {lat, lon}), on_land (any suspect
// position on land), positions (how many suspect positions), minutes (from
// the first to the last).
//
// Severity: high for a segment of two or more positions 100 km or more
// away (a sustained false position); medium for one position 100 km or
// more away, or on land; low otherwise (a single fix tens of km off is
// often a receiver error).
func DetectSpoofing(imo overwatch.IMO, track []vessel.TrackPoint) []Event {
	var out []Event
	ref := -1
	for i := 0; i < len(track); i++ {
		if !onEarth(track[i].Lat, track[i].Lon) {
			continue
		}
		if ref < 0 || !impossibleJump(&track[ref], &track[i]) {
			ref = i
			continue
		}
		back := spoofReturn(track, ref, i)
		if back < 0 {
			ref = i // a relocation: trust the new position
			continue
		}
		out = append(out, spoofEvent(imo, track, ref, i, back))
		ref, i = back, back
	}
	return out
}

// spoofReturn is the index of the position the track returns to after the
// impossible jump from track[ref] to track[first], or -1.
func spoofReturn(track []vessel.TrackPoint, ref, first int) int {
	last := first
	limit := track[first].TS.Add(SpoofReturnWindow)
	for k := first + 1; k < len(track) && !track[k].TS.After(limit); k++ {
		if !onEarth(track[k].Lat, track[k].Lon) {
			continue
		}
		if impossibleJump(&track[ref], &track[k]) {
			last = k
			continue
		}
		if impossibleJump(&track[last], &track[k]) {
			return k
		}
		return -1 // back without a jump: the suspect positions were true
	}
	return -1
}

// impossibleJump reports whether going from a to b is impossible: 10 km or
// more at over 50 kn, or between land (outside the port areas) and sea.
func impossibleJump(a, b *vessel.TrackPoint) bool {
	km := geo.DistanceKM(a.Lat, a.Lon, b.Lat, b.Lon)
	if !(km >= SpoofMinKM) {
		return false
	}
	if h := b.TS.Sub(a.TS).Hours(); h <= 0 || km/kmPerNM/h > SpoofKnots {
		return true
	}
	return spoofOnLand(a) != spoofOnLand(b)
}

// spoofOnLand reports whether the position lies on land and outside every
// port area (river ports lie where the land mask has land).
func spoofOnLand(p *vessel.TrackPoint) bool {
	return geo.OnLand(p.Lat, p.Lon) && spoofPorts.PortAt(p.Lat, p.Lon) == ""
}

// spoofPorts indexes the reference ports' areas for spoofOnLand.
var spoofPorts = seaport.NewIndex(seaport.All())

// spoofEvent is the event of the suspect positions track[first..back-1]
// between the trusted track[ref] and track[back].
func spoofEvent(imo overwatch.IMO, track []vessel.TrackPoint, ref, first, back int) Event {
	r, f, b := &track[ref], &track[first], &track[back]
	lastSuspect := back - 1
	for lastSuspect > first && !onEarth(track[lastSuspect].Lat, track[lastSuspect].Lon) {
		lastSuspect--
	}
	end := track[lastSuspect].TS
	km := geo.DistanceKM(r.Lat, r.Lon, f.Lat, f.Lon)
	land, n := false, 0
	for k := first; k < back; k++ {
		if onEarth(track[k].Lat, track[k].Lon) {
			n++
			land = land || spoofOnLand(&track[k])
		}
	}
	var speed any
	if h := f.TS.Sub(r.TS).Hours(); h > 0 {
		speed = eventRound(km / kmPerNM / h)
	}
	e := Event{Type: EventSpoofing, IMO: imo, Start: f.TS, End: &end, Lat: r.Lat, Lon: r.Lon, EndLat: b.Lat, EndLon: b.Lon}
	e.Detail = map[string]any{
		"jump_km":          eventRound(km),
		"implied_speed_kn": speed,
		"reported":         eventPosition(f.Lat, f.Lon),
		"on_land":          land,
		"positions":        n,
		"minutes":          eventRound(end.Sub(f.TS).Minutes()),
	}
	switch {
	case n >= 2 && km >= 100:
		e.Severity = TierHigh
	case km >= 100 || land:
		e.Severity = TierMedium
	default:
		e.Severity = TierLow
	}
	return e
}
