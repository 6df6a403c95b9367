package trade

import (
	"math"
	"sort"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"
)

// MaxTransitDays is the longest a loading call may wait for its
// discharging call: a discharge later than this after the departure from
// the loading port is not the same voyage (the vessel's track was lost,
// or it lay idle).
const MaxTransitDays = 70

// Unknown is the commodity of a voyage whose loading berth and port name
// none the vessel carries.
const Unknown = "unknown"

// Declaration is a destination a vessel declared in AIS: its text, when it
// was first and last seen (within the voyage), and the port it names
// (seaport.OfDestination; "" when it names none of the reference ports).
type Declaration struct {
	Text        string
	Port        string
	First, Last time.Time
}

// Voyage is a completed laden voyage: a published loading call (its
// cargo estimate is the voyage's tonnes) and the vessel's next published
// discharging call at another port, within MaxTransitDays.
type Voyage struct {
	IMO                 overwatch.IMO
	Name                string
	Origin, Destination string // port slugs
	Departure, Arrival  time.Time
	TransitDays         float64
	Tonnes              float64
	Commodity           string
	// Declared is the destination declared on the way into the discharging
	// port (port_calls.declared), DeclaredPort the port it names.
	Declared, DeclaredPort string
	// EnRoute is what the calls' own records say was declared during the
	// voyage: the destination declared on the way into each call between
	// the two (a bunkering stop, a canal) and into the discharging port, in
	// time order. The deceptions use it when no position history reaches
	// the voyage.
	EnRoute []Declaration
	// Via are the ports of the calls between the two, in time order.
	Via []string
	// LateDraught marks a voyage one of whose ends showed no draught change
	// (operation none or unknown) because its crew updated the AIS draught
	// only at sea: a loading, whose cargo the draught on arrival at the
	// discharging port is the first to show (the tonnes are then the
	// discharging call's estimate: lateDraughtVoyage), or a discharge, after
	// which the vessel arrives at its next call that much lighter
	// (lateDischarge).
	LateDraught bool
	// Liner marks a container liner's voyage (func Liner): its calls load and
	// discharge at every port, so a loading call paired with a later
	// discharge is no origin→destination trade; deceptions and shifts
	// leave such voyages out, and its commodity is containers (also when
	// it loaded at a berth of bulk cargoes too).
	Liner bool
}

// Week is the ISO week (its Monday) of the voyage's departure.
func (v *Voyage) Week() time.Time { return portstats.Monday(v.Departure) }

// BuildVoyages pairs, vessel by vessel, each published loading call that
// has departed with the vessel's next published discharging call at
// another port that has departed too (so that its operation is final),
// arriving within MaxTransitDays of the departure. Calls in between (a
// bunkering stop, a second loading port) do not end the voyage; a second
// loading call starts a voyage of its own. A call that showed no
// draught change because the crew updated the draught only at sea can
// be either end (Voyage.LateDraught: lateDraughtVoyage, lateDischarge).
// Voyages come out by vessel, then departure.
func BuildVoyages(calls []portcall.Call) []Voyage {
	by := map[overwatch.IMO][]*portcall.Call{}
	var imos []overwatch.IMO
	for i := range calls {
		c := &calls[i]
		if !c.Published() {
			continue
		}
		if _, ok := by[c.IMO]; !ok {
			imos = append(imos, c.IMO)
		}
		by[c.IMO] = append(by[c.IMO], c)
	}
	sort.Slice(imos, func(i, j int) bool { return imos[i] < imos[j] })
	var out []Voyage
	for _, imo := range imos {
		cs := by[imo]
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Arrival.Before(cs[j].Arrival) })
		liner := Liner(cs)
		var own []Voyage
		ended := map[time.Time]bool{} // the arrivals of the discharging calls that end a voyage
		for i, load := range cs {
			if load.Operation != portcall.OpLoad || load.Departure == nil {
				continue
			}
			if v, ok := voyageFrom(load, cs[i+1:]); ok {
				own = append(own, v)
				ended[v.Arrival] = true
			}
		}
		for i := 1; i < len(cs); i++ {
			if d := cs[i]; !ended[d.Arrival] {
				if v, ok := lateDraughtVoyage(cs[i-1], d); ok {
					own = append(own, v)
				}
			}
		}
		sort.SliceStable(own, func(i, j int) bool { return own[i].Departure.Before(own[j].Departure) })
		for _, v := range own {
			v.Liner = liner || v.Commodity == overwatch.CommodityContainers
			if v.Liner {
				v.Commodity = overwatch.CommodityContainers // a liner carries containers, also from a mixed berth
			}
			out = append(out, v)
		}
	}
	return out
}

// lateDraughtVoyage is the voyage of a discharging call that no loading
// call pairs with, when the vessel's previous call, at another port and
// within MaxTransitDays, showed no draught change (operation none or
// unknown) while the draught on arrival for the discharge is at least
// portcall.MinDraftChangeM deeper than on the departure from it: the
// cargo was loaded there and the draught updated at sea (a vessel's
// draught does not rise under way). The tonnes are the discharge's
// estimate, the commodity the loading berth's.
func lateDraughtVoyage(prev, d *portcall.Call) (Voyage, bool) {
	if d.Operation != portcall.OpDischarge || d.Departure == nil || prev.Departure == nil || prev.Port == d.Port ||
		(prev.Operation != portcall.OpNone && prev.Operation != portcall.OpUnknown) ||
		d.Arrival.Sub(*prev.Departure) > MaxTransitDays*24*time.Hour || d.Arrival.Before(*prev.Departure) ||
		!(prev.DraftAfter > 0) || d.DraftBefore-prev.DraftAfter < portcall.MinDraftChangeM-1e-9 || !(d.CargoTonnes > 0) {
		return Voyage{}, false
	}
	dep := *prev.Departure
	load := *prev
	load.CargoTonnes, load.Operation = d.CargoTonnes, portcall.OpLoad
	v := Voyage{
		IMO: d.IMO, Name: d.Name, Origin: prev.Port, Destination: d.Port,
		Departure: dep, Arrival: d.Arrival, TransitDays: d.Arrival.Sub(dep).Hours() / 24,
		Tonnes: d.CargoTonnes, Commodity: CommodityOf(&load), Declared: d.Declared, DeclaredPort: declaredPort(d), LateDraught: true,
	}
	if d.Declared != "" {
		v.EnRoute = []Declaration{{Text: d.Declared, Port: v.DeclaredPort, First: d.Arrival, Last: d.Arrival}}
	}
	return v, true
}

// Liner reports whether a vessel's calls are a container liner's: a
// vessel that is not a tanker (AIS types 80–89) and berths at a terminal
// that handles containers only. (A bulk carrier never berths there; a
// liner also calls at mixed terminals, where the berth alone does not
// tell.)
func Liner(calls []*portcall.Call) bool {
	for _, c := range calls {
		if c.ShipType >= 80 && c.ShipType <= 89 {
			return false
		}
	}
	for _, c := range calls {
		p, ok := seaport.BySlug(c.Port)
		if !ok {
			continue
		}
		for _, z := range p.Berths {
			if z.ID == c.BerthZone && len(z.Cargo) == 1 && z.Cargo[0] == overwatch.CommodityContainers {
				return true
			}
		}
	}
	return false
}

// voyageFrom finds the discharging call that ends the voyage of load among
// the vessel's later calls.
func voyageFrom(load *portcall.Call, later []*portcall.Call) (Voyage, bool) {
	dep := *load.Departure
	limit := dep.Add(MaxTransitDays * 24 * time.Hour)
	var enRoute []Declaration
	var via []string
	for j, c := range later {
		if c.Arrival.Before(dep) {
			continue
		}
		if c.Arrival.After(limit) {
			return Voyage{}, false
		}
		if c.Declared != "" {
			enRoute = append(enRoute, Declaration{Text: c.Declared, Port: declaredPort(c), First: c.Arrival, Last: c.Arrival})
		}
		late := false
		if c.Operation != portcall.OpDischarge || c.Port == load.Port || c.Departure == nil {
			if late = j+1 < len(later) && lateDischarge(load, c, later[j+1]); !late {
				via = append(via, c.Port)
				continue
			}
		}
		return Voyage{
			IMO: load.IMO, Name: load.Name, Origin: load.Port, Destination: c.Port,
			Departure: dep, Arrival: c.Arrival, TransitDays: c.Arrival.Sub(dep).Hours() / 24,
			Tonnes: load.CargoTonnes, Commodity: CommodityOf(load),
			Declared: c.Declared, DeclaredPort: declaredPort(c), EnRoute: enRoute, Via: via, LateDraught: late,
		}, true
	}
	return Voyage{}, false
}

// lateDischarge reports whether call c, which showed no draught change
// (operation none or unknown), was where the cargo of load went ashore:
// at another port, departed, and the draught on arrival at the vessel's
// next call is lighter than on arrival at c by at least half the loading's
// draught change (and portcall.MinDraftChangeM): the crew updated the
// draught only after leaving. Half the loading's change is far more than
// the fuel a voyage burns, so a bunkering or canal stop is never taken for
// the discharge.
func lateDischarge(load, c, next *portcall.Call) bool {
	if (c.Operation != portcall.OpNone && c.Operation != portcall.OpUnknown) || c.Port == load.Port || c.Departure == nil ||
		!(c.DraftBefore > 0) || !(next.DraftBefore > 0) {
		return false
	}
	need := math.Max(portcall.MinDraftChangeM, 0.5*(load.DraftAfter-load.DraftBefore))
	return c.DraftBefore-next.DraftBefore >= need-1e-9
}

// declaredPort is the port a call's declared destination names: the one
// stored with the call, else the normaliser's.
func declaredPort(c *portcall.Call) string {
	if c.DeclaredPort != "" || c.Declared == "" {
		return c.DeclaredPort
	}
	p, _ := seaport.OfDestination(c.Declared)
	return p
}

// tankerCargo lists the commodities tankers carry; other vessels carry the rest.
var tankerCargo = map[string]bool{overwatch.CommodityLNG: true, overwatch.CommodityCrude: true, overwatch.CommodityProducts: true}

// ProductTankerMaxDWT is the largest product tanker: the AFRA scale's
// LR1 class ends at 80,000 t deadweight; refined products move in MR
// (25,000–55,000 t) and LR1 tankers, crude oil in Aframax (80,000–120,000
// t) and larger ones. (LR2 tankers, of Aframax size, carry both; at a berth
// of both, a tanker of that size is taken for crude.)
const ProductTankerMaxDWT = 80000

// CommodityOf is the commodity loaded by a call: the first commodity of
// its berth zone that the vessel's kind carries (tankers: LNG, crude oil,
// refined products; other vessels the rest), else the first of the port's
// commodities that it carries, else Unknown. Where both crude oil and
// refined products are listed, a tanker's deadweight estimate chooses
// (ProductTankerMaxDWT; crude oil when unknown). A vessel of unknown type
// (ship type 0) is taken as a dry-bulk carrier.
func CommodityOf(c *portcall.Call) string {
	p, ok := seaport.BySlug(c.Port)
	if !ok {
		return Unknown
	}
	tanker := c.ShipType >= 80 && c.ShipType <= 89
	products := tanker && c.DWTEstimate > 0 && c.DWTEstimate < ProductTankerMaxDWT
	pick := func(list []string) string {
		first := ""
		for _, x := range list {
			if tankerCargo[x] != tanker {
				continue
			}
			if first == "" {
				first = x
			}
			if products && x == overwatch.CommodityProducts {
				return x
			}
		}
		if first == overwatch.CommodityProducts && tanker && c.DWTEstimate >= ProductTankerMaxDWT {
			for _, x := range list {
				if x == overwatch.CommodityCrude {
					return x
				}
			}
		}
		return first
	}
	for _, z := range p.Berths {
		if z.ID == c.BerthZone {
			if x := pick(z.Cargo); x != "" {
				return x
			}
		}
	}
	if x := pick(p.Commodities); x != "" {
		return x
	}
	return Unknown
}
