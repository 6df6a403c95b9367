package predict

import (
	"sort"
	"time"

	"overwatch/maritime/seaport"
)

// DeclaredBaseline is the prediction a reader of the raw AIS would make:
// the declared destination, at probability 1, and the ETA as broadcast
// (nil when none was broadcast or it has passed). False when the vessel is
// not under way or declared none of the reference ports (FOR ORDERS).
func DeclaredBaseline(in Input) (NextPort, bool) {
	if !UnderWay(in) {
		return NextPort{}, false
	}
	slug, ok := seaport.OfDestination(in.Declared)
	if !ok {
		return NextPort{}, false
	}
	np := NextPort{Port: slug, Probability: 1}
	if in.DeclaredETA != nil && in.DeclaredETA.After(in.AsOf) {
		np.ETA = *in.DeclaredETA
	}
	return np, true
}

// FrequentBaseline is the vessel's most frequent next port after its last
// port (ties to the most recent), with the ETA from the sea-lane distance
// at its recent speed; zero ETA when the route is unknown. False when the
// vessel is not under way or has never sailed on from its last port.
func FrequentBaseline(in Input) (NextPort, bool) {
	if !UnderWay(in) || len(in.Calls) == 0 {
		return NextPort{}, false
	}
	last := in.Calls[len(in.Calls)-1].Port
	seen := map[string]int{}
	recent := map[string]int{}
	for i := 1; i < len(in.Calls); i++ {
		if in.Calls[i-1].Port == last {
			seen[in.Calls[i].Port]++
			recent[in.Calls[i].Port] = i
		}
	}
	if len(seen) == 0 {
		return NextPort{}, false
	}
	ports := make([]string, 0, len(seen))
	for p := range seen {
		ports = append(ports, p)
	}
	sort.Slice(ports, func(i, j int) bool {
		if seen[ports[i]] != seen[ports[j]] {
			return seen[ports[i]] > seen[ports[j]]
		}
		return recent[ports[i]] > recent[ports[j]]
	})
	np := NextPort{Port: ports[0], Probability: 1}
	pos := in.Track[len(in.Track)-1]
	if l := laneOf(last, np.Port); l != nil {
		along, _ := l.project(pos.Lat, pos.Lon)
		rem := l.entry - along
		if rem < 0 {
			rem = 0
		}
		np.DistanceNM = round(rem, 1)
		np.ETA = pos.TS.Add(hours(rem / recentSpeed(in.Track)))
		if np.ETA.Before(in.AsOf) {
			np.ETA = in.AsOf
		}
		np.ETA = np.ETA.Truncate(time.Minute)
	}
	return np, true
}
