package risk

import (
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/sealane"
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
	// SpoofInlandKM: a position on the land mask is on land for the jump
	// rule only 2 km or more from the coast: the 1:10m mask draws narrow
	// straits, estuaries and harbours as land, and a ship sailing close
	// inshore may plot a little inland.
	SpoofInlandKM = 2.0
	// SpoofChannelKM: a position within 5 km of a navigable channel that
	// the mask draws as land (a canal or a river fairway of the sea lanes:
	// Suez, Panama, the Mississippi, the Paraná) is afloat: a canal or
	// river transit sampled every half hour is no jump between sea and
	// land.
	SpoofChannelKM = 5.0
)

// DetectSpoofing returns the spoofed positions of a vessel's track
// (time-ordered positions), as events of type EventSpoofing, in time
// order.
//
// From the last trusted position, a position is suspect when reaching it
// means an impossible jump: SpoofMinKM (10 km) or more at over SpoofKnots
// (50 kn), or 10 km or more between sea and land at any speed, where land
// is what no waterway explains: on the land mask, SpoofInlandKM (2 km) or
// more from the coast, outside every port area (river ports lie where a
// world map has land) and farther than SpoofChannelKM (5 km) from every
// navigable channel (sealane.Channels: the canals and river fairways): a
// fix 12 km on at a ship's speed, between the sea and a canal, a river
// fairway, a port or the coastal fringe, is no jump. The suspect
// positions are a spoofed segment when, within SpoofReturnWindow (6 h) of
// the first, the track jumps back (an impossible jump from the last
// suspect position) to a position consistent with the last trusted one
// (reachable from it without an impossible jump): the vessel returns to,
// or continues along, its original path. One bad fix and a run of spoofed reports each make
// one event, and the true positions on either side are never blamed. A
// jump the track never returns from is a relocation and no event: the new
// position becomes the trusted one — unless the position before the last
// trusted one reaches it without an impossible jump, and lies nearer it
// than the last trusted one: then that was a false fix after a silence
// (reachable from the track before only because of the silence), and it
// is the spoofed segment.
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
	prev, ref := -1, -1 // the trusted positions: the last, and the one before it
	for i := 0; i < len(track); i++ {
		if !onEarth(track[i].Lat, track[i].Lon) {
			continue
		}
		if ref < 0 || !impossibleJump(&track[ref], &track[i]) {
			prev, ref = ref, i
			continue
		}
		back := spoofReturn(track, ref, i)
		if back >= 0 {
			out = append(out, spoofEvent(imo, track, ref, i, back))
			i = back
			prev, ref = ref, back
			continue
		}
		if prev >= 0 && !impossibleJump(&track[prev], &track[i]) &&
			geo.DistanceKM(track[prev].Lat, track[prev].Lon, track[i].Lat, track[i].Lon) < geo.DistanceKM(track[ref].Lat, track[ref].Lon, track[i].Lat, track[i].Lon) {
			// The track goes on from where it was before ref, nearer that
			// than ref: ref was the false fix, reached without an
			// impossible jump only because a silence came before it.
			out = append(out, spoofEvent(imo, track, prev, ref, i))
			ref = i
			continue
		}
		prev, ref = ref, i // a relocation: trust the new position
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
// more at over 50 kn, or between land (that no port or channel explains)
// and sea.
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

// spoofOnLand reports whether the position lies on land that no waterway
// explains: on the land mask, SpoofInlandKM or more from the coast, outside
// every port area (river ports lie where the land mask has land) and away
// from the navigable channels (canals and rivers are land on the mask).
func spoofOnLand(p *vessel.TrackPoint) bool {
	return geo.OnLand(p.Lat, p.Lon) && geo.DistanceToShoreKM(p.Lat, p.Lon) >= SpoofInlandKM &&
		spoofPorts.PortAt(p.Lat, p.Lon) == "" && !sealane.NearChannel(p.Lat, p.Lon, SpoofChannelKM)
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
	e := Event{Type: EventSpoofing, IMO: imo, Start: f.TS, End: &end}
	e.Place(r.Lat, r.Lon, b.Lat, b.Lon)
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
