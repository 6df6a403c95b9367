package vessel

import "overwatch"

// Profile is what the registry knows of a vessel, for the cargo
// estimate and the identity carried on each call.
type Profile struct {
	IMO       overwatch.IMO
	Name      string
	Flag      string
	ShipType  uint8
	LengthM   float64
	BeamM     float64
	MinDraftM float64 // the shallowest draught it has reported (0: none)
	MaxDraftM float64 // the deepest: the estimate of its design draught
	BuildYear int     // 0 when the registry does not know it
}
