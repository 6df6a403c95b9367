package risk

import (
	"fmt"
	"math"
	"sort"
	"time"

	"overwatch"
)

// Hotspot clustering: the events of the last HotspotWindow are binned on a
// grid of cells DefaultHotspotCellDeg degrees square (by where each event
// started); a cell with at least HotspotMinEvents events, or events of at
// least HotspotMinVessels vessels, is a hotspot, active when one of its
// events went on within HotspotActiveWindow of now.
const (
	HotspotWindow         = 30 * 24 * time.Hour
	HotspotActiveWindow   = 72 * time.Hour
	DefaultHotspotCellDeg = 0.5
	HotspotMinEvents      = 3
	HotspotMinVessels     = 2
)

// hotspotPoints weighs each kind of event in a hotspot's severity: the
// signs of deliberate evasion (intentional gaps, transfers, spoofing)
// weigh more than those with innocent explanations.
var hotspotPoints = map[string]float64{
	EventGap: 1, EventGap + "/intentional": 3, EventSTS: 3, EventSpoofing: 2,
	EventLoitering: 1, EventMismatch: 1, EventIdentity: 1,
}

// Hotspot severity thresholds, in points (hotspotPoints summed over the
// cell's events): critical from 20, high from 10, medium from 5.
const (
	HotspotCriticalPoints = 20
	HotspotHighPoints     = 10
	HotspotMediumPoints   = 5
)

// Hotspots clusters the risk events of the 30 days before now on a grid
// of cellDeg-degree cells (DefaultHotspotCellDeg when cellDeg is not a
// positive number; at most 10 degrees): an event counts when it overlaps
// the window (ongoing events until now), in the cell where it started.
// Sanctions matches and events without a position are left out. A cell is
// a hotspot with ≥ 3 events or events of ≥ 2 vessels (both vessels of a
// transfer count). Its ID is the cell ("g0.5_58_101": size, row, column,
// stable while the size is), Lat/Lon the cell's centre (not a vessel's
// position, so it may be shown to every plan),
// LastEvent the latest start or end (now while one goes on), Active when
// that is within 72 hours of now, Severity from the points of its events
// (ais_gap 1, intentional ais_gap 3, sts_transfer 3, spoofing 2,
// loitering, draught_mismatch and identity_change 1): critical ≥ 20, high
// ≥ 10, medium ≥ 5, low below. Ordered by severity, events, then ID.
func Hotspots(events []Event, now time.Time, cellDeg float64) []Hotspot {
	if !(cellDeg > 0) || cellDeg > 10 {
		cellDeg = DefaultHotspotCellDeg
	}
	from := now.Add(-HotspotWindow)
	type cell struct {
		h        *Hotspot
		vessels  map[overwatch.IMO]bool
		points   float64
		row, col int
	}
	cells := map[[2]int]*cell{}
	for i := range events {
		e := &events[i]
		if e.Type == EventSanctions || e.Type == EventHotspotKey || !e.HasPosition || !scoreValidPosition(e.Lat, e.Lon) {
			continue
		}
		last := now
		if e.End != nil && e.End.Before(now) {
			last = *e.End
		}
		if e.Start.After(now) || last.Before(from) {
			continue
		}
		lon := math.Mod(e.Lon+540, 360) - 180
		k := [2]int{int(math.Floor(e.Lat / cellDeg)), int(math.Floor(lon / cellDeg))}
		c := cells[k]
		if c == nil {
			c = &cell{h: &Hotspot{ID: fmt.Sprintf("g%g_%d_%d", cellDeg, k[0], k[1]), CellDeg: cellDeg, ByType: map[string]int{},
				FirstEvent: e.Start, LastEvent: e.Start}, vessels: map[overwatch.IMO]bool{}, row: k[0], col: k[1]}
			cells[k] = c
		}
		h := c.h
		h.Events++
		h.ByType[e.Type]++
		key := e.Type
		if e.Type == EventGap && e.Subtype == "intentional" {
			key += "/intentional"
		}
		c.points += hotspotPoints[key]
		for _, imo := range []overwatch.IMO{e.IMO, e.Other} {
			if imo != 0 {
				c.vessels[imo] = true
			}
		}
		if e.Start.Before(h.FirstEvent) {
			h.FirstEvent = e.Start
		}
		if last.After(h.LastEvent) {
			h.LastEvent = last
		}
	}
	var out []Hotspot
	for _, c := range cells {
		h := c.h
		h.Vessels = len(c.vessels)
		if h.Events < HotspotMinEvents && h.Vessels < HotspotMinVessels {
			continue
		}
		h.Lat = math.Round((float64(c.row)+0.5)*cellDeg*1e6) / 1e6
		h.Lon = math.Round((float64(c.col)+0.5)*cellDeg*1e6) / 1e6
		h.Active = !h.LastEvent.Before(now.Add(-HotspotActiveWindow))
		switch {
		case c.points >= HotspotCriticalPoints:
			h.Severity = TierCritical
		case c.points >= HotspotHighPoints:
			h.Severity = TierHigh
		case c.points >= HotspotMediumPoints:
			h.Severity = TierMedium
		default:
			h.Severity = TierLow
		}
		out = append(out, *h)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if ra, rb := hotspotTierRank(a.Severity), hotspotTierRank(b.Severity); ra != rb {
			return ra < rb
		}
		if a.Events != b.Events {
			return a.Events > b.Events
		}
		return a.ID < b.ID
	})
	return out
}

// hotspotTierRank orders tiers from critical (0) to low (3).
func hotspotTierRank(tier string) int {
	switch tier {
	case TierCritical:
		return 0
	case TierHigh:
		return 1
	case TierMedium:
		return 2
	}
	return 3
}
