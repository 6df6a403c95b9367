package risk

import (
	"math"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/portcall"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Loitering thresholds (METHODS.md, after Global Fishing Watch's loitering
// events; carrier-vessel reports use 4 hours or more).
const (
	// LoiterKnots: a loitering vessel moves at under 2 knots.
	LoiterKnots = 2.0
	// LoiterShoreNM: it is 20 nautical miles or more from shore (except in
	// a known transfer area, see TransferAreas).
	LoiterShoreNM = 20.0
	// LoiterMinimum: for 4 hours or more.
	LoiterMinimum = 4 * time.Hour
	// LoiterStationaryKnots: its loitering is stationary under 0.5 knots
	// on average, a slow roll otherwise...
	LoiterStationaryKnots = 0.5
	// LoiterStationaryKM: ...or when it stays within 1 km of its mean
	// position (a ship swinging at anchor or drifting on the spot, whose
	// speed may be reported high).
	LoiterStationaryKM = 1.0
	// PortApproachKM: loitering within 50 km of a port area's edge is in
	// context port_approach.
	PortApproachKM = 50.0
)

// Loitering subtypes (the Subtype of an EventLoitering).
const (
	LoiterStationary = "stationary" // under 0.5 kn on average, or within 1 km of a spot
	LoiterSlowRoll   = "slow_roll"  // drifting or creeping along at 0.5–2 kn
)

// Loitering contexts (the detail's context), the first that applies.
const (
	ContextTransferArea = "known_transfer_area" // in one of TransferAreas
	ContextAnchorage    = "anchorage"           // in an anchorage zone of a reference port
	ContextPortApproach = "port_approach"       // within PortApproachKM of a port area's edge
	ContextOffshore     = "offshore"            // anywhere else
)

// TransferArea is a stretch of open water where ship-to-ship transfers are
// routinely reported, a circle RadiusKM around its point.
type TransferArea struct {
	Name     string
	Lat, Lon float64
	RadiusKM float64
}

// transferAreas are the STS hubs named in public reporting on the shadow
// fleet (Lloyd's List, Windward, the 2020 US advisory's examples) that lie
// on the trades of the reference ports.
var transferAreas = []TransferArea{
	{"Gulf of Laconia", 36.55, 22.85, 15},               // off Kalamata and Gytheio, Greece
	{"Off Lome", 5.70, 1.50, 15},                        // Togo's offshore anchorage
	{"Eastern OPL, Johor", 1.30, 104.55, 15},            // outside port limits, off Malaysia
	{"Gulf of Oman, off Khor Fakkan", 25.35, 56.70, 15}, // off Fujairah and Khor Fakkan
}

// TransferAreas returns the known ship-to-ship transfer areas: the Gulf of
// Laconia (Greece), off Lomé (Togo), the Eastern OPL off Johor (Malaysia)
// and the Gulf of Oman off Khor Fakkan (UAE), each a 15 km circle.
// Loitering there is reported at any distance from shore, in context
// known_transfer_area with the area's name.
func TransferAreas() []TransferArea {
	return append([]TransferArea(nil), transferAreas...)
}

// TransferAreaAt returns the known transfer area containing the point,
// and whether there is one.
func TransferAreaAt(lat, lon float64) (TransferArea, bool) {
	for _, a := range transferAreas {
		if geo.DistanceKM(lat, lon, a.Lat, a.Lon) <= a.RadiusKM {
			return a, true
		}
	}
	return TransferArea{}, false
}

// DetectLoitering returns the loitering events of a vessel's track
// (time-ordered positions), as events of type EventLoitering, in time
// order.
//
// A loitering event is a run of consecutive positions, each at under
// LoiterKnots (2 kn: the reported speed over ground or, when none is
// reported, the lesser of the speeds implied by the distances from the
// previous and next positions), each LoiterShoreNM (20 nm) or more from
// shore or inside a known transfer area, none inside a port area (port
// calls are not loitering), moving at under 2 kn from one position to the
// next and never silent for GapMinimum (12 h, an AIS gap) or more, that
// lasts LoiterMinimum (4 h) or more. It starts when the vessel reached its first
// position and ends when it left its last (loiterEdge: sailing at the
// speed reported by the position before, or after, then loitering at the
// speed of the first, or last; or else half-way between them when within
// MidwayGap, 1 h). A run that goes on at the end of the data (its last
// position less than GapMinimum before dataEnd) is open: End nil, hours so
// far.
//
// Subtype: "stationary" when the mean speed is under
// LoiterStationaryKnots (0.5 kn) or every position lies within
// LoiterStationaryKM (1 km) of the mean position, "slow_roll" otherwise.
//
// Detail: hours; mean_speed_kn; displacement_nm (from the first position
// to the last); distance_from_shore_nm (at the start); positions; context,
// the first that applies of "known_transfer_area" (inside one, with area,
// its name), "anchorage" (within an anchorage zone of a reference port,
// with port), "port_approach" (within PortApproachKM, 50 km, of a port
// area's edge, with port) and "offshore"; ongoing (bool).
//
// Severity: in a known transfer area, critical from 24 h and high below;
// offshore, high from 24 h, medium from 12 h and low below; at an
// anchorage or a port approach, where waiting is normal, medium from 48 h
// and low below.
func DetectLoitering(imo overwatch.IMO, track []vessel.TrackPoint, ports *seaport.Index, dataEnd time.Time) []Event {
	var out []Event
	n := len(track)
	speed := make([]float64, n)
	ok := make([]bool, n)
	for i := range track {
		speed[i] = pointSpeed(track, i)
		p := &track[i]
		ok[i] = speed[i] < LoiterKnots && onEarth(p.Lat, p.Lon) && ports.PortAt(p.Lat, p.Lon) == "" &&
			(geo.DistanceToShoreKM(p.Lat, p.Lon) >= LoiterShoreNM*kmPerNM || inTransferArea(p.Lat, p.Lon))
	}
	for i := 0; i < n; {
		if !ok[i] {
			i++
			continue
		}
		j := i
		for j+1 < n && ok[j+1] && loiterLink(&track[j], &track[j+1]) {
			j++
		}
		if e, found := loiterEvent(imo, track, speed, i, j, dataEnd); found {
			out = append(out, e)
		}
		i = j + 1
	}
	return out
}

// loiterLink reports whether two consecutive slow positions belong to the
// same loitering: no AIS gap (a silence of GapMinimum or more) between
// them, and under LoiterKnots from one to the other. A shorter silence (a
// satellite's revisit interval, an off/on event) is bridged when the
// vessel stayed where it was.
func loiterLink(a, b *vessel.TrackPoint) bool {
	dt := b.TS.Sub(a.TS)
	if dt < 0 || dt >= GapMinimum {
		return false
	}
	km := geo.DistanceKM(a.Lat, a.Lon, b.Lat, b.Lon)
	if dt == 0 {
		return km < 0.5
	}
	return km/kmPerNM/dt.Hours() < LoiterKnots
}

// pointSpeed is the speed at track[i]: the reported speed over ground,
// or, when none is reported, the lesser of the speeds implied by the
// distances from the previous and the next position (those within
// GapOffOn), so that the first and last positions of a stop count as
// stopped; NaN when unknown.
func pointSpeed(track []vessel.TrackPoint, i int) float64 {
	p := &track[i]
	if !math.IsNaN(p.SOG) {
		if p.SOG < 0 || math.IsInf(p.SOG, 0) {
			return math.NaN()
		}
		return p.SOG
	}
	v := math.NaN()
	for _, j := range [2]int{i - 1, i + 1} {
		if j < 0 || j >= len(track) {
			continue
		}
		q := &track[j]
		dt := math.Abs(p.TS.Sub(q.TS).Hours())
		if dt > 0 && dt <= GapOffOn.Hours() {
			if w := geo.DistanceKM(p.Lat, p.Lon, q.Lat, q.Lon) / kmPerNM / dt; !math.IsNaN(w) && !(w >= v) {
				v = w
			}
		}
	}
	return v
}

// loiterEvent makes the event of the run track[i..j], if it lasts long
// enough.
func loiterEvent(imo overwatch.IMO, track []vessel.TrackPoint, speed []float64, i, j int, dataEnd time.Time) (Event, bool) {
	a, b := &track[i], &track[j]
	start, end := a.TS, b.TS
	if i > 0 {
		start = loiterEdge(&track[i-1], a, true)
	}
	ongoing := j == len(track)-1 && !dataEnd.Before(b.TS) && dataEnd.Sub(b.TS) < GapMinimum
	if j+1 < len(track) {
		end = loiterEdge(&track[j+1], b, false)
	}
	if end.Sub(start) < LoiterMinimum {
		return Event{}, false
	}
	// the mean speed and position (longitudes about the first, so that
	// the antimeridian does not matter), and the spread about the latter
	var sum, lat, dlon float64
	for k := i; k <= j; k++ {
		sum += speed[k]
		lat += track[k].Lat
		dlon += math.Remainder(track[k].Lon-a.Lon, 360)
	}
	cnt := float64(j - i + 1)
	mean := sum / cnt
	lat, lon := lat/cnt, math.Remainder(a.Lon+dlon/cnt, 360)
	spread := 0.0
	for k := i; k <= j; k++ {
		spread = math.Max(spread, geo.DistanceKM(lat, lon, track[k].Lat, track[k].Lon))
	}
	hours := end.Sub(start).Hours()
	e := Event{Type: EventLoitering, Subtype: LoiterSlowRoll, IMO: imo, Start: start}
	e.Place(a.Lat, a.Lon, b.Lat, b.Lon)
	if mean < LoiterStationaryKnots || spread <= LoiterStationaryKM {
		e.Subtype = LoiterStationary
	}
	if !ongoing {
		e.End = &end
	}
	d := map[string]any{
		"hours":                  eventRound(hours),
		"mean_speed_kn":          eventRound(mean),
		"displacement_nm":        eventRound(geo.DistanceKM(a.Lat, a.Lon, b.Lat, b.Lon) / kmPerNM),
		"distance_from_shore_nm": eventRound(geo.DistanceToShoreKM(a.Lat, a.Lon) / kmPerNM),
		"positions":              j - i + 1,
		"ongoing":                ongoing,
	}
	context := ""
	for k := i; k <= j && context == ""; k++ {
		if area, in := TransferAreaAt(track[k].Lat, track[k].Lon); in {
			context, d["area"] = ContextTransferArea, area.Name
		}
	}
	if context == "" {
		context = loiterContext(lat, lon, d)
	}
	d["context"] = context
	e.Severity = loiterSeverity(context, hours)
	e.Detail = d
	return e, true
}

// inTransferArea reports whether the point lies in a known transfer area.
func inTransferArea(lat, lon float64) bool {
	_, in := TransferAreaAt(lat, lon)
	return in
}

// loiterEdge estimates when the vessel arrived at (start) or left its
// loitering, between in, the first (or last) position of the loitering,
// and out, the one before (or after) it. When out reports a speed of
// LoiterKnots or more, the vessel covered the distance between the two
// sailing at that speed and loitering at in's speed (0 when in reports
// none), straight on; otherwise, when they are within MidwayGap, the edge
// is half-way between them; otherwise it is at in. The estimate stays
// between the two positions' times.
func loiterEdge(out, in *vessel.TrackPoint, start bool) time.Time {
	lo, hi := out.TS, in.TS
	if !start {
		lo, hi = in.TS, out.TS
	}
	span := hi.Sub(lo)
	if span < 0 || span > GapOffOn {
		return in.TS
	}
	if out.SOG >= LoiterKnots && !math.IsInf(out.SOG, 0) {
		slow := 0.0
		if in.SOG >= 0 && in.SOG < LoiterKnots {
			slow = in.SOG
		}
		nm := geo.DistanceKM(out.Lat, out.Lon, in.Lat, in.Lon) / kmPerNM
		sail := time.Duration((nm - slow*span.Hours()) / (out.SOG - slow) * float64(time.Hour))
		switch {
		case !(sail <= span): // faster than reported (or NaN): as late (early) as can be
			return in.TS
		case sail < 0:
			sail = 0
		}
		if start {
			return out.TS.Add(sail).Truncate(time.Second)
		}
		return out.TS.Add(-sail).Truncate(time.Second)
	}
	if span <= portcall.MidwayGap {
		return portcall.Midway(lo, hi)
	}
	return in.TS
}

// loiterContext is the context of loitering about a point (its mean
// position) away from the transfer areas, recording the port in the
// detail.
func loiterContext(lat, lon float64, d map[string]any) string {
	approach, best := "", math.Inf(1)
	for _, p := range seaport.All() {
		for _, z := range p.Anchorages {
			if geo.DistanceKM(lat, lon, z.Lat, z.Lon) <= math.Max(z.RadiusKM, portcall.AnchorEntryKM) {
				d["port"] = p.Slug
				return ContextAnchorage
			}
		}
		if km := geo.DistanceKM(lat, lon, p.Area.Lat, p.Area.Lon) - p.Area.RadiusKM; km <= PortApproachKM && km < best {
			approach, best = p.Slug, km
		}
	}
	if approach != "" {
		d["port"] = approach
		return ContextPortApproach
	}
	return ContextOffshore
}

// onEarth reports whether the coordinates are a position on Earth.
func onEarth(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
}

// loiterSeverity is the tier of loitering of the hours in the context.
func loiterSeverity(context string, hours float64) string {
	switch context {
	case ContextTransferArea:
		if hours >= 24 {
			return TierCritical
		}
		return TierHigh
	case ContextOffshore:
		switch {
		case hours >= 24:
			return TierHigh
		case hours >= 12:
			return TierMedium
		}
		return TierLow
	}
	if hours >= 48 {
		return TierMedium
	}
	return TierLow
}
