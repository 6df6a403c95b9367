package earnings

import (
	"math"
	"time"

	"overwatch"
)

// Bounds is a central estimate with its low and high bounds.
type Bounds struct {
	Low     float64 `json:"low"`
	Central float64 `json:"central"`
	High    float64 `json:"high"`
}

// Spread is a central value with relative low and high deviations
// (0.1: 10 % below or above).
func Spread(central, low, high float64) Bounds {
	return Bounds{Low: central * (1 - low), Central: central, High: central * (1 + high)}
}

// Scale multiplies the bounds by a non-negative factor.
func (b Bounds) Scale(f float64) Bounds { return Bounds{b.Low * f, b.Central * f, b.High * f} }

// Add is the sum of two bounds, bound by bound.
func (b Bounds) Add(o Bounds) Bounds {
	return Bounds{b.Low + o.Low, b.Central + o.Central, b.High + o.High}
}

// Voyage is a completed laden voyage as the pipeline saw it: the loading
// call (its arrival and departure), the discharging call (its arrival and
// departure), the cargo estimate, the vessel's deadweight, the sea-lane
// distance and the fuel the emissions model estimated for the sea passage.
type Voyage struct {
	IMO                      overwatch.IMO
	Name                     string
	Origin, Destination      string // port slugs
	Commodity                string
	LoadArrival, Departure   time.Time // the loading call
	Arrival, DischargeDepart time.Time // the discharging call
	Tonnes                   Bounds    // cargo estimate
	DWT                      float64   // 0: unknown
	DistanceNM               float64
	FuelTonnes               Bounds
	FuelSource               string // "voyage_emissions" or "emissions_model"
}

// Days is a duration in days (0 when negative).
func Days(from, to time.Time) float64 { return math.Max(0, to.Sub(from).Hours()/24) }

// Result is a voyage's earnings: the inputs used, shown beside the result,
// and the TCE in USD per day.
type Result struct {
	Voyage
	VoyageDays float64 // from the arrival at the loading port to the departure from the discharging port
	PortDays   float64 // in the two ports
	SeaDays    float64
	Rate       Rate
	Bunker     Bunker
	Revenue    Bounds // USD
	FuelCost   Bounds // USD
	LoadPort   Bounds // port costs of the loading call, USD
	PortCosts  Bounds // both calls, USD
	TCE        Bounds // USD per day
}

// Compute is the voyage's TCE with the rate and bunker price given. The
// bounds combine the independent relative uncertainties of the rate, the
// cargo tonnes, the fuel tonnes, the bunker price and the port costs in
// quadrature (root of the sum of squares of each one's effect in USD),
// each side on its own.
func Compute(v Voyage, rate Rate, bunker Bunker) Result {
	r := Result{Voyage: v, Rate: rate, Bunker: bunker}
	r.VoyageDays = Days(v.LoadArrival, v.DischargeDepart)
	loadDays, dischargeDays := Days(v.LoadArrival, v.Departure), Days(v.Arrival, v.DischargeDepart)
	r.PortDays = loadDays + dischargeDays
	r.SeaDays = Days(v.Departure, v.Arrival)
	rc, tc := rate.USDPerTonne.Central, v.Tonnes.Central
	fc, pc := v.FuelTonnes.Central, bunker.USDPerTonne.Central
	r.Revenue = Bounds{Central: rc * tc}
	r.Revenue.Low = r.Revenue.Central - quad(tc*(rc-rate.USDPerTonne.Low), rc*(tc-v.Tonnes.Low))
	r.Revenue.High = r.Revenue.Central + quad(tc*(rate.USDPerTonne.High-rc), rc*(v.Tonnes.High-tc))
	r.FuelCost = Bounds{Central: fc * pc}
	r.FuelCost.Low = r.FuelCost.Central - quad(pc*(fc-v.FuelTonnes.Low), fc*(pc-bunker.USDPerTonne.Low))
	r.FuelCost.High = r.FuelCost.Central + quad(pc*(v.FuelTonnes.High-fc), fc*(bunker.USDPerTonne.High-pc))
	r.LoadPort = PortCost(v.DWT, loadDays)
	r.PortCosts = r.LoadPort.Add(PortCost(v.DWT, dischargeDays))
	net := r.Revenue.Central - r.FuelCost.Central - r.PortCosts.Central
	down := quad(r.Revenue.Central-r.Revenue.Low, r.FuelCost.High-r.FuelCost.Central, r.PortCosts.High-r.PortCosts.Central)
	up := quad(r.Revenue.High-r.Revenue.Central, r.FuelCost.Central-r.FuelCost.Low, r.PortCosts.Central-r.PortCosts.Low)
	if r.VoyageDays > 0 {
		r.TCE = Bounds{Low: (net - down) / r.VoyageDays, Central: net / r.VoyageDays, High: (net + up) / r.VoyageDays}
	}
	return r
}

// quad is the root of the sum of the squares.
func quad(xs ...float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x * x
	}
	return math.Sqrt(s)
}
