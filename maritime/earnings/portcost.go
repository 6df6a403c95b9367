package earnings

import "math"

// PortCostUncertainty is the relative uncertainty of the port-cost table:
// disbursements vary by port, agency and cargo far more than by size.
const PortCostUncertainty = 0.30

// PortTariff is a row of the port-cost table: vessels up to MaxDWT pay
// PerCall USD for a call (pilotage, towage, mooring, agency, light and
// canal-less harbour dues) and PerDay USD for each day in port (berth
// hire, tonnage dues, running port services).
type PortTariff struct {
	Size    string
	MaxDWT  float64
	PerCall float64
	PerDay  float64
}

// PortTariffs is the port-cost table by vessel size (docs/earnings.md):
// order-of-magnitude disbursement-account figures for a dry-bulk or
// tanker call, by deadweight. The last row takes every larger vessel; a
// vessel of unknown size pays the supramax row.
var PortTariffs = []PortTariff{
	{Size: "handysize", MaxDWT: 40_000, PerCall: 25_000, PerDay: 4_000},
	{Size: "supramax", MaxDWT: 65_000, PerCall: 35_000, PerDay: 5_000},
	{Size: "panamax", MaxDWT: 100_000, PerCall: 50_000, PerDay: 7_000},
	{Size: "capesize", MaxDWT: 200_000, PerCall: 80_000, PerDay: 10_000},
	{Size: "very_large", MaxDWT: math.Inf(1), PerCall: 120_000, PerDay: 14_000},
}

// TariffOf is the row of the port-cost table for the deadweight.
func TariffOf(dwt float64) PortTariff {
	if dwt <= 0 || math.IsNaN(dwt) {
		return PortTariffs[1]
	}
	for _, t := range PortTariffs {
		if dwt <= t.MaxDWT {
			return t
		}
	}
	return PortTariffs[len(PortTariffs)-1]
}

// PortCost is the cost of one call of days in port, with its bounds.
func PortCost(dwt, days float64) Bounds {
	t := TariffOf(dwt)
	return Spread(t.PerCall+t.PerDay*math.Max(0, days), PortCostUncertainty, PortCostUncertainty)
}
