package portcall

import (
	"math"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Port-call thresholds (METHODS.md, after GFW's anchorages pipeline): a
// vessel is at an anchorage when within AnchorEntryKM of its point (or of
// its edge, for anchorages larger than that) and leaves it beyond
// AnchorExitKM; it is at a berth zone when within BerthEntryKM of the zone's
// edge (capped at AnchorEntryKM from its point) and leaves it BerthExitKM
// further out; it is stopped below StopKnots and under way again above
// ResumeKnots; silences in port longer than InPortGap are in-port gaps.
const (
	AnchorEntryKM = 3.0
	AnchorExitKM  = 4.0
	BerthEntryKM  = 1.0
	BerthExitKM   = 1.0
	StopKnots     = 0.2
	ResumeKnots   = 0.5
	InPortGap     = 4 * time.Hour
	// EdgeGap is the longest silence across which an entry or exit is still
	// seen: the positions either side of the area's edge are this close.
	EdgeGap = 6 * time.Hour
	// MidwayGap is the longest interval between two positions across which
	// the start or end of a stop is put half-way.
	MidwayGap = time.Hour
	// PublishConfidence is the least confidence of a published call.
	PublishConfidence = 2
)

// stopped: the point's speed under the threshold, or, without a speed, at anchor or
// moored.
func stopped(p *vessel.TrackPoint, was bool) bool {
	if math.IsNaN(p.SOG) {
		return p.NavStatus == 1 || p.NavStatus == 5
	}
	if was {
		return p.SOG <= ResumeKnots
	}
	return p.SOG < StopKnots
}

// Call is a detected call of a vessel at a port. Confidence, 1 to 4:
// 1 for positions in the area only; 2 when the vessel stopped (or went
// silent) in port; 3 when, besides, its entry or its exit was seen; 4 with
// entry, stop and exit all seen. Departure is nil while the call goes on.
type Call struct {
	IMO         overwatch.IMO
	Port        string
	Arrival     time.Time
	Departure   *time.Time
	EntrySeen   bool
	ExitSeen    bool
	Anchorage   string
	AnchorStart *time.Time
	AnchorEnd   *time.Time
	BerthZone   string
	BerthStart  *time.Time
	BerthEnd    *time.Time
	Confidence  uint8
	DraftBefore float64 // reported draught on arrival; 0 when unknown
	DraftAfter  float64 // reported draught on departure; 0 when unknown
	Declared    string  // the destination declared on the way in
	InPortGaps  int
	Positions   int

	// Filled after detection: the declared destination's port (slug, ""
	// when it names none of ours), the vessel's identity, and the cargo
	// estimate (EstimateCargo).
	DeclaredPort       string
	Name, Flag         string
	ShipType           uint8
	Category           string
	BuildYear          int
	BuildYearEstimated bool
	Operation          string
	CargoTonnes        float64
	CargoQuality       string
	DWTEstimate        float64
}

// WaitHours is the time at anchor, or 0.
func (c *Call) WaitHours() float64 {
	if c.AnchorStart == nil || c.AnchorEnd == nil {
		return 0
	}
	return c.AnchorEnd.Sub(*c.AnchorStart).Hours()
}

// detector finds one vessel's port calls in its track.
type detector struct {
	ports   *seaport.Index
	bySlug  map[string]*seaport.Port
	calls   []Call
	cur     *Call
	port    *seaport.Port
	prev    *vessel.TrackPoint
	lastIn  *vessel.TrackPoint
	zone    string // the anchorage or berth zone the vessel is at, if any
	zoneEnd float64
	berth   bool
	stop    bool
	gapSeen bool
	dest    string // the destination last declared before the call
}

// Detect returns the calls in a vessel's track, sorted by time.
// dataEnd is the end of the data: a call whose last position is within
// EdgeGap of it is still going on.
func Detect(imo overwatch.IMO, track []vessel.TrackPoint, ports *seaport.Index, dataEnd time.Time) []Call {
	d := &detector{ports: ports, bySlug: map[string]*seaport.Port{}}
	for _, p := range seaport.All() {
		p := p
		d.bySlug[p.Slug] = &p
	}
	for i := range track {
		p := &track[i]
		d.point(imo, p)
		d.prev = p
	}
	if d.cur != nil {
		if dataEnd.Sub(d.lastIn.TS) <= EdgeGap {
			d.cur.Departure = nil // still in port
			d.finish(nil, false)
		} else {
			d.finish(nil, true)
		}
	}
	return d.calls
}

func (d *detector) point(imo overwatch.IMO, p *vessel.TrackPoint) {
	slug := d.ports.PortAt(p.Lat, p.Lon)
	if d.cur != nil && slug != d.cur.Port {
		d.finish(p, true)
	}
	if slug == "" {
		if p.Destination != "" {
			d.dest = p.Destination
		}
		return
	}
	if d.cur == nil {
		d.start(imo, slug, p)
	}
	c := d.cur
	if d.lastIn != nil && p.TS.Sub(d.lastIn.TS) > InPortGap {
		c.InPortGaps++
		d.gapSeen = true
	}
	c.Positions++
	if c.DraftBefore == 0 && p.Draft > 0 {
		c.DraftBefore = p.Draft
	}
	if p.Draft > 0 {
		c.DraftAfter = p.Draft
	}
	d.zones(p)
	d.lastIn = p
}

// start opens a call at the first position in the area; the arrival is
// the crossing of the area's edge between the last position outside and
// this one, when they are close in time.
func (d *detector) start(imo overwatch.IMO, slug string, p *vessel.TrackPoint) {
	d.port = d.bySlug[slug]
	c := &Call{IMO: imo, Port: slug, Arrival: p.TS, Declared: d.dest}
	if d.prev != nil && p.TS.Sub(d.prev.TS) <= EdgeGap && d.ports.PortAt(d.prev.Lat, d.prev.Lon) == "" {
		c.EntrySeen = true
		c.Arrival = edgeTime(d.port.Area, d.prev, p)
		if d.prev.Draft > 0 {
			c.DraftBefore = d.prev.Draft
		}
	}
	d.cur, d.lastIn, d.zone, d.stop, d.gapSeen = c, nil, "", false, false
}

// finish closes the current call at the position after it (nil at the end
// of the data); closed false leaves it going on.
func (d *detector) finish(next *vessel.TrackPoint, closed bool) {
	c := d.cur
	d.endZone(d.lastIn)
	if closed {
		dep := d.lastIn.TS
		if next != nil && next.TS.Sub(d.lastIn.TS) <= EdgeGap && d.ports.PortAt(next.Lat, next.Lon) != c.Port {
			c.ExitSeen = true
			dep = edgeTime(d.port.Area, d.lastIn, next)
			if next.Draft > 0 {
				c.DraftAfter = next.Draft
			}
		}
		c.Departure = &dep
	}
	c.Confidence = 1
	if c.AnchorStart != nil || c.BerthStart != nil || d.gapSeen {
		c.Confidence = 2
		if c.EntrySeen || c.ExitSeen {
			c.Confidence = 3
		}
		if c.EntrySeen && c.ExitSeen && (c.AnchorStart != nil || c.BerthStart != nil) {
			c.Confidence = 4
		}
	}
	d.calls = append(d.calls, *c)
	d.cur, d.lastIn, d.zone = nil, nil, ""
}

// zones follows the vessel between the anchorages and berth zones of the
// port, with the entry/exit hysteresis, and records its stops there. A
// stop starts half-way between the last position before it and the first
// in it, and ends half-way between the last in it and the first after
// (when they are close in time): without that, every period would be
// measured short by about one reporting interval.
func (d *detector) zones(p *vessel.TrackPoint) {
	if d.zone != "" {
		z := d.zoneByID(d.zone)
		if geo.DistanceKM(p.Lat, p.Lon, z.Lat, z.Lon) > d.zoneEnd || !stopped(p, d.stop) {
			d.endZone(p)
		}
	}
	if d.zone == "" && stopped(p, false) {
		if z, berth, exit, ok := d.nearestZone(p); ok {
			d.zone, d.zoneEnd, d.berth, d.stop = z.ID, exit, berth, true
			t := p.TS
			if d.prev != nil && p.TS.Sub(d.prev.TS) <= MidwayGap {
				t = Midway(d.prev.TS, p.TS)
			}
			c := d.cur
			if berth {
				if c.BerthStart == nil {
					c.BerthZone, c.BerthStart = z.ID, &t
				}
			} else if c.BerthStart == nil { // waiting happens before berthing
				if c.AnchorStart == nil {
					c.Anchorage, c.AnchorStart = z.ID, &t
				}
			}
		}
	}
	if d.zone != "" {
		t := p.TS
		if d.berth && d.cur.BerthZone == d.zone {
			d.cur.BerthEnd = &t
		} else if !d.berth && d.cur.AnchorStart != nil && d.cur.BerthStart == nil {
			d.cur.AnchorEnd = &t // waiting goes on across the port's anchorages
		}
	}
}

// endZone ends the stop at a zone at p, the first position out of it (or
// the last position of the call, at its end).
func (d *detector) endZone(p *vessel.TrackPoint) {
	if c := d.cur; d.zone != "" && p != nil {
		if d.berth && c.BerthZone == d.zone && c.BerthEnd != nil && p.TS.After(*c.BerthEnd) {
			t := Midway(*c.BerthEnd, p.TS)
			c.BerthEnd = &t
		}
		if !d.berth && c.BerthStart == nil && c.AnchorEnd != nil && p.TS.After(*c.AnchorEnd) {
			t := Midway(*c.AnchorEnd, p.TS)
			c.AnchorEnd = &t
		}
	}
	d.zone, d.stop = "", false
}

// Midway is the time half-way between two positions when they are at
// most MidwayGap apart, else the first.
func Midway(a, b time.Time) time.Time {
	if b.Sub(a) > MidwayGap || b.Before(a) {
		return a
	}
	return a.Add(b.Sub(a) / 2).Truncate(time.Second)
}

// nearestZone is the anchorage or berth zone whose entry threshold the
// point is within, the nearest centre winning, with its exit distance.
func (d *detector) nearestZone(p *vessel.TrackPoint) (seaport.Zone, bool, float64, bool) {
	var best seaport.Zone
	bestD, exit, berth := math.Inf(1), 0.0, false
	for _, a := range d.port.Anchorages {
		dist := geo.DistanceKM(p.Lat, p.Lon, a.Lat, a.Lon)
		if dist <= math.Max(AnchorEntryKM, a.RadiusKM) && dist < bestD {
			best, bestD, exit, berth = a, dist, math.Max(AnchorExitKM, a.RadiusKM+AnchorExitKM-AnchorEntryKM), false
		}
	}
	for _, b := range d.port.Berths {
		dist := geo.DistanceKM(p.Lat, p.Lon, b.Lat, b.Lon)
		entry := math.Min(AnchorEntryKM, b.RadiusKM+BerthEntryKM)
		if dist <= entry && dist < bestD {
			best, bestD, exit, berth = b, dist, entry+BerthExitKM, true
		}
	}
	return best, berth, exit, !math.IsInf(bestD, 1)
}

func (d *detector) zoneByID(id string) seaport.Zone {
	for _, z := range d.port.Anchorages {
		if z.ID == id {
			return z
		}
	}
	for _, z := range d.port.Berths {
		if z.ID == id {
			return z
		}
	}
	return seaport.Zone{}
}

// edgeTime interpolates when the vessel crossed the area's edge between two
// positions, one inside and one outside, by bisection on the straight line.
func edgeTime(area seaport.Zone, a, b *vessel.TrackPoint) time.Time {
	inA := area.Contains(a.Lat, a.Lon)
	lo, hi := 0.0, 1.0
	for i := 0; i < 20; i++ {
		m := (lo + hi) / 2
		lat, lon := a.Lat+m*(b.Lat-a.Lat), a.Lon+m*(b.Lon-a.Lon)
		if area.Contains(lat, lon) == inA {
			lo = m
		} else {
			hi = m
		}
	}
	f := (lo + hi) / 2
	return a.TS.Add(time.Duration(f * float64(b.TS.Sub(a.TS)))).Truncate(time.Second)
}
