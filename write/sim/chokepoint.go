package sim

import (
	"slices"
	"time"

	"overwatch"
	"overwatch/maritime/chokepoint"
	"overwatch/maritime/geo"
	"overwatch/maritime/sealane"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Disruption is an injected chokepoint disruption: from Start, the legs
// whose route would pass the chokepoint (by its gate, at the time the
// vessel would reach it) go round it instead, by the shortest sea route
// that avoids its sea-lane passages (for Suez and Bab el-Mandeb also the
// Panama Canal, so that the diverted traffic goes round the Cape of Good
// Hope, as the Red Sea diversions of 2024 did). A leg with no way round
// keeps its route. Zero Chokepoint: off.
type Disruption struct {
	Chokepoint string    // a chokepoint slug (maritime/chokepoint)
	Start      time.Time // zero: DisruptionLead before the end of the run
}

// DisruptionLead is how long before the end of the run an injected
// disruption starts when its start is not given: enough for the signals'
// 7-day window to lie after it whole.
const DisruptionLead = 14 * 24 * time.Hour

// disruptionStart is when the disruption starts.
func (p *Planner) disruptionStart() time.Time {
	d := p.cfg.Disruption
	if !d.Start.IsZero() {
		return d.Start
	}
	end := p.cfg.Trade.End
	if end.IsZero() {
		end = p.cfg.Start.Add(30 * 24 * time.Hour)
	}
	return end.Add(-DisruptionLead).UTC().Truncate(24 * time.Hour)
}

// writeDisruptionTruth writes the disruption's truth line (type
// chokepoint_disruption): its chokepoint, start, the alternative the
// diverted traffic takes and the chokepoints whose traffic it takes away.
func (p *Planner) writeDisruptionTruth() {
	c, ok := chokepoint.Named(p.cfg.Disruption.Chokepoint)
	if !ok {
		return
	}
	affected, gaining := p.disruptionEffects(c)
	p.truth.write(Truth{Type: "chokepoint_disruption", Vessels: []overwatch.IMO{}, Start: tp(p.disruptionStart()),
		Detail: map[string]any{"chokepoint": c.Slug, "name": c.Name, "alternative": c.Alternative, "affected": affected, "gaining": gaining}})
}

// disruptionEffects are the chokepoints whose traffic the closure takes
// away (the closed one, and those that a route between two reference
// ports passed and its way round does not) and those it adds traffic to
// (passed by a way round and not by the usual route).
func (p *Planner) disruptionEffects(c chokepoint.Chokepoint) (affected, gaining []string) {
	affected = []string{c.Slug}
	passes := func(via []string, x chokepoint.Chokepoint) bool {
		for _, l := range x.Lanes {
			if slices.Contains(via, l) {
				return true
			}
		}
		return false
	}
	ports := seaport.All()
	for _, a := range ports {
		for _, b := range ports {
			r, err := p.routes.get(a.Slug, b.Slug)
			if a.Slug == b.Slug || err != nil || !passes(r.Via, c) {
				continue
			}
			alt, err := p.routes.around(a.Slug, b.Slug, p.avoidOf(c))
			if err != nil {
				continue
			}
			for _, x := range chokepoint.All() {
				switch {
				case passes(r.Via, x) && !passes(alt.Via, x) && !slices.Contains(affected, x.Slug):
					affected = append(affected, x.Slug)
				case !passes(r.Via, x) && passes(alt.Via, x) && !slices.Contains(gaining, x.Slug):
					gaining = append(gaining, x.Slug)
				}
			}
		}
	}
	return affected, gaining
}

// avoidOf are the sea-lane passages the diverted legs avoid.
func (p *Planner) avoidOf(c chokepoint.Chokepoint) []string {
	avoid := slices.Clone(c.Lanes)
	if c.Alternative == chokepoint.CapeGoodHope {
		avoid = append(avoid, "Panama Canal")
	}
	return avoid
}

// legRoute is the sea route of a leg departing at depart at speed knots:
// the usual one, or, when the disruption is on and the vessel would pass
// its chokepoint after it starts, the way round.
func (p *Planner) legRoute(from, to string, depart time.Time, knots float64) (sealane.Route, error) {
	route, err := p.routes.get(from, to)
	c, ok := chokepoint.Named(p.cfg.Disruption.Chokepoint)
	if err != nil || !ok || knots <= 0 {
		return route, err
	}
	track := make([]vessel.TrackPoint, len(route.Points))
	var km float64
	for i, pt := range route.Points {
		if i > 0 {
			q := route.Points[i-1]
			km += geo.DistanceKM(q[0], q[1], pt[0], pt[1])
		}
		track[i] = vessel.TrackPoint{TS: depart.Add(sailTime(km, knots)), Lat: pt[0], Lon: pt[1]}
	}
	ts := chokepoint.Transits(0, 0, track, []chokepoint.Chokepoint{c})
	if len(ts) == 0 || ts[0].At.Before(p.disruptionStart()) {
		return route, nil
	}
	around, err := p.routes.around(from, to, p.avoidOf(c))
	if err != nil {
		return route, nil // no way round: the leg keeps its route
	}
	return around, nil
}

// around is the cached route between two ports that avoids the passages.
func (c *routeCache) around(from, to string, avoid []string) (sealane.Route, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := [2]string{from, to + "\x00avoid"}
	if r, ok := c.routes[k]; ok {
		if len(r.Points) == 0 {
			return r, errNoWayRound
		}
		return r, nil
	}
	r, err := sealane.BetweenAvoiding(from, to, avoid)
	if err != nil {
		c.routes[k] = sealane.Route{}
		return r, errNoWayRound
	}
	c.routes[k] = r
	return r, nil
}

type simError string

func (e simError) Error() string { return string(e) }

const errNoWayRound = simError("sim: no way round the closed chokepoint")
