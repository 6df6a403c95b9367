package portstats

import (
	"sort"
	"time"

	"overwatch"
	"overwatch/maritime/portcall"
)

// Reliability is a row of destination_reliability: of a vessel's published
// calls, how many it had declared beforehand in its AIS destination.
type Reliability struct {
	IMO        overwatch.IMO
	Name, Flag string
	ShipType   uint8
	Category   string
	Calls      int // its published calls
	Declared   int // the sample: completed calls with a destination declared on the way in
	Matched    int // of those, the calls whose declared destination named the port reached
	Share      float64
	Tier       string
	LastCall   time.Time
}

// Reliability tiers by the share of calls matched.
const (
	TierReliable   = "reliable"   // share ≥ 0.8
	TierModerate   = "moderate"   // share ≥ 0.5
	TierUnreliable = "unreliable" // below
)

// TierOf is the tier of a share of matched calls.
func TierOf(share float64) string {
	switch {
	case share >= 0.8:
		return TierReliable
	case share >= 0.5:
		return TierModerate
	}
	return TierUnreliable
}

// DestinationReliability computes each vessel's reliability over the calls
// (its whole history): the share of its declared and completed calls whose
// destination, declared before arrival and normalised by
// seaport.OfDestination, is the port reached. Destinations that name no
// port (FOR ORDERS, an unknown place) count as not matched; a call with no
// destination seen on the way in (one already under way when the data
// begins, or whose vessel declared none) and a call still going on are not
// judged. A vessel without a judged call has no row.
func DestinationReliability(calls []portcall.Call) []Reliability {
	by := map[overwatch.IMO]*Reliability{}
	for i := range calls {
		c := &calls[i]
		if !c.Published() {
			continue
		}
		r := by[c.IMO]
		if r == nil {
			r = &Reliability{IMO: c.IMO}
			by[c.IMO] = r
		}
		if !c.Arrival.Before(r.LastCall) {
			r.LastCall, r.Name, r.Flag, r.ShipType, r.Category = c.Arrival, c.Name, c.Flag, c.ShipType, c.Category
		}
		r.Calls++
		if c.Declared == "" || c.Departure == nil {
			continue
		}
		r.Declared++
		if c.DeclaredPort != "" && c.DeclaredPort == c.Port {
			r.Matched++
		}
	}
	out := make([]Reliability, 0, len(by))
	for _, r := range by {
		if r.Declared == 0 {
			continue
		}
		r.Share = float64(r.Matched) / float64(r.Declared)
		r.Tier = TierOf(r.Share)
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].IMO < out[j].IMO })
	return out
}
