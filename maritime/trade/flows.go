package trade

import (
	"sort"
	"time"

	"overwatch"

	"overwatch/maritime/portstats"
)

// Flow is a row of route_flows_weekly: the completed voyages of a commodity
// from an origin to a destination that departed in an ISO week.
type Flow struct {
	Week                           time.Time // the Monday of the departures
	Origin, Destination, Commodity string
	Vessels                        int // distinct vessels
	Voyages                        int
	Tonnes                         float64 // the loading calls' cargo estimates
	MedianTransitDays              float64
}

// Flows groups the voyages that departed in the weeks (Mondays) by week,
// origin, destination and commodity. Rows come out by week, origin,
// destination, commodity.
func Flows(voyages []Voyage, weeks []time.Time) []Flow {
	in := map[time.Time]bool{}
	for _, w := range weeks {
		in[w.UTC()] = true
	}
	type key struct {
		week                           time.Time
		origin, destination, commodity string
	}
	type acc struct {
		vessels map[overwatch.IMO]bool
		tonnes  float64
		transit []float64
	}
	groups := map[key]*acc{}
	for i := range voyages {
		v := &voyages[i]
		k := key{v.Week(), v.Origin, v.Destination, v.Commodity}
		if !in[k.week] {
			continue
		}
		a := groups[k]
		if a == nil {
			a = &acc{vessels: map[overwatch.IMO]bool{}}
			groups[k] = a
		}
		a.vessels[v.IMO] = true
		a.tonnes += v.Tonnes
		a.transit = append(a.transit, v.TransitDays)
	}
	out := make([]Flow, 0, len(groups))
	for k, a := range groups {
		out = append(out, Flow{Week: k.week, Origin: k.origin, Destination: k.destination, Commodity: k.commodity,
			Vessels: len(a.vessels), Voyages: len(a.transit), Tonnes: a.tonnes, MedianTransitDays: portstats.Quantile(a.transit, 0.5)})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.Week.Equal(b.Week) {
			return a.Week.Before(b.Week)
		}
		if a.Origin != b.Origin {
			return a.Origin < b.Origin
		}
		if a.Destination != b.Destination {
			return a.Destination < b.Destination
		}
		return a.Commodity < b.Commodity
	})
	return out
}
