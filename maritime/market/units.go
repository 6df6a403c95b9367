package market

import "math"

// The unit codes of Price.Unit and Rate.Unit.
const (
	UnitUSDPerTonne       = "usd_per_tonne"        // US dollars per metric tonne
	UnitUSDPerShortTon    = "usd_per_short_ton"    // US dollars per short ton (2,000 lb)
	UnitUSDPerBarrel      = "usd_per_barrel"       // US dollars per barrel (42 US gallons)
	UnitUSDPerBushel      = "usd_per_bushel"       // US dollars per bushel
	UnitUSDCentsPerBushel = "usd_cents_per_bushel" // US cents per bushel
	UnitUSDPerKg          = "usd_per_kg"           // US dollars per kilogram
	UnitUSDPerDMTU        = "usd_per_dmtu"         // US dollars per dry metric tonne unit (iron ore)
	UnitUSDPerMMBtu       = "usd_per_mmbtu"        // US dollars per million British thermal units
	UnitPctOfTariff       = "pct_of_tariff"        // percent of the 1976 barge benchmark tariff
	UnitUSDPerCar         = "usd_per_car"          // US dollars per railcar
	UnitUSDPerMile        = "usd_per_mile"         // US dollars per truckload-mile
)

// Published conversion factors.
const (
	// PoundKg is the international avoirdupois pound (exact, 1959 agreement).
	PoundKg = 0.45359237
	// ShortTonKg is 2,000 pounds.
	ShortTonKg = 2000 * PoundKg // 907.18474
	// CrudeBarrelsPerTonne is the conventional average barrels of crude oil
	// per metric tonne (the Energy Institute / BP Statistical Review
	// "approximate conversion factors": 1 tonne of crude = 7.33 barrels).
	// It is a convention: a real crude's factor depends on its density
	// (Brent, 38° API, is about 7.5). Documented in docs/market-sources.md.
	CrudeBarrelsPerTonne = 7.33
)

// bushelPounds are the USDA standard bushel weights (pounds per bushel) of
// the grains and oilseeds the sources quote per bushel.
var bushelPounds = map[string]float64{
	"wheat":    60,
	"soybeans": 60,
	"maize":    56,
	"sorghum":  56,
	"barley":   48,
}

// BushelKg returns the published weight of one bushel of commodity (a
// service name: wheat and soybeans 60 lb = 27.2155 kg, maize and sorghum
// 56 lb = 25.4012 kg, barley 48 lb) and false for a commodity with none.
func BushelKg(commodity string) (float64, bool) {
	lb, ok := bushelPounds[commodity]
	return lb * PoundKg, ok
}

// ToUSDPerTonne converts value in unit of commodity to US dollars per
// metric tonne, or NaN when no published conversion exists (per mmBtu,
// per dmtu, percent of tariff, per car, per mile, or a per-bushel price
// of a commodity without a bushel weight).
func ToUSDPerTonne(value float64, unit, commodity string) float64 {
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return math.NaN()
	}
	switch unit {
	case UnitUSDPerTonne:
		return value
	case UnitUSDPerShortTon:
		return value * 1000 / ShortTonKg
	case UnitUSDPerKg:
		return value * 1000
	case UnitUSDPerBushel, UnitUSDCentsPerBushel:
		kg, ok := BushelKg(commodity)
		if !ok {
			return math.NaN()
		}
		if unit == UnitUSDCentsPerBushel {
			value /= 100
		}
		return value * 1000 / kg
	case UnitUSDPerBarrel:
		if commodity == "crude_oil" {
			return value * CrudeBarrelsPerTonne
		}
	}
	return math.NaN()
}
