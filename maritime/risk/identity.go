package risk

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"overwatch"
	"overwatch/maritime/vessel"
)

// Identity-change subtypes: the field that changed.
const (
	IdentityFlag = "flag"
	IdentityName = "name"
	IdentityMMSI = "mmsi"
)

// IdentityFlapWindow: a value that reverts to the one before it within
// this time is noise (reports relayed out of order, a mistyped entry put
// right), not a change.
const IdentityFlapWindow = time.Hour

// IdentityFixWindow: an identity change is placed at the vessel's position
// nearest in time to it, when one lies within this time of it (a thinned
// feed keeps a position every 30 to 90 minutes); with none that near, the
// change has no position.
const IdentityFixWindow = time.Hour

// IdentityChanges returns the identity changes in a vessel's identity
// history (rows sorted by ValidFrom, the first the vessel's first known
// identity), as events of type EventIdentity in time order: one event per
// changed field among flag, name and MMSI (Subtype the field), at the
// ValidFrom of the row that first shows the new value (Start = End).
//
// Values are compared normalised: names upper-cased with AIS padding ('@')
// and runs of spaces removed, so case and whitespace alone are no change;
// an empty value (not reported) is no change either, the last known value
// standing. A value that reverts to the one before within
// IdentityFlapWindow is noise: neither change is reported.
//
// Severity: a flag change to a high-risk registry (one of HighRiskFlags,
// the list the risk score's flag factor uses) high, to another flag
// medium; an MMSI change medium; a name change low, or medium when the
// vessel's flag or MMSI also changed within 30 days of it (a vessel
// re-identified).
//
// Detail: field; old and new (the values as reported, MMSI as a number).
//
// The events have no position: PlaceIdentityChanges gives them the
// vessel's from its track.
func IdentityChanges(rows []vessel.Identity) []Event {
	var out []Event
	for _, f := range []string{IdentityFlag, IdentityName, IdentityMMSI} {
		out = append(out, identityField(rows, f)...)
	}
	// A name change is of medium severity when the flag or MMSI changed
	// within 30 days.
	for i := range out {
		if out[i].Subtype != IdentityName {
			continue
		}
		for j := range out {
			if out[j].Subtype != IdentityName && out[j].IMO == out[i].IMO && identityAbs(out[j].Start.Sub(out[i].Start)) <= 30*24*time.Hour {
				out[i].Severity = TierMedium
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		return out[i].Subtype < out[j].Subtype
	})
	return out
}

// PlaceIdentityChanges places the identity changes among events that are
// the vessel's (imo) at its position nearest in time to each, from its
// track (time-ordered, positions not on Earth ignored), when that fix lies
// within IdentityFixWindow of the change; the others keep no position.
func PlaceIdentityChanges(events []Event, imo overwatch.IMO, track []vessel.TrackPoint) {
	track = onEarthOnly(track)
	for i := range events {
		e := &events[i]
		if e.Type != EventIdentity || e.IMO != imo || len(track) == 0 {
			continue
		}
		k := sort.Search(len(track), func(j int) bool { return !track[j].TS.Before(e.Start) })
		best, gap := -1, IdentityFixWindow+1
		for _, j := range []int{k - 1, k} {
			if j >= 0 && j < len(track) {
				if d := identityAbs(track[j].TS.Sub(e.Start)); d < gap {
					best, gap = j, d
				}
			}
		}
		if best >= 0 && gap <= IdentityFixWindow {
			p := &track[best]
			e.Place(p.Lat, p.Lon, p.Lat, p.Lon)
		}
	}
}

// identityField returns the changes of one field.
func identityField(rows []vessel.Identity, field string) []Event {
	type change struct {
		at       time.Time
		old, new string
	}
	var changes []change
	cur := ""
	for _, r := range rows {
		v := identityValue(r, field)
		if v == "" {
			continue
		}
		if cur == "" {
			cur = v
			continue
		}
		if identityNorm(v) == identityNorm(cur) {
			continue
		}
		if n := len(changes); n > 0 && identityNorm(changes[n-1].old) == identityNorm(v) && r.ValidFrom.Sub(changes[n-1].at) <= IdentityFlapWindow {
			changes = changes[:n-1] // reverted at once: noise
		} else {
			changes = append(changes, change{at: r.ValidFrom, old: cur, new: v})
		}
		cur = v
	}
	var out []Event
	var imo overwatch.IMO
	if len(rows) > 0 {
		imo = rows[0].IMO
	}
	for _, c := range changes {
		at := c.at
		ev := Event{Type: EventIdentity, Subtype: field, IMO: imo, Start: at, End: &at,
			Detail: map[string]any{"field": field, "old": c.old, "new": c.new}}
		switch field {
		case IdentityFlag:
			ev.Severity = TierMedium
			if HighRiskFlags[strings.ToUpper(c.new)] > 0 {
				ev.Severity = TierHigh
			}
		case IdentityMMSI:
			ev.Severity = TierMedium
			o, _ := strconv.ParseUint(c.old, 10, 32)
			n, _ := strconv.ParseUint(c.new, 10, 32)
			ev.Detail["old"], ev.Detail["new"] = uint32(o), uint32(n)
		default:
			ev.Severity = TierLow
		}
		out = append(out, ev)
	}
	return out
}

func identityValue(r vessel.Identity, field string) string {
	switch field {
	case IdentityFlag:
		return strings.TrimSpace(r.Flag)
	case IdentityName:
		return strings.TrimSpace(strings.Trim(r.Name, "@ "))
	default:
		if r.MMSI == 0 {
			return ""
		}
		return strconv.FormatUint(uint64(r.MMSI), 10)
	}
}

// identityNorm is a value with case, AIS padding and whitespace removed.
func identityNorm(s string) string {
	s = strings.ToUpper(strings.ReplaceAll(s, "@", " "))
	return strings.Join(strings.Fields(s), "")
}

func identityAbs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
