package portcall

import (
	"math"

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
// and deadweight estimate from its draughts and the vessel's profile.
func EstimateCargo(c *Call, v vessel.Profile) {
	c.Operation, c.CargoTonnes, c.CargoQuality, c.DWTEstimate = OpUnknown, 0, CargoNoDraught, 0
	design := math.Max(v.MaxDraftM, math.Max(c.DraftBefore, c.DraftAfter))
	if dwt, ok := vessel.EstimateDWT(v.ShipType, v.LengthM, v.BeamM, design); ok {
		c.DWTEstimate = dwt
	}
	if c.DraftBefore <= 0 || c.DraftAfter <= 0 || c.DWTEstimate <= 0 {
		return
	}
	ballast, quality := v.MinDraftM, CargoMeasured
	if ballast <= 0 || design-ballast < MinRangeShare*design {
		ballast, quality = DefaultBallastShare*design, CargoAssumed
	}
	c.CargoQuality = quality
	delta := c.DraftAfter - c.DraftBefore
	if math.Abs(delta) < MinDraftChangeM-1e-9 {
		c.Operation = OpNone
		return
	}
	c.Operation = OpLoad
	if delta < 0 {
		c.Operation = OpDischarge
	}
	payload := PayloadShare * c.DWTEstimate
	c.CargoTonnes = math.Round(math.Min(payload, payload*math.Abs(delta)/(design-ballast)))
}
