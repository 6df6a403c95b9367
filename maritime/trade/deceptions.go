package trade

import (
	"slices"
	"sort"
	"strings"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
)

// MinNoticeHours is how long before arrival a vessel must have declared
// the port it reached for a change of orders to count as one: a change
// made later is the declared port kept until arrival.
const MinNoticeHours = 6

// Reasons a deception is, or is not, suspicious.
const (
	// ReasonKept: the declared port was kept until arrival elsewhere (or
	// changed to the real one less than MinNoticeHours before arrival).
	ReasonKept = "declared_port_kept_until_arrival"
	// ReasonOtherCountry: the destination changed en route, in time, but
	// to a port in another country than the one declared.
	ReasonOtherCountry = "actual_port_in_another_country"
	// ReasonChangeOfOrders: the destination changed en route, in time, to
	// a port of the same country: an honest change of orders, not flagged.
	ReasonChangeOfOrders = "change_of_orders"
)

// Sources of a deception's destination history.
const (
	SourcePositions = "positions" // the destination field of the position reports
	SourceCalls     = "calls"     // the destinations recorded with the voyage's calls
)

// Deception is a row of route_deceptions: a completed voyage whose
// declared AIS destination named another of the reference ports than the
// one it reached.
type Deception struct {
	IMO                overwatch.IMO
	Name               string
	Origin             string
	Departure, Arrival time.Time
	ActualPort         string
	Declared           string // the text declared
	DeclaredPort       string // the port it names
	DistanceKM         float64
	SameCountry        bool
	DestinationChanges int    // changes of declared destination during the voyage
	ChangesSource      string // SourcePositions or SourceCalls
	// ChangedAt is when the declaration of DeclaredPort gave way to the
	// next one (nil when it was kept until arrival).
	ChangedAt  *time.Time
	Suspicious bool
	Reason     string
}

// Deceptions examines each voyage's declared destinations: history holds,
// per vessel, the destinations seen in its position reports (any order;
// several spans of one text are fine). A voyage with spans of history
// between its departure and arrival uses them (SourcePositions), else the
// destinations recorded with its calls (SourceCalls). A voyage is listed
// when the destination declared on arrival named another reference port
// (suspicious: ReasonKept), or when an earlier declaration did (other than
// a port it called at on the way, which it declared truly) and was
// changed en route: less than MinNoticeHours before arrival it is
// ReasonKept too; otherwise suspicious when the real port is in another
// country (ReasonOtherCountry), not when it is in the same one
// (ReasonChangeOfOrders). Destinations that name no port (FOR ORDERS)
// never make a voyage a deception, nor does a container liner's voyage
// (Voyage.Liner: a liner loads and discharges at every call, so the
// pairing of a loading call with a discharge weeks later is no voyage a
// declaration belongs to). Rows come out by arrival, newest first.
func Deceptions(voyages []Voyage, history map[overwatch.IMO][]Declaration) []Deception {
	var out []Deception
	for i := range voyages {
		if voyages[i].Liner {
			continue
		}
		if d, ok := deception(&voyages[i], history[voyages[i].IMO]); ok {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Arrival.Equal(out[j].Arrival) {
			return out[i].Arrival.After(out[j].Arrival)
		}
		return out[i].IMO < out[j].IMO
	})
	return out
}

// sequence is the voyage's declarations in time order: from the position
// history when some falls within the voyage, else from its calls. A
// declaration of the origin port is left out: it is the previous
// voyage's destination, not yet updated on departure.
func sequence(v *Voyage, history []Declaration) ([]Declaration, string) {
	var seq []Declaration
	for _, h := range history {
		if h.Last.Before(v.Departure) || h.First.After(v.Arrival) || strings.TrimSpace(h.Text) == "" {
			continue
		}
		if h.Port == "" {
			h.Port, _ = seaport.OfDestination(h.Text)
		}
		if h.Port == v.Origin {
			continue // still the last voyage's destination, or the crew's note of where it is
		}
		seq = append(seq, h)
	}
	source := SourcePositions
	if len(seq) == 0 {
		seq, source = slices.Clone(v.EnRoute), SourceCalls
	}
	sort.SliceStable(seq, func(i, j int) bool { return seq[i].First.Before(seq[j].First) })
	return seq, source
}

// destKey is what a change of destination compares: the port named, or
// the text when it names none.
func destKey(d Declaration) string {
	if d.Port != "" {
		return d.Port
	}
	return strings.ToUpper(strings.TrimSpace(d.Text))
}

func deception(v *Voyage, history []Declaration) (Deception, bool) {
	seq, source := sequence(v, history)
	changes := 0
	for i := 1; i < len(seq); i++ {
		if destKey(seq[i]) != destKey(seq[i-1]) {
			changes++
		}
	}
	d := Deception{IMO: v.IMO, Name: v.Name, Origin: v.Origin, Departure: v.Departure, Arrival: v.Arrival, ActualPort: v.Destination,
		DestinationChanges: changes, ChangesSource: source}
	final := Declaration{Text: v.Declared, Port: v.DeclaredPort}
	if final.Text == "" && len(seq) > 0 {
		final = seq[len(seq)-1]
	}
	if final.Port != "" && final.Port != v.Destination {
		d.Declared, d.DeclaredPort, d.Suspicious, d.Reason = final.Text, final.Port, true, ReasonKept
		return d.place(), true
	}
	// The last declaration of another port, and what followed it; a port
	// the vessel called at on the way (a bunkering stop, a canal, a part
	// discharge) was declared truly.
	last := -1
	for i, s := range seq {
		if s.Port != "" && s.Port != v.Destination && !slices.Contains(v.Via, s.Port) {
			last = i
		}
	}
	if last < 0 {
		return Deception{}, false
	}
	d.Declared, d.DeclaredPort = seq[last].Text, seq[last].Port
	// With the position history, the change is when the next declaration
	// was first seen; the calls record a declaration only on the way into
	// a port, so then it is the last time the other port was seen declared.
	changed := seq[last].Last
	if last+1 < len(seq) && source == SourcePositions {
		changed = seq[last+1].First
	}
	d.ChangedAt = &changed
	d = d.place()
	switch {
	case v.Arrival.Sub(changed) < MinNoticeHours*time.Hour:
		d.Suspicious, d.Reason = true, ReasonKept
	case !d.SameCountry:
		d.Suspicious, d.Reason = true, ReasonOtherCountry
	default:
		d.Reason = ReasonChangeOfOrders
	}
	return d, true
}

// place fills the distance between the declared and the actual port and
// whether they are in the same country.
func (d Deception) place() Deception {
	a, okA := seaport.BySlug(d.DeclaredPort)
	b, okB := seaport.BySlug(d.ActualPort)
	if okA && okB {
		d.DistanceKM = geo.DistanceKM(a.Lat, a.Lon, b.Lat, b.Lon)
		d.SameCountry = a.Country == b.Country
	}
	return d
}
