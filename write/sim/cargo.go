package sim

import "math"

// capacity is the cargo a vessel lifts at its design draught: the
// deadweight less bunkers, stores and water (4 %).
func (v *Vessel) capacity() float64 {
	if v.class.Name == "lng_carrier" {
		return v.DWT * 0.82 // cargo tanks, not the summer deadweight, limit an LNG carrier
	}
	return v.DWT * 0.96
}

// draftFor is the actual draught with a cargo aboard: from the ballast
// draught at no cargo to the design draught at full capacity, with the slight
// curvature of a hull that widens towards the deck.
func (v *Vessel) draftFor(cargo float64) float64 {
	f := math.Max(0, math.Min(1.02, cargo/v.capacity()))
	return v.BallastDraft() + (v.DesignDraftM-v.BallastDraft())*math.Pow(f, 0.95)
}

// opsTime is how long a vessel lies alongside to move a cargo: at the
// class's rate, plus mooring, surveys and paperwork.
func (v *Vessel) opsHours(tonnes float64, extra float64) float64 {
	return tonnes/v.class.LoadRate*24 + extra
}
