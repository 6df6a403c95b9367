package terminals

import (
	"math"
	"time"
)

// The LNG volume model: a carrier leaves an export terminal loaded, so
// its cargo is capacity (m³) × fill × density. A carrier's capacity is not
// in AIS; it follows from the deadweight the port calls estimate from its
// dimensions (vessel.EstimateDWT with the tanker form coefficients, 0.70 ×
// length × beam × draught): LNGCapacityM3PerDWT cubic metres per tonne of
// that estimate. Real carriers: a 174,000 m³ membrane carrier (295 × 46.4
// × 11.5 m, estimate 110,400 t) 1.58; a 216,000 m³ Q-Flex (315 × 50 × 12
// m, 132,600 t) 1.63; a 266,000 m³ Q-Max (345 × 53.8 × 12 m, 156,200 t)
// 1.70; an older 138,000 m³ Moss carrier (277 × 48.1 × 11.3 m, 105,600 t)
// 1.31. 1.6 is the modern membrane fleet that dominates these terminals.
// LNGFill is the IGC Code's loading limit (98.5 % of the tanks' volume):
// what is aboard as the carrier leaves. LNGDensityTPerM3 is LNG's density
// at its boiling point (0.43–0.47 t/m³ by composition; 0.46 for the rich
// gas of Qatar, Nigeria and the North West Shelf).
const (
	LNGCapacityM3PerDWT = 1.6
	LNGFill             = 0.985
	LNGDensityTPerM3    = 0.46
)

// LNGCapacityM3 is a carrier's cargo capacity estimated from its
// deadweight estimate.
func LNGCapacityM3(dwt float64) float64 { return dwt * LNGCapacityM3PerDWT }

// LNGCargoTonnes is the cargo of a carrier leaving an export terminal:
// capacity × fill × density; 0 without a deadweight.
func LNGCargoTonnes(dwt float64) float64 {
	if !(dwt > 0) || math.IsInf(dwt, 0) {
		return 0
	}
	return math.Round(LNGCapacityM3(dwt) * LNGFill * LNGDensityTPerM3)
}

// Call is a port call at a terminal's port, as the dashboards read it
// from the derived port calls (operation and cargo from the draught change
// and the deadweight estimate, maritime/portcall.EstimateCargo).
type Call struct {
	IMO         uint32
	Port        string
	BerthZone   string
	Category    string // vessel category (maritime/vessel), "" unknown
	Arrival     time.Time
	Departure   *time.Time
	Operation   string // load, discharge, none, unknown
	CargoTonnes float64
	DWTEstimate float64
	// The vessel's latest position (any source), read for open calls
	// only; nil when none is stored.
	Seen             *time.Time
	SeenLat, SeenLon float64
}

// Loaded reports whether the call loaded a cargo: its draught rose
// (operation load), or, at an LNG berth, whatever the draught did when it
// is not a discharge: a gas carrier's draught changes little as it loads
// (its cargo is light) and a carrier at an export jetty leaves loaded.
func (c Call) Loaded(commodity string) bool {
	if commodity == "lng" {
		return c.Operation != "discharge"
	}
	return c.Operation == "load"
}

// VolumeTonnes is the estimated cargo of a loaded departure: the LNG
// model for LNG (falling back to the draught estimate without a
// deadweight), the draught-change estimate from the deadweight for bulk
// (maritime/portcall: payload × draught change / draught range); 0 when
// the call did not load.
func (c Call) VolumeTonnes(commodity string) float64 {
	if !c.Loaded(commodity) {
		return 0
	}
	if commodity == "lng" {
		if v := LNGCargoTonnes(c.DWTEstimate); v > 0 {
			return v
		}
	}
	return math.Max(0, c.CargoTonnes)
}
