package risk

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"overwatch/maritime/portcall"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"

	"overwatch"
)

// Draught-mismatch thresholds (the escalators of METHODS.md's dark-fleet
// section: what a vessel reports of its draught against what its calls
// explain).
//
// A reported draught held MismatchSustained or more is sustained; a
// vessel's design draught is estimated as its deepest sustained draught of
// MismatchMaxDraftM or less. A change of reported draught is at a call when
// it falls within the call's grace: MismatchCallGrace, or DraughtReports
// static-report intervals of the vessel when it reports less often (crews
// enter the new draught around arrival and departure, and it reaches us
// with the next static report received: after a silence across the
// departure, the grace after it runs from when the vessel is heard again);
// it is across an AIS gap when it
// is first seen within MismatchGapSettle of the end of a silence longer
// than MismatchGap (positions carry the draught of the last static report
// received, and after a silence the next may take hours to come through:
// the gap detector reports the draught change across gaps of GapMinimum
// and more, so MismatchGap is GapMinimum and a change across a shorter
// silence is reported here); it follows a transfer when a ship-to-ship
// transfer of the vessel ended within MismatchStopLookback before it
// (DropTransferred).
const (
	MismatchSustained    = 12 * time.Hour
	MismatchMaxDraftM    = 25.0
	MismatchFactor       = 1.5
	MismatchJumpShare    = 0.7
	MismatchCallGrace    = 3 * time.Hour
	MismatchGap          = GapMinimum
	MismatchGapSettle    = 6 * time.Hour
	MismatchStopLookback = 6 * time.Hour
)

// Subtypes of draught mismatches.
const (
	MismatchDirectional = "directional"
	MismatchMagnitude   = "magnitude"
	MismatchZeroChange  = "zero_change"
)

// DetectMismatches returns the draught mismatches of a vessel from its
// track (time-ordered positions, with the reported draught) and its port
// calls (other vessels' calls are ignored), as events of type
// EventMismatch in time order. staticEvery is how often the vessel's static
// reports (which carry the draught) came through (0: unknown, the AIS
// cadence); it widens the grace around calls (DraughtSettle). Changes of
// reported draught under MinDraftChangeM are no change.
//
// magnitude: a reported draught that cannot be true: deeper than
// MismatchMaxDraftM (25 m, more than any ship afloat); or, after another
// draught, held for less than MismatchSustained and then changed again,
// while deeper than MismatchFactor (1.5) times the design draught
// estimate or differing from the draught before it by more than
// MismatchJumpShare (0.7) of it (more than the range from ballast to design
// of any hull). Held counts only the time the vessel was heard: a silence
// of GapOffOn or more does not hold it (the correction may have come in
// it, the positions after it carrying the stale report). Such a draught
// heard for less than MismatchSustained up to the end of the track is
// pending: neither magnitude nor directional until a later run sees
// whether it lasts. Start and End are when it was first
// and last in force (End nil when it still is). Detail expected: "at most
// X m". Severity low: most are entry errors.
//
// directional: a change of reported draught at sea (not within the grace
// of a call, not across an AIS gap of MismatchGap or more — the gap
// detector reports those) — the draught going up without a loading call
// or down without a discharge, across a silence shorter than a gap, or
// during a stop at sea with no partner. A change that follows a
// ship-to-ship transfer of the vessel is the transfer's: DropTransferred
// removes it once the transfers are known. Magnitude errors are passed
// over: the draughts before and after them are compared. It lasts until
// the next change or the next call (End nil when neither came). Severity
// high for a change of 2 m or more, medium below.
//
// zero_change: a call with a stop at a bulk cargo berth (a berth zone of
// the reference ports that handles no containers; one that handles
// containers and bulk cargo counts for a tanker (AIS ship type 80-89, as
// the calls carry it) and for a vessel whose calls include terminals
// without containers and none with containers only: liners load
// and discharge at each call, their draught may well not change) in which
// the draught did not change, from the one reported on arrival to
// the one in force the call's grace after departure (a call whose grace
// after departure the track does not reach yet is not judged), unless the
// previous call was itself a zero_change at the same draught (the stale draught is
// now right), or since the previous call the draught changed at sea
// (directional, after a stop at sea too) to one the vessel held for
// MismatchSustained at another time (apart from this draught: a run
// separated from it by another one) (its laden or ballast draught, entered
// before the call). Calls going on when the track begins are passed over
// (the draught on arrival is unknown): the track and calls given should
// reach back to the vessel's call before the period examined. Port: the
// call's. Start and End: the call's arrival and departure. Severity
// medium.
//
// Detail: reported_from, reported_to, change_m (metres, signed), expected
// (what the draught should have done), and for magnitude
// design_estimate_m, for zero_change berth_zone.
func DetectMismatches(imo overwatch.IMO, track []vessel.TrackPoint, calls []portcall.Call, staticEvery time.Duration) []Event {
	m := &mmDetector{track: track, grace: DraughtSettle(MismatchCallGrace, staticEvery)}
	for i := range calls {
		if calls[i].IMO == imo || calls[i].IMO == 0 {
			m.calls = append(m.calls, &calls[i])
		}
	}
	sort.SliceStable(m.calls, func(i, j int) bool { return m.calls[i].Arrival.Before(m.calls[j].Arrival) })
	m.runs()
	var out []Event
	out = append(out, m.magnitude(imo)...)
	out = append(out, m.directional(imo)...)
	out = append(out, m.zeroChange(imo)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// mmRun is a stretch of positions reporting the same draught: track[first]
// to track[last]; next is the first position of the next stretch (-1).
type mmRun struct {
	value             float64
	first, last, next int
	magnitude         bool
	pending           bool // would be a magnitude error if it ends soon
}

type mmDetector struct {
	track []vessel.TrackPoint
	grace time.Duration // around calls
	calls []*portcall.Call
	rs    []mmRun
	early []time.Time // directional changes to a draught held at another time
	liner bool        // the vessel calls at container-only terminals
	bulk  bool        // and at terminals that handle no containers
}

func (m *mmDetector) runs() {
	for i := range m.track {
		d := m.track[i].Draft
		if !(d > 0) || math.IsInf(d, 0) {
			continue
		}
		if n := len(m.rs); n > 0 && math.Abs(m.rs[n-1].value-d) < 0.05 {
			m.rs[n-1].last = i
			continue
		} else if n > 0 {
			m.rs[n-1].next = i
		}
		m.rs = append(m.rs, mmRun{value: d, first: i, last: i, next: -1})
	}
}

func (m *mmDetector) held(r *mmRun) time.Duration {
	end := m.track[r.last].TS
	if r.next >= 0 {
		end = m.track[r.next].TS
	}
	return end.Sub(m.track[r.first].TS)
}

// heard is how long the draught of run r was heard in force: the time
// from its first position to the next run's (its last, while it lasts),
// less the silences of GapOffOn or more within it. The draught may have
// changed in such a silence, and the positions after it carry the last
// static report received before it until the next one comes through: an
// impossible draught corrected while the vessel was silent would look
// held across the silence.
func (m *mmDetector) heard(r *mmRun) time.Duration {
	end := r.last
	if r.next >= 0 {
		end = r.next
	}
	var d time.Duration
	for i := r.first + 1; i <= end; i++ {
		if step := m.track[i].TS.Sub(m.track[i-1].TS); step < GapOffOn {
			d += step
		}
	}
	return d
}

// callAt is the call whose time, widened by grace, contains t, or nil.
func (m *mmDetector) callAt(t time.Time, grace time.Duration) *portcall.Call {
	for _, c := range m.calls {
		if t.Before(c.Arrival.Add(-grace)) {
			continue
		}
		if c.Departure == nil || !t.After(m.departed(c, grace).Add(grace)) {
			return c
		}
	}
	return nil
}

// departed is when the grace after call c's departure starts: the
// departure, or when the vessel was first heard after it if it was silent
// then, for less than MismatchGap (the new draught reaches us with the
// first static report received once the vessel is heard again; after a
// longer silence the change is across a gap). With no grace, the
// departure.
func (m *mmDetector) departed(c *portcall.Call, grace time.Duration) time.Time {
	dep := *c.Departure
	if grace <= 0 {
		return dep
	}
	i := sort.Search(len(m.track), func(j int) bool { return !m.track[j].TS.Before(dep) })
	if i < len(m.track) && m.track[i].TS.Sub(dep) < MismatchGap {
		return m.track[i].TS
	}
	return dep
}

// reference is the design draught estimate leaving run k out: the deepest
// sustained draught of another run (0: none).
func (m *mmDetector) reference(k int) float64 {
	ref := 0.0
	for j := range m.rs {
		r := &m.rs[j]
		if j != k && r.value <= MismatchMaxDraftM && m.held(r) >= MismatchSustained {
			ref = math.Max(ref, r.value)
		}
	}
	return ref
}

func (m *mmDetector) magnitude(imo overwatch.IMO) []Event {
	var out []Event
	for k := range m.rs {
		r := &m.rs[k]
		ref := m.reference(k)
		prev := 0.0 // the last draught that was not a magnitude error
		for j := k - 1; j >= 0; j-- {
			if !m.rs[j].magnitude {
				prev = m.rs[j].value
				break
			}
		}
		// The first draught of the track has no known start.
		implausible := k > 0 && ref > 0 && (r.value > MismatchFactor*ref || prev > 0 && math.Abs(r.value-prev) > MismatchJumpShare*ref)
		switch {
		case r.value > MismatchMaxDraftM:
			r.magnitude = true
		case implausible && r.next >= 0:
			r.magnitude = m.heard(r) < MismatchSustained
		case implausible:
			r.pending = m.heard(r) < MismatchSustained
		}
		if !r.magnitude {
			continue
		}
		limit := MismatchMaxDraftM
		if ref > 0 {
			limit = math.Min(limit, MismatchFactor*ref)
		}
		p := &m.track[r.first]
		ev := Event{Type: EventMismatch, Subtype: MismatchMagnitude, IMO: imo, Start: p.TS, Severity: TierLow,
			Detail: mmDetail(prev, r.value, fmt.Sprintf("at most %.1f m", limit))}
		ev.Place(p.Lat, p.Lon, p.Lat, p.Lon)
		ev.Detail["design_estimate_m"] = ref
		if r.next >= 0 {
			q := &m.track[r.next]
			end := q.TS
			ev.End, ev.EndLat, ev.EndLon = &end, q.Lat, q.Lon
		}
		if c := m.callAt(p.TS, 0); c != nil {
			ev.Port = c.Port
		}
		out = append(out, ev)
	}
	return out
}

func (m *mmDetector) directional(imo overwatch.IMO) []Event {
	var out []Event
	prev := -1
	for k := range m.rs {
		r := &m.rs[k]
		if r.magnitude || r.pending {
			continue
		}
		if prev < 0 {
			prev = k
			continue
		}
		from := m.rs[prev].value
		prev = k
		change := r.value - from
		if math.Abs(change) < portcall.MinDraftChangeM-1e-9 {
			continue
		}
		p := &m.track[r.first]
		if m.callAt(p.TS, m.grace) != nil || m.acrossGap(r.first) {
			continue
		}
		// A change to a draught held at another time is the laden or
		// ballast draught entered before a call, after a stop at sea too
		// (a wait for the berth, the crew's paperwork done early).
		for j := range m.rs {
			if j != k && math.Abs(m.rs[j].value-r.value) < portcall.MinDraftChangeM-1e-9 && m.held(&m.rs[j]) >= MismatchSustained && m.apart(j, k) {
				m.early = append(m.early, p.TS)
				break
			}
		}
		ev := Event{Type: EventMismatch, Subtype: MismatchDirectional, IMO: imo, Start: p.TS, Severity: TierMedium,
			Detail: mmDetail(from, r.value, "no change at sea (no load or discharge call)")}
		ev.Place(p.Lat, p.Lon, p.Lat, p.Lon)
		if math.Abs(change) >= 2 {
			ev.Severity = TierHigh
		}
		if end, i := m.until(k, p.TS); i >= 0 {
			ev.End, ev.EndLat, ev.EndLon = &end, m.track[i].Lat, m.track[i].Lon
		}
		out = append(out, ev)
	}
	return out
}

// apart reports whether runs j and k are separated by a run of another
// draught (a change of MinDraftChangeM or more from k's): a run that only
// continues k's draught (11.5 m re-entered as 11.4 m) is the same time.
func (m *mmDetector) apart(j, k int) bool {
	lo, hi := min(j, k), max(j, k)
	for i := lo + 1; i < hi; i++ {
		if !m.rs[i].magnitude && math.Abs(m.rs[i].value-m.rs[k].value) >= portcall.MinDraftChangeM-1e-9 {
			return true
		}
	}
	return false
}

// acrossGap reports whether the change first seen at track[f] came out of
// a silence longer than MismatchGap that ended within MismatchGapSettle.
func (m *mmDetector) acrossGap(f int) bool {
	t := m.track[f].TS
	for j := f; j > 0 && !m.track[j].TS.Before(t.Add(-MismatchGapSettle)); j-- {
		if m.track[j].TS.Sub(m.track[j-1].TS) > MismatchGap {
			return true
		}
	}
	return false
}

// until is when the draught of run k stopped being in force: the next
// change (past magnitude errors) or the next call's arrival, whichever came
// first, with the index of the position there; -1 when neither came.
func (m *mmDetector) until(k int, from time.Time) (time.Time, int) {
	var end time.Time
	idx := -1
	for j := k + 1; j < len(m.rs); j++ {
		if !m.rs[j].magnitude {
			idx, end = m.rs[j].first, m.track[m.rs[j].first].TS
			break
		}
	}
	for _, c := range m.calls {
		if c.Arrival.After(from) {
			if idx < 0 || c.Arrival.Before(end) {
				end = c.Arrival
				idx = sort.Search(len(m.track), func(i int) bool { return !m.track[i].TS.Before(end) })
				if idx >= len(m.track) {
					idx = len(m.track) - 1
				}
			}
			break
		}
	}
	return end, idx
}

func (m *mmDetector) zeroChange(imo overwatch.IMO) []Event {
	var out []Event
	flaggedAt := -1.0 // the draught of the previous call, when it was a zero_change
	var since time.Time
	for _, c := range m.calls {
		if c.ShipType >= 80 && c.ShipType <= 89 {
			m.bulk = true // a tanker: never a liner, every terminal a cargo berth
		}
		if p, ok := seaport.BySlug(c.Port); ok {
			for _, z := range p.Berths {
				if z.ID == c.BerthZone && len(z.Cargo) > 0 {
					containers := z.Handles(overwatch.CommodityContainers)
					m.liner = m.liner || containers && len(z.Cargo) == 1
					m.bulk = m.bulk || !containers
				}
			}
		}
	}
	for i, c := range m.calls {
		if c.Departure == nil {
			break
		}
		from := since
		since = *c.Departure
		before, after := c.DraftBefore, m.draughtAfter(i)
		was := flaggedAt
		flaggedAt = -1
		if c.BerthZone == "" || !(before > 0 && after > 0) || math.Abs(after-before) >= portcall.MinDraftChangeM-1e-9 || !m.cargoBerth(c) {
			continue
		}
		if len(m.track) == 0 || !m.track[0].TS.Before(c.Arrival) {
			continue // in port when the data begins: the draught on arrival is unknown
		}
		if !m.settled(i) {
			continue // the data end before the new draught had to come through: not judged yet
		}
		if was > 0 && math.Abs(before-was) < portcall.MinDraftChangeM-1e-9 {
			continue
		}
		if slices.ContainsFunc(m.early, func(t time.Time) bool { return t.After(from) && !t.After(c.Arrival) }) {
			continue
		}
		flaggedAt = after
		ev := Event{Type: EventMismatch, Subtype: MismatchZeroChange, IMO: imo, Port: c.Port, Start: c.Arrival,
			Severity: TierMedium, Detail: mmDetail(before, after, fmt.Sprintf("a change of at least %.1f m (load or discharge at a cargo berth)", portcall.MinDraftChangeM))}
		dep := *c.Departure
		ev.End = &dep
		ev.Detail["berth_zone"] = c.BerthZone
		if lat, lon, ok := mmBerthPoint(c); ok {
			ev.Place(lat, lon, lat, lon)
		}
		out = append(out, ev)
	}
	return out
}

// settled reports whether the track reaches the call's grace after call
// i's departure (or the next call's arrival, if sooner): until then the
// new draught may still come through, and an unchanged one is no zero
// change yet.
func (m *mmDetector) settled(i int) bool {
	at := m.departed(m.calls[i], m.grace).Add(m.grace)
	if i+1 < len(m.calls) && m.calls[i+1].Arrival.Before(at) {
		at = m.calls[i+1].Arrival
	}
	return len(m.track) > 0 && !m.track[len(m.track)-1].TS.Before(at)
}

// draughtAfter is the draught in force the call's grace after call i's
// departure (or at the next call's arrival, if sooner), from the track when
// it covers that time, else the call's own.
func (m *mmDetector) draughtAfter(i int) float64 {
	c := m.calls[i]
	at := m.departed(c, m.grace).Add(m.grace)
	if i+1 < len(m.calls) && m.calls[i+1].Arrival.Before(at) {
		at = m.calls[i+1].Arrival
	}
	n := len(m.track)
	if n == 0 || m.track[n-1].TS.Before(*c.Departure) {
		return c.DraftAfter
	}
	k := sort.Search(n, func(j int) bool { return m.track[j].TS.After(at) })
	for j := k - 1; j >= 0 && !m.track[j].TS.Before(c.Arrival); j-- {
		if d := m.track[j].Draft; d > 0 && !math.IsInf(d, 0) {
			return d
		}
	}
	return c.DraftAfter
}

// cargoBerth reports whether the call's berth zone is a bulk cargo
// terminal for the vessel: one that handles no containers, or one that
// handles containers and bulk cargo when the vessel calls at terminals
// without containers and at none with only containers (a bulk carrier).
// Unknown zones count as cargo berths.
func (m *mmDetector) cargoBerth(c *portcall.Call) bool {
	p, ok := seaport.BySlug(c.Port)
	if !ok {
		return true
	}
	for _, z := range p.Berths {
		if z.ID == c.BerthZone {
			return !z.Handles(overwatch.CommodityContainers) || m.bulk && !m.liner && len(z.Cargo) > 1
		}
	}
	return true
}

// mmBerthPoint is the centre of the call's berth zone, or of its port;
// false when the port is not a reference port.
func mmBerthPoint(c *portcall.Call) (lat, lon float64, ok bool) {
	p, ok := seaport.BySlug(c.Port)
	if !ok {
		return 0, 0, false
	}
	for _, z := range p.Berths {
		if z.ID == c.BerthZone {
			return z.Lat, z.Lon, true
		}
	}
	return p.Lat, p.Lon, true
}

func mmDetail(from, to float64, expected string) map[string]any {
	return map[string]any{"reported_from": from, "reported_to": to, "change_m": math.Round((to-from)*10) / 10, "expected": expected}
}
