package voyage

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"overwatch/maritime/emissions"
	"overwatch/maritime/geo"
	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/sealane"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"

	"overwatch"
)

// Voyage building: a voyage is the leg between two consecutive
// published port calls of a vessel, from the departure of the first to the
// arrival of the second. Its model inputs come from the two calls and from
// the AIS track between them.
const (
	// MaxVoyage is the longest leg kept: two calls further apart are not
	// one voyage (the vessel was out of our ports, or out of coverage).
	MaxVoyage = 60 * 24 * time.Hour
	// CoverageGap is the longest interval between two positions that still
	// counts as covered by the track (and whose distance is taken along
	// the great circle between them).
	CoverageGap = 2 * time.Hour
	// MaxTrackKnots is the fastest plausible speed between two positions;
	// faster jumps (spoofing, a wrong position) are left out of the
	// distance.
	MaxTrackKnots = 40.0
	// ManoeuvringKnots: a vessel slower than this (and not stopped) is
	// manoeuvring; stopped (under StopKnots) it counts as at anchor.
	ManoeuvringKnots = 3.0
	// SpeedBandKnots is the width of the speed bands of the profile.
	SpeedBandKnots = 1.0
)

// Voyage is one leg with its model inputs; ID is stable across runs while
// the departure call stays the same ("<imo>-<departure unix seconds>").
type Voyage struct {
	ID    string
	Input emissions.VoyageInput
}

// Record is a voyage with its computed emissions, as the emissions
// job writes it.
type Record struct {
	ID     string
	Input  emissions.VoyageInput
	Result emissions.Voyage
}

// ID is the ID of the voyage of imo that departed at dep.
func ID(imo overwatch.IMO, dep time.Time) string {
	return fmt.Sprintf("%07d-%d", imo, dep.Unix())
}

// Build returns the voyages of one vessel: one per pair of
// consecutive published calls (calls in arrival order) whose first has
// departed and whose second arrived after that and within MaxVoyage.
// track is the vessel's positions in time order covering the legs (it
// may be nil: the legs then have no AIS distance). Port phases are
// assigned once each: a leg carries its departure call's berth hours and
// its arrival call's anchor hours.
func Build(imo overwatch.IMO, calls []portcall.Call, track []vessel.TrackPoint, v vessel.Profile) []Voyage {
	var pub []*portcall.Call
	for i := range calls {
		if calls[i].Published() {
			pub = append(pub, &calls[i])
		}
	}
	slices.SortFunc(pub, func(a, b *portcall.Call) int { return a.Arrival.Compare(b.Arrival) })
	var out []Voyage
	for i := 0; i+1 < len(pub); i++ {
		a, b := pub[i], pub[i+1]
		if a.Departure == nil || !b.Arrival.After(*a.Departure) || b.Arrival.Sub(*a.Departure) > MaxVoyage {
			continue
		}
		out = append(out, Voyage{ID: ID(imo, *a.Departure), Input: voyageInput(imo, a, b, track, v)})
	}
	return out
}

// voyageInput fills the model's inputs of the leg from a to b.
func voyageInput(imo overwatch.IMO, a, b *portcall.Call, track []vessel.TrackPoint, v vessel.Profile) emissions.VoyageInput {
	dep, arr := a.Departure.UTC(), b.Arrival.UTC()
	in := emissions.VoyageInput{
		IMO: imo, Name: cmp.Or(a.Name, b.Name, v.Name), ShipType: v.ShipType,
		From: a.Port, To: b.Port, Departure: dep, Arrival: arr,
		LengthM: v.LengthM, BeamM: v.BeamM, DesignDraughtM: v.MaxDraftM,
	}
	if in.ShipType == 0 {
		in.ShipType = a.ShipType
	}
	cargoFromCalls(&in, a, b)
	in.Commodity = commodityOf(a, b, in.ShipType, in.Ballast)
	in.Class = classOf(in.ShipType, in.Commodity)
	if a.Port != b.Port {
		if d, err := sealane.DistanceNM(a.Port, b.Port); err == nil {
			in.SeaLaneDistanceNM = roundTo(d, 1)
		}
	}
	if a.BerthStart != nil && a.BerthEnd != nil {
		in.HoursAtBerth = roundTo(a.BerthEnd.Sub(*a.BerthStart).Hours(), 2)
	}
	in.HoursAtAnchor = roundTo(b.WaitHours(), 2)
	trackInputs(&in, legOf(track, dep, arr))
	if in.DraughtM == 0 {
		in.DraughtM = a.DraftAfter
	}
	return in
}

// cargoFromCalls sets the leg's cargo from the port-call estimates: what
// the departure call loaded, else what the arrival call discharged; a leg
// that leaves a discharge without loading is in ballast; otherwise the
// cargo is unknown (the model assumes a share of the deadweight).
func cargoFromCalls(in *emissions.VoyageInput, a, b *portcall.Call) {
	switch {
	case a.Operation == portcall.OpLoad && a.CargoTonnes > 0:
		in.CargoTonnes, in.CargoQuality = a.CargoTonnes, CargoQuality(a.CargoQuality)
	case b.Operation == portcall.OpDischarge && b.CargoTonnes > 0:
		in.CargoTonnes, in.CargoQuality = b.CargoTonnes, CargoQuality(b.CargoQuality)
	case a.Operation == portcall.OpDischarge:
		in.Ballast = true
	}
}

// CargoQuality maps a port call's cargo-estimate quality onto the
// emissions model's.
func CargoQuality(q string) emissions.CargoQuality {
	switch q {
	case portcall.CargoMeasured:
		return emissions.CargoHigh
	case portcall.CargoAssumed:
		return emissions.CargoMedium
	}
	return emissions.CargoLow
}

// tankerCargo lists the commodities tankers carry; other vessels carry the rest.
var tankerCargo = map[string]bool{overwatch.CommodityLNG: true, overwatch.CommodityCrude: true, overwatch.CommodityProducts: true}

// commodityOf is the commodity of a laden leg: the first commodity of the
// loading berth (or, without one, of the loading port) that the vessel's
// kind carries; the loading call is the departure one, or the arrival one
// when the cargo is known only from its discharge. "" when unknown or in
// ballast.
func commodityOf(a, b *portcall.Call, shipType uint8, ballast bool) string {
	if ballast {
		return ""
	}
	c, zone := a, a.BerthZone
	if a.Operation != portcall.OpLoad && b.Operation == portcall.OpDischarge {
		c, zone = b, b.BerthZone
	}
	p, ok := seaport.BySlug(c.Port)
	if !ok {
		return ""
	}
	tanker := shipType >= 80 && shipType <= 89
	pick := func(list []string) string {
		for _, x := range list {
			if tankerCargo[x] == tanker {
				return x
			}
		}
		return ""
	}
	for _, z := range p.Berths {
		if z.ID == zone {
			if x := pick(z.Cargo); x != "" {
				return x
			}
		}
	}
	return pick(p.Commodities)
}

// classOf is the model's vessel class from the AIS type, refined by the
// commodity (an LNG cargo is an LNG carrier, containers a container ship).
func classOf(shipType uint8, commodity string) emissions.VesselClass {
	switch commodity {
	case overwatch.CommodityLNG:
		return emissions.ClassLNGCarrier
	case overwatch.CommodityContainers:
		return emissions.ClassContainer
	}
	return emissions.VesselClassOf(shipType)
}

// legOf returns the positions of track in [from, to].
func legOf(track []vessel.TrackPoint, from, to time.Time) []vessel.TrackPoint {
	i, _ := slices.BinarySearchFunc(track, from, func(p vessel.TrackPoint, t time.Time) int { return p.TS.Compare(t) })
	j, found := slices.BinarySearchFunc(track, to, func(p vessel.TrackPoint, t time.Time) int { return p.TS.Compare(t) })
	if found {
		j++
	}
	if i >= j {
		return nil
	}
	return track[i:j]
}

// trackInputs sets the AIS-measured inputs of the leg from its positions:
// the distance along the track (intervals up to CoverageGap, jumps faster
// than MaxTrackKnots left out), the share of the leg the track covers, the
// speed profile and hours at sea, the hours manoeuvring and stopped at sea
// (added to the anchor hours), and the median reported draught.
func trackInputs(in *emissions.VoyageInput, leg []vessel.TrackPoint) {
	span := in.Arrival.Sub(in.Departure).Hours()
	if span <= 0 || len(leg) == 0 {
		return
	}
	var covered, distNM, seaHours, seaNM, manoeuvring, stopped float64
	bands := map[float64]float64{}
	var drafts []float64
	for i, p := range leg {
		if p.Draft > 0 {
			drafts = append(drafts, p.Draft)
		}
		if i == 0 {
			continue
		}
		q := leg[i-1]
		h := p.TS.Sub(q.TS).Hours()
		if h <= 0 || h > CoverageGap.Hours() {
			continue
		}
		nm := geo.DistanceKM(q.Lat, q.Lon, p.Lat, p.Lon) / 1.852
		kn := nm / h
		if kn > MaxTrackKnots {
			continue
		}
		covered += h
		distNM += nm
		if sog := meanSOG(q.SOG, p.SOG); !math.IsNaN(sog) && math.Abs(sog-kn) < 5 {
			kn = sog // the reported speed, unless the positions disagree with it
		}
		switch {
		case kn < portcall.StopKnots:
			stopped += h
		case kn < ManoeuvringKnots:
			manoeuvring += h
		default:
			seaHours += h
			seaNM += nm
			bands[math.Floor(kn/SpeedBandKnots)*SpeedBandKnots+SpeedBandKnots/2] += h
		}
	}
	in.TrackDistanceNM = roundTo(distNM, 1)
	in.TrackCoverage = roundTo(min(1, covered/span), 4)
	in.HoursManoeuvring = roundTo(manoeuvring, 2)
	in.HoursAtAnchor = roundTo(in.HoursAtAnchor+stopped, 2)
	if seaHours > 0 {
		in.HoursAtSea = roundTo(seaHours, 2)
		in.MeanSpeedKnots = roundTo(seaNM/seaHours, 2)
		keys := make([]float64, 0, len(bands))
		for k := range bands {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			in.SpeedBands = append(in.SpeedBands, emissions.SpeedBand{Knots: k, Hours: roundTo(bands[k], 3)})
		}
	}
	if len(drafts) > 0 {
		in.DraughtM = portstats.Quantile(drafts, 0.5)
	}
}

// meanSOG is the mean of two reported speeds, NaN when either is missing.
func meanSOG(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return (a + b) / 2
}

func roundTo(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}
