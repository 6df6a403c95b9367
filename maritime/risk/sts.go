package risk

import (
	"math"
	"sort"
	"sync"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Ship-to-ship transfer thresholds (METHODS.md, after Miller et al. 2018
// and Global Fishing Watch's encounters): two vessels are in an encounter
// while they are within STSMaxDistanceM of each other, both moving at under
// STSMaxKnots, outside every port area and STSAnchorageKM or more from the
// edge of every anchorage; an encounter that lasts STSMinDuration or more
// is a transfer.
//
// A vessel's slow positions are joined into a run while they are at most
// STSMaxGap apart (a longer silence is an AIS gap, METHODS.md's off/on
// event), and, across more than STSDenseGap, while the distance between
// them implies under STSMaxKnots; a run lasts from when the vessel reached
// its first slow position to when it left its last (stsEdge: sailing at
// the speed its position under way before, or after, reported); between
// its positions the vessel is taken to move in a straight line at constant
// speed. An encounter is
// observed directly while both vessels report at most STSDenseGap apart.
// The draught after a transfer is the one in force STSDraughtLag after it
// (crews enter it when they get under way).
//
// A vessel comes to an encounter when its run of slow positions began,
// after a position under way, at most STSArrival before the encounter, and
// leaves from it when the run ended, followed by a position under way, at
// most STSArrival after it. An encounter of two vessels of which neither
// came to it nor left from it — two floating storage units anchored near
// each other for days, a shuttle shifting next to another — is no transfer.
const (
	STSMaxDistanceM = 500.0
	STSMinDuration  = 2 * time.Hour
	STSMaxKnots     = 2.0
	STSAnchorageKM  = 10.0
	STSMaxGap       = 6 * time.Hour
	STSDenseGap     = time.Hour
	STSDraughtLag   = 6 * time.Hour
	STSArrival      = 12 * time.Hour
)

// Methods of a ship-to-ship transfer (the Subtype of its event).
const (
	// STSProximity: the two vessels were seen within STSMaxDistanceM of
	// each other, both reporting at most STSDenseGap apart, for
	// STSMinDuration or more in all.
	STSProximity = "proximity"
	// STSPathIntersection: the straight-line paths between the positions
	// of two slow vessels stay within STSMaxDistanceM of each other for
	// STSMinDuration or more, but less than that of it was observed
	// directly: sparse (satellite) tracks, positions up to STSMaxGap apart.
	STSPathIntersection = "path_intersection"
)

// Confidence of a ship-to-ship transfer (Detail "confidence").
const (
	ConfidenceHigh   = "high"
	ConfidenceMedium = "medium"
	ConfidenceLow    = "low"
)

// SlowPoint is a position kept for the ship-to-ship transfer detector: a
// slow position away from ports and anchorages (Slow), or the position
// just before or after a run of them (not Slow: it bounds the run).
type SlowPoint struct {
	IMO      overwatch.IMO
	TS       time.Time
	Lat, Lon float64
	SOG      float64 // the reported speed over ground, knots; NaN when none
	Slow     bool
}

// STSCandidates returns what DetectSTS needs of a vessel's track
// (time-ordered): its positions at under STSMaxKnots (the reported speed
// over ground; without one, at anchor or moored by its navigational
// status, or, failing that, at under STSMaxKnots from the previous
// position) outside every port area of ports and STSAnchorageKM or more
// from the edge of every anchorage of the reference ports, each run of
// them with the position just before and just after it. A 30-day track of
// a vessel under way keeps almost nothing.
func STSCandidates(imo overwatch.IMO, track []vessel.TrackPoint, ports *seaport.Index) []SlowPoint {
	var out []SlowPoint
	last, inRun := -1, false // the index of the last position kept
	for i := range track {
		p := &track[i]
		if !stsValid(p.Lat, p.Lon) {
			continue
		}
		ok := stsSlow(track, i) && (ports == nil || ports.PortAt(p.Lat, p.Lon) == "") && !stsNearAnchorage(p.Lat, p.Lon)
		switch {
		case ok:
			if !inRun && i > 0 && last != i-1 && stsValid(track[i-1].Lat, track[i-1].Lon) {
				q := &track[i-1]
				out = append(out, SlowPoint{IMO: imo, TS: q.TS, Lat: q.Lat, Lon: q.Lon, SOG: q.SOG})
			}
			out = append(out, SlowPoint{IMO: imo, TS: p.TS, Lat: p.Lat, Lon: p.Lon, SOG: p.SOG, Slow: true})
			last, inRun = i, true
		case inRun:
			out = append(out, SlowPoint{IMO: imo, TS: p.TS, Lat: p.Lat, Lon: p.Lon, SOG: p.SOG})
			last, inRun = i, false
		}
	}
	return out
}

// stsSlow reports whether the vessel is under STSMaxKnots at track[i].
func stsSlow(track []vessel.TrackPoint, i int) bool {
	p := &track[i]
	if !math.IsNaN(p.SOG) && !math.IsInf(p.SOG, 0) {
		return p.SOG < STSMaxKnots
	}
	if p.NavStatus == 1 || p.NavStatus == 5 {
		return true
	}
	if i == 0 {
		return false
	}
	q := &track[i-1]
	dt := p.TS.Sub(q.TS)
	if dt <= 0 || dt > STSMaxGap || !stsValid(q.Lat, q.Lon) {
		return false
	}
	return geo.DistanceKM(q.Lat, q.Lon, p.Lat, p.Lon)/kmPerNM/dt.Hours() < STSMaxKnots
}

func stsValid(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 // false for NaN
}

// stsAnchorages are the anchorages of the reference ports.
var stsAnchorages = sync.OnceValue(func() []seaport.Zone {
	var out []seaport.Zone
	for _, p := range seaport.All() {
		out = append(out, p.Anchorages...)
	}
	return out
})

// stsNearAnchorage reports whether the point is within STSAnchorageKM of
// the edge of an anchorage.
func stsNearAnchorage(lat, lon float64) bool {
	for _, a := range stsAnchorages() {
		reach := a.RadiusKM + STSAnchorageKM
		if math.Abs(lat-a.Lat)*kmPerDegree > reach+1 {
			continue
		}
		if geo.DistanceKM(lat, lon, a.Lat, a.Lon) < reach {
			return true
		}
	}
	return false
}

// kmPerDegree is the length of a degree of latitude on the sphere of
// geo.DistanceKM.
const kmPerDegree = 6371.0088 * math.Pi / 180

// DetectSTS returns the ship-to-ship transfers among the candidates of all
// vessels (STSCandidates), as events of type EventSTS in time order. It
// sorts c in place by vessel and time.
//
// A transfer is an encounter (see the STS constants) of STSMinDuration or
// more: the interval in which both vessels are within a run of slow
// positions and their interpolated positions are within STSMaxDistanceM of
// each other, one of them having come to it or leaving from it (see
// STSArrival). Of the encounters a vessel has at the same time with
// several others, those with opposite draught changes are kept, or, when
// none has them, the closest: the others were neighbours lying within
// reach (an anchored shuttle near the spot of another's transfer). One event stands for the pair: IMO is the lower IMO, Other
// the higher (so a search by vessel matches either column). An encounter
// still going on at dataEnd (both vessels' last positions in it, within
// STSMaxGap of dataEnd) is open: End nil.
//
// Subtype: the method, STSProximity when STSMinDuration or more of the
// encounter was observed directly, STSPathIntersection otherwise.
//
// draughts (may be nil) gives a vessel's reported draught in force at a
// time and STSDraughtLag after it (see DraughtLog): each vessel's draught
// change is from the one before the start to the one after the end; the
// changes are opposite when one goes down and the other up, by
// MinDraftChangeM or more each.
//
// Detail: method; confidence, "high" for a proximity encounter with
// opposite draught changes, "medium" for a proximity encounter without
// them or a path intersection with them, "low" for a path intersection
// alone; hours (the encounter's length so far); observed_hours;
// min_distance_m; other_imo; tonnes, the cargo transferred, estimated from
// each vessel's draught change and profile (profiles, may be nil) as
// EstimateCargo estimates a call's, averaged over the vessels whose change
// is of MinDraftChangeM or more (0: no estimate); draught_change_m and
// other_draught_change_m (0 when unknown); area, the known transfer area
// containing the start, when there is one; ongoing.
//
// Severity follows the confidence: high, medium or low.
func DetectSTS(c []SlowPoint, dataEnd time.Time, draughts func(imo overwatch.IMO, at time.Time) (before, after float64), profiles map[overwatch.IMO]vessel.Profile) []Event {
	sort.SliceStable(c, func(i, j int) bool {
		if c[i].IMO != c[j].IMO {
			return c[i].IMO < c[j].IMO
		}
		return c[i].TS.Before(c[j].TS)
	})
	c, runs := stsExtend(c, stsRuns(c))
	var out []Event
	var opposite []bool
	for _, pr := range stsPairs(c, runs) {
		a, b := &runs[pr[0]], &runs[pr[1]]
		if c[a.lo].IMO > c[b.lo].IMO {
			a, b = b, a
		}
		for _, e := range stsEncounters(c, a, b) {
			if stsComes(c, a, e) || stsComes(c, b, e) {
				ev, opp := stsEvent(c, a, b, e, dataEnd, draughts, profiles)
				out, opposite = append(out, ev), append(opposite, opp)
			}
		}
	}
	out = stsPrune(out, opposite)
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		if out[i].IMO != out[j].IMO {
			return out[i].IMO < out[j].IMO
		}
		return out[i].Other < out[j].Other
	})
	return out
}

// stsPrune keeps, of the encounters a vessel has at the same time with
// several others, those with opposite draught changes, or, when none has
// them, the closest: the others were neighbours lying within reach.
func stsPrune(ev []Event, opposite []bool) []Event {
	far := time.Unix(1<<40, 0)
	end := func(e *Event) time.Time {
		if e.End == nil {
			return far
		}
		return *e.End
	}
	dist := func(e *Event) float64 { d, _ := e.Detail["min_distance_m"].(float64); return d }
	var out []Event
	for i := range ev {
		drop := false
		for j := range ev {
			a, b := &ev[i], &ev[j]
			if i == j || opposite[i] || a.Start.After(end(b)) || b.Start.After(end(a)) {
				continue
			}
			if !(a.IMO == b.IMO || a.IMO == b.Other || a.Other == b.IMO || a.Other == b.Other) || a.IMO == b.IMO && a.Other == b.Other {
				continue
			}
			if opposite[j] || dist(b) < dist(a) || dist(b) == dist(a) && j < i {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, ev[i])
		}
	}
	return out
}

// stsComes reports whether run r's vessel came to the encounter or left
// from it (see STSArrival).
func stsComes(c []SlowPoint, r *stsRun, e stsEnc) bool {
	return r.arrived && e.start.Sub(c[r.lo].TS) <= STSArrival || r.left && c[r.hi].TS.Sub(e.end) <= STSArrival
}

// stsRun is a run of slow positions of one vessel, c[lo..hi]; tail when
// the vessel has no position after it; arrived when it came under way
// (a position that is not slow, within STSMaxGap before the run), left
// when it went on under way.
type stsRun struct {
	lo, hi        int
	tail          bool
	arrived, left bool
}

// stsRuns splits the sorted candidates into runs of slow positions (see
// the STS constants); stsExtend keeps those lasting STSMinDuration or more.
func stsRuns(c []SlowPoint) []stsRun {
	var runs []stsRun
	cur := stsRun{lo: -1}
	flush := func(next int) { // next: the position after the run, or -1
		if cur.lo >= 0 {
			cur.tail = next < 0
			cur.left = next >= 0 && !c[next].Slow && c[next].TS.Sub(c[cur.hi].TS) <= STSMaxGap
			runs = append(runs, cur)
		}
		cur = stsRun{lo: -1}
	}
	for i := range c {
		p := &c[i]
		if i > 0 && c[i-1].IMO != p.IMO {
			flush(-1)
		}
		if !p.Slow || !stsValid(p.Lat, p.Lon) {
			flush(i)
			continue
		}
		if cur.lo >= 0 && !stsJoins(&c[cur.hi], p) {
			flush(i)
		}
		if cur.lo < 0 {
			cur.lo = i
			cur.arrived = i > 0 && c[i-1].IMO == p.IMO && !c[i-1].Slow && p.TS.Sub(c[i-1].TS) <= STSMaxGap
		}
		cur.hi = i
	}
	flush(-1)
	return runs
}

// stsJoins reports whether slow position q continues the run ending at p.
func stsJoins(p, q *SlowPoint) bool {
	dt := q.TS.Sub(p.TS)
	if dt > STSMaxGap {
		return false
	}
	if dt <= STSDenseGap {
		return true
	}
	return geo.DistanceKM(p.Lat, p.Lon, q.Lat, q.Lon)/kmPerNM/dt.Hours() < STSMaxKnots
}

// Spatial and temporal index of the runs: cells of stsCellDeg degrees and
// buckets of stsBucket, each run indexed by chunks of at most stsCellDeg
// across and stsBucket long.
const (
	stsCellDeg = 0.1
	stsBucket  = 6 * time.Hour
	stsMaxKeys = 256 // a chunk covering more cells (a jump) is not indexed
)

type stsKey struct{ lat, lon, t int32 }

// stsPairs returns the pairs of runs of different vessels that share a
// cell and a time bucket, in a stable order.
func stsPairs(c []SlowPoint, runs []stsRun) [][2]int {
	grid := map[stsKey][]int{}
	for ri, r := range runs {
		for s := r.lo; s < r.hi; {
			e, minLat, maxLat, minLon, maxLon := s, c[s].Lat, c[s].Lat, c[s].Lon, c[s].Lon
			for e < r.hi {
				q := &c[e+1]
				la0, la1, lo0, lo1 := math.Min(minLat, q.Lat), math.Max(maxLat, q.Lat), math.Min(minLon, q.Lon), math.Max(maxLon, q.Lon)
				if e > s && (la1-la0 > stsCellDeg || lo1-lo0 > stsCellDeg || q.TS.Sub(c[s].TS) > stsBucket) {
					break
				}
				minLat, maxLat, minLon, maxLon, e = la0, la1, lo0, lo1, e+1
			}
			stsIndex(grid, ri, c[s].TS, c[e].TS, minLat, maxLat, minLon, maxLon)
			s = e // chunks share their end positions
		}
	}
	seen := map[[2]int]bool{}
	var pairs [][2]int
	for _, list := range grid {
		for i, a := range list {
			for _, b := range list[i+1:] {
				if c[runs[a].lo].IMO == c[runs[b].lo].IMO {
					continue
				}
				k := [2]int{min(a, b), max(a, b)}
				if !seen[k] {
					seen[k] = true
					pairs = append(pairs, k)
				}
			}
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	return pairs
}

// stsIndex adds run ri to every key its chunk (a box widened by
// STSMaxDistanceM, and a time span) covers.
func stsIndex(grid map[stsKey][]int, ri int, from, to time.Time, minLat, maxLat, minLon, maxLon float64) {
	dLat := STSMaxDistanceM / 1000 / kmPerDegree
	dLon := dLat / math.Max(0.01, math.Cos(math.Max(math.Abs(minLat), math.Abs(maxLat))*math.Pi/180))
	la0, la1 := int32(math.Floor((minLat-dLat)/stsCellDeg)), int32(math.Floor((maxLat+dLat)/stsCellDeg))
	lo0, lo1 := int32(math.Floor((minLon-dLon)/stsCellDeg)), int32(math.Floor((maxLon+dLon)/stsCellDeg))
	t0, t1 := int32(from.Unix()/int64(stsBucket/time.Second)), int32(to.Unix()/int64(stsBucket/time.Second))
	if int64(la1-la0+1)*int64(lo1-lo0+1)*int64(t1-t0+1) > stsMaxKeys {
		return
	}
	for la := la0; la <= la1; la++ {
		for lo := lo0; lo <= lo1; lo++ {
			for t := t0; t <= t1; t++ {
				k := stsKey{la, lo, t}
				if l := grid[k]; len(l) == 0 || l[len(l)-1] != ri {
					grid[k] = append(l, ri)
				}
			}
		}
	}
}
