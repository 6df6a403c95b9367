package portcall

import (
	"math"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Cargo-estimate constants (IMF PortWatch, Arslanalp, Koepke & Verschuur,
// IMF WP/21/225): the payload is the deadweight less bunkers, stores and
// water; the load factor is the draught change over the vessel's range of
// draughts, from ballast to design. A change under MinDraftChangeM (three
// steps of AIS's 0.1 m resolution) is no cargo operation. When the vessel
// has not reported a draught range of at least MinRangeShare of its
// deepest, its ballast draught is taken as DefaultBallastShare of it.
const (
	PayloadShare        = 0.96
	MinDraftChangeM     = 0.3
	MinRangeShare       = 0.2
	DefaultBallastShare = 0.5
)

// LNGPayloadShare is the payload of an LNG carrier as a share of its
// deadweight: its cargo tanks' volume, not the deadweight, limit what it
// lifts (98.5 % filling at 0.45–0.47 t/m³: a 138,000 m³ Moss carrier of
// about 70,000 t deadweight lifts some 62,000 t, a 266,000 m³ Q-Max of
// about 129,000 t some 120,000 t; 0.87–0.95 of the deadweight). It applies
// at a berth that handles LNG only: only a gas carrier berths there.
const LNGPayloadShare = 0.90

// BallastBandShare is the ballast band: the lowest tenth of a vessel's
// range of draughts. The profile's shallowest draught is the lightest
// ballast condition it ever reported, while the ballast water a vessel
// carries varies from voyage to voyage (weather, trim, the next port's air
// draught), so its usual ballast draught lies above it; measured from the
// lightest, every cargo comes out low. When the light end of a call (the
// arrival draught of a loading, the departure draught of a discharge) lies
// in the band, it is taken as the vessel's empty condition for that cargo:
// the ballast water it held is pumped out as the cargo comes aboard (and
// taken in as it goes ashore). A light end above the band (a vessel that
// arrives part-laden, after a transfer at sea or a first loading port) is
// cargo, and the profile's shallowest stays the reference.
const BallastBandShare = 0.1

// Plausible draughts. AIS codes the static draught in 0.1 m steps up to
// 25.5 m, which means "25.5 m or more" (ITU-R M.1371, message 5): no ship
// afloat draws more than MaxDraughtM (as the draught-mismatch detector of
// maritime/risk holds), so a deeper draught is an entry error, never a
// measurement. Nor does any merchant hull draw more than half its beam:
// beam/draught ratios of cargo ships and tankers lie between about 2.2 and
// 4 (a Panamax bulk carrier 32.2 m / 14.5 m = 2.2, a Capesize 45 m / 18 m
// = 2.5, an LNG carrier 47 m / 12 m = 3.9), so a draught over
// beam/MinBeamDraughtRatio is an error too (a decimal slip, a tank sounding
// typed into the draught field). Such a draught is left out of the design
// draught, and a call whose own draught is one has no cargo estimate.
// An LNG carrier (a vessel at a berth of LNG only) is broader still for its
// draught, its light cargo carried in tanks above the waterline: beam/draught
// 3.5–4.5 (a 174,000 m³ carrier 46.4 m / 11.5 m = 4.0, a Q-Max 53.8 m / 12
// m = 4.5), so beyond beam/GasCarrierMinBeamDraughtRatio its draught is an
// error.
const (
	MaxDraughtM                   = 25.0
	MinBeamDraughtRatio           = 2.0
	GasCarrierMinBeamDraughtRatio = 3.0
)

// PlausibleDraught reports whether a reported draught can be the
// vessel's: positive, at most MaxDraughtM and, when the beam is known, at
// most beam/MinBeamDraughtRatio.
func PlausibleDraught(d float64, v vessel.Profile) bool {
	return plausible(d, v, MinBeamDraughtRatio)
}

func plausible(d float64, v vessel.Profile, ratio float64) bool {
	return d > 0 && d <= MaxDraughtM && (v.BeamM <= 0 || d <= v.BeamM/ratio)
}

// Cargo quality of a call's estimate.
const (
	CargoMeasured  = "measured"        // draught before and after, and the vessel's own draught range
	CargoAssumed   = "estimated_range" // draught before and after; the ballast draught assumed
	CargoNoDraught = "none"            // no draught on arrival or departure
)

// Operations of a call, from the draught change.
const (
	OpLoad      = "load"
	OpDischarge = "discharge"
	OpNone      = "none"    // the draught did not change
	OpUnknown   = "unknown" // no draught data
)

// EstimateCargo fills the call's operation, cargo (tonnes), cargo quality
// and deadweight estimate from its draughts and the vessel's profile. The
// design draught is the deepest plausible one (PlausibleDraught; at a
// berth of LNG only, within beam/GasCarrierMinBeamDraughtRatio) of the
// profile and the call; when the profile's deepest is implausible, the
// call's own deepest stands for it and the quality is CargoAssumed. The
// payload is PayloadShare of the deadweight, LNGPayloadShare at a berth of
// LNG only.
func EstimateCargo(c *Call, v vessel.Profile) {
	c.Operation, c.CargoTonnes, c.CargoQuality, c.DWTEstimate = OpUnknown, 0, CargoNoDraught, 0
	before, after := c.DraftBefore, c.DraftAfter
	ratio, lng := MinBeamDraughtRatio, lngBerth(c)
	if lng {
		ratio = GasCarrierMinBeamDraughtRatio
	}
	if !plausible(before, v, ratio) {
		before = 0
	}
	if !plausible(after, v, ratio) {
		after = 0
	}
	design, known := 0.0, plausible(v.MaxDraftM, v, ratio)
	if known {
		design = v.MaxDraftM
	}
	design = math.Max(design, math.Max(before, after))
	limited := !lng && limitedTanker(c, v, design)
	if limited {
		design = v.BeamM / TankerBeamDraughtRatio
	}
	if dwt, ok := vessel.EstimateDWT(v.ShipType, v.LengthM, v.BeamM, design); ok {
		c.DWTEstimate = dwt
	}
	if before <= 0 || after <= 0 || c.DWTEstimate <= 0 {
		return
	}
	ballast, quality := v.MinDraftM, CargoMeasured
	if ballast <= 0 || design-ballast < MinRangeShare*design {
		ballast, quality = DefaultBallastShare*design, CargoAssumed
	}
	if !known || limited {
		quality = CargoAssumed
	}
	if light := math.Min(before, after); light > ballast && light-ballast <= BallastBandShare*(design-ballast) {
		ballast = light // this call's own ballast condition
	}
	c.CargoQuality = quality
	delta := after - before
	if math.Abs(delta) < MinDraftChangeM-1e-9 {
		c.Operation = OpNone
		return
	}
	c.Operation = OpLoad
	if delta < 0 {
		c.Operation = OpDischarge
	}
	payload := PayloadShare * c.DWTEstimate
	if lng {
		payload = LNGPayloadShare * c.DWTEstimate
	}
	c.CargoTonnes = math.Round(math.Min(payload, payload*math.Abs(delta)/(design-ballast)))
}

// TankerBeamDraughtRatio is a tanker's usual beam over its design
// draught: an Aframax 42 m / 14.9 m = 2.8, a Suezmax 48 m / 17 m = 2.8, a
// VLCC 60 m / 22 m = 2.7, an MR 32.2 m / 12.2 m = 2.6.
const TankerBeamDraughtRatio = 2.8

// DraughtLimitMarginM is how close to a port's maximum draught a
// vessel's deepest draught must be for the port's limit to be what it
// shows.
const DraughtLimitMarginM = 0.3

// limitedTanker reports whether a tanker's deepest draught (design) is
// only the limit of the terminal it loads at: within DraughtLimitMarginM
// of the port's maximum draught (seaport.Port.MaxDraftM), while
// its beam would carry a design draught (beam / TankerBeamDraughtRatio)
// deeper than that. A tanker that only ever loads at draught-limited
// terminals (Ras Laffan, Bonny, Novorossiysk for a Suezmax) never
// reports its design draught; taking the deepest it reported for it
// makes its deadweight too small and its range of draughts too short,
// and every cargo about a seventh too large. Its design draught is then
// estimated from its beam. Ship type 84 (hazardous category D), which
// gas carriers often report, is left out: a gas carrier is beamier for its
// draught (beam/draught 3.5–4.5), and the beam would give it a far too
// deep design draught.
func limitedTanker(c *Call, v vessel.Profile, design float64) bool {
	if v.ShipType < 80 || v.ShipType > 89 || v.ShipType == 84 || !(v.BeamM > 0) || design <= 0 {
		return false
	}
	p, ok := seaport.BySlug(c.Port)
	if !ok || p.MaxDraftM <= 0 || math.Abs(design-p.MaxDraftM) > DraughtLimitMarginM {
		return false
	}
	return v.BeamM/TankerBeamDraughtRatio > design && plausible(v.BeamM/TankerBeamDraughtRatio, v, MinBeamDraughtRatio)
}

// lngBerth reports whether the call berthed at a zone that handles LNG
// only.
func lngBerth(c *Call) bool {
	if c.BerthZone == "" {
		return false
	}
	p, ok := seaport.BySlug(c.Port)
	if !ok {
		return false
	}
	for _, z := range p.Berths {
		if z.ID == c.BerthZone {
			return len(z.Cargo) == 1 && z.Cargo[0] == overwatch.CommodityLNG
		}
	}
	return false
}
