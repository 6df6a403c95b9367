package risk

import (
	"math"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/vessel"
)

// AIS-gap thresholds (METHODS.md, after Global Fishing Watch's AIS
// off/on events and the 2020 US maritime sanctions advisory).
const (
	// GapOffOn: two consecutive positions of a vessel more than 6 hours
	// apart are an off/on event.
	GapOffOn = 6 * time.Hour
	// GapMinimum: off/on events of 12 hours or more are reported as gaps.
	GapMinimum = 12 * time.Hour
	// GapOffshoreNM: a gap is suspected intentional disabling when both its
	// ends lie more than 50 nautical miles from shore (beyond terrestrial
	// reception, so the silence is not the network's)...
	GapOffshoreNM = 50.0
	// GapDenseWindow: ...and reception was dense over the 48 hours before
	// its start...
	GapDenseWindow = 48 * time.Hour
	// GapDensePer12h: ...with at least 20 positions per 12 hours
	// (GapDenseMinimum, 80 in 48 hours, the gap's first position included).
	GapDensePer12h = 20
	// GapDraughtSettle: the draught after a gap is read at the last
	// position within 3 hours of its end (or DraughtReports of the
	// vessel's static-report intervals, when longer), since the static
	// report that carries it comes minutes after the first position, or
	// later when receivers miss one.
	GapDraughtSettle = 3 * time.Hour
	// GapDraughtChangeM: a change of reported draught of 1 metre or more
	// across a gap makes it critical: cargo moved while the vessel was dark.
	GapDraughtChangeM = 1.0
)

// GapDenseMinimum is the number of positions in the GapDenseWindow before a
// gap that makes reception dense: GapDensePer12h per 12 hours.
const GapDenseMinimum = GapDensePer12h * int(GapDenseWindow/(12*time.Hour))

// A feed that keeps few of a vessel's reports (one position every half
// hour, a static report every few hours, as some satellite services
// deliver) can never give GapDensePer12h positions per 12 hours. A vessel
// whose static reports came through GapThinnedStatic or more apart (AIS
// sends them every 6 minutes) is on such a feed, and its reception was
// dense when a position came in during at least GapDenseHours of the 48
// before the gap (three hours in four).
const (
	GapThinnedStatic = time.Hour
	GapDenseHours    = 36
)

// kmPerNM is the nautical mile in kilometres.
const kmPerNM = 1.852

// DetectGaps returns the AIS gaps of a vessel's track (time-ordered
// positions), as events of type EventGap, in time order.
//
// A gap is a silence of GapMinimum (12 h) or more between two consecutive
// positions (positions not on Earth are ignored); a track whose last position lies GapMinimum or more before
// dataEnd (the end of the data) ends in an open gap, whose End is nil.
// staticEvery is how often the vessel's static reports came through (0:
// unknown): the draught after a gap is read DraughtSettle after its end.
// Subtype is "intentional" for suspected intentional disabling: the
// reported draught changed by GapDraughtChangeM (1 m) or more across the
// gap (cargo moved while dark: in port or alongside another vessel, where
// AIS is heard), or both ends more than GapOffshoreNM (50 nm) from shore
// and at least GapDenseMinimum (80) positions in the 48 h before the gap,
// its first position included; "" otherwise. An open gap is not judged intentional until it closes,
// since its end is unknown.
//
// Detail: hours; start_position and end_position ({lat, lon});
// distance_nm (great circle between the ends) and implied_speed_kn;
// start_distance_shore_nm and end_distance_shore_nm; draught_before (the
// draught reported at the last position before), draught_after (at the
// last position within GapDraughtSettle, 3 h, or DraughtReports static
// intervals, after) and draught_change
// (after less before), null when unknown; intentional (bool);
// dense_reception_before (positions in the 48 h before); ongoing (bool).
// The end-side fields are null while the gap is open.
//
// Severity: critical when the reported draught changed by
// GapDraughtChangeM (1 m) or more across the gap (cargo moved while dark),
// or when it is intentional and lasts 48 h or more; high when intentional;
// medium when it lasts 24 h or more; low otherwise.
func DetectGaps(imo overwatch.IMO, track []vessel.TrackPoint, dataEnd time.Time, staticEvery time.Duration) []Event {
	track = onEarthOnly(track)
	settle, thinned := DraughtSettle(GapDraughtSettle, staticEvery), staticEvery >= GapThinnedStatic
	var out []Event
	for i := 1; i < len(track); i++ {
		if track[i].TS.Sub(track[i-1].TS) >= GapMinimum {
			out = append(out, gapEvent(imo, track, i-1, i, dataEnd, settle, thinned))
		}
	}
	if n := len(track); n > 0 && dataEnd.Sub(track[n-1].TS) >= GapMinimum {
		out = append(out, gapEvent(imo, track, n-1, -1, dataEnd, settle, thinned))
	}
	return out
}

// gapEvent is the gap between track[a] and track[b]; b < 0 for the open
// gap after the last position. settle is how long after the end the
// draught is read (DraughtSettle); thinned, whether the vessel's feed keeps
// few of its reports (GapThinnedStatic).
func gapEvent(imo overwatch.IMO, track []vessel.TrackPoint, a, b int, dataEnd time.Time, settle time.Duration, thinned bool) Event {
	s := &track[a]
	dense := denseBefore(track, a)
	startShore := geo.DistanceToShoreKM(s.Lat, s.Lon) / kmPerNM
	e := Event{Type: EventGap, IMO: imo, Start: s.TS}
	e.Place(s.Lat, s.Lon, s.Lat, s.Lon)
	before := gapDraughtAt(track, a, -1, s.TS.Add(-GapOffOn))
	d := map[string]any{
		"start_position":          eventPosition(s.Lat, s.Lon),
		"start_distance_shore_nm": eventRound(startShore),
		"dense_reception_before":  dense,
		"draught_before":          eventNullable(before),
		"end_position":            nil,
		"end_distance_shore_nm":   nil,
		"distance_nm":             nil,
		"implied_speed_kn":        nil,
		"draught_after":           nil,
		"draught_change":          nil,
		"reception_quality":       nil,
		"ongoing":                 b < 0,
	}
	hours := dataEnd.Sub(s.TS).Hours()
	offshore := false
	change := math.NaN()
	if b >= 0 {
		p := &track[b]
		end := p.TS
		e.End, e.EndLat, e.EndLon = &end, p.Lat, p.Lon
		hours = end.Sub(s.TS).Hours()
		endShore := geo.DistanceToShoreKM(p.Lat, p.Lon) / kmPerNM
		offshore = startShore > GapOffshoreNM && endShore > GapOffshoreNM
		nm := geo.DistanceKM(s.Lat, s.Lon, p.Lat, p.Lon) / kmPerNM
		after := gapDraughtAfter(track, b, settle)
		d["end_position"] = eventPosition(p.Lat, p.Lon)
		d["end_distance_shore_nm"] = eventRound(endShore)
		d["distance_nm"] = eventRound(nm)
		d["implied_speed_kn"] = eventRound(eventFinite(nm/hours, 0))
		d["draught_after"] = eventNullable(after)
		if before > 0 && after > 0 {
			change = after - before
			d["draught_change"] = eventRound(change)
		}
	}
	// Cargo moved while dark: the vessel was in port or alongside another,
	// where AIS is heard, so the silence is its own whatever the sea.
	moved := cargoMovedAcross(change)
	intentional := moved || offshore && (dense >= GapDenseMinimum || thinned && hoursHeardBefore(track, a) >= GapDenseHours)
	d["hours"] = eventRound(hours)
	d["intentional"] = intentional
	if intentional {
		e.Subtype = "intentional"
	}
	e.Severity = gapSeverity(change, intentional, hours)
	e.Detail = d
	return e
}

// cargoMovedAcross reports whether a draught change across a gap (NaN when
// unknown) is of GapDraughtChangeM or more: cargo moved while the vessel
// was dark.
func cargoMovedAcross(change float64) bool {
	return math.Abs(change) >= GapDraughtChangeM-1e-9
}

// gapSeverity is the tier of a gap of so many hours, with the draught
// change across it (NaN when unknown).
func gapSeverity(change float64, intentional bool, hours float64) string {
	switch {
	case cargoMovedAcross(change), intentional && hours >= 48:
		return TierCritical
	case intentional:
		return TierHigh
	case hours >= 24:
		return TierMedium
	}
	return TierLow
}

// hoursHeardBefore counts the hours of the GapDenseWindow before track[a]
// in which a position came in (track[a]'s hour included).
func hoursHeardBefore(track []vessel.TrackPoint, a int) int {
	from := track[a].TS.Add(-GapDenseWindow)
	seen := map[int64]bool{}
	for i := a; i >= 0 && track[i].TS.After(from); i-- {
		seen[min(int64(GapDenseWindow/time.Hour)-1, int64(track[i].TS.Sub(from)/time.Hour))] = true
	}
	return len(seen)
}

// denseBefore counts the positions in the GapDenseWindow before track[a],
// track[a] included.
func denseBefore(track []vessel.TrackPoint, a int) int {
	from := track[a].TS.Add(-GapDenseWindow)
	n := 0
	for i := a; i >= 0 && !track[i].TS.Before(from); i-- {
		n++
	}
	return n
}

// gapDraughtAt is the draught reported at track[i] or, when it has none, at
// the nearest position in the direction step (−1 back, +1 on) not beyond
// limit; 0 when none.
func gapDraughtAt(track []vessel.TrackPoint, i, step int, limit time.Time) float64 {
	for ; i >= 0 && i < len(track); i += step {
		p := &track[i]
		if (step < 0 && p.TS.Before(limit)) || (step > 0 && p.TS.After(limit)) {
			break
		}
		if p.Draft > 0 && !math.IsNaN(p.Draft) && !math.IsInf(p.Draft, 0) {
			return p.Draft
		}
	}
	return 0
}

// gapDraughtAfter is the draught reported after a gap that ends at track[b]:
// at the last position within settle of it, or the first one after it that
// reports any.
func gapDraughtAfter(track []vessel.TrackPoint, b int, settle time.Duration) float64 {
	until := track[b].TS.Add(settle)
	last := b
	for i := b; i < len(track) && !track[i].TS.After(until); i++ {
		last = i
	}
	if d := gapDraughtAt(track, last, -1, track[b].TS); d > 0 {
		return d
	}
	return gapDraughtAt(track, b, 1, track[b].TS.Add(GapOffOn))
}

// onEarthOnly is the track without its positions that are not on Earth
// (NaN or out-of-range coordinates): the track itself when it has none.
func onEarthOnly(track []vessel.TrackPoint) []vessel.TrackPoint {
	for i := range track {
		if !onEarth(track[i].Lat, track[i].Lon) {
			out := append([]vessel.TrackPoint(nil), track[:i]...)
			for j := i + 1; j < len(track); j++ {
				if onEarth(track[j].Lat, track[j].Lon) {
					out = append(out, track[j])
				}
			}
			return out
		}
	}
	return track
}

// eventPosition is a position as events' details give it.
func eventPosition(lat, lon float64) map[string]float64 {
	return map[string]float64{"lat": lat, "lon": lon}
}

// eventNullable is the value, or nil (JSON null) when it is 0 (unknown).
func eventNullable(v float64) any {
	if v == 0 {
		return nil
	}
	return eventRound(v)
}

// eventRound rounds to one decimal, keeping non-finite values as 0 so that
// details always serialise.
func eventRound(v float64) float64 {
	return eventFinite(math.Round(v*10)/10, 0)
}

// eventFinite is v, or def when v is NaN or infinite.
func eventFinite(v, def float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return def
	}
	return v
}
