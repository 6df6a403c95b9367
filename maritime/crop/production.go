package crop

import (
	"math"
	"time"
)

// Bushel weights (kg) USDA uses to convert bushels to metric tons.
const (
	BushelWheatKg = 27.2155
	BushelSoyKg   = 27.2155
	BushelCornKg  = 25.4012
)

// Yield-factor mapping: with an NDVI basis the season's production is the
// official baseline times 1 + k × the NDVI anomaly, clamped to
// [FactorMin, FactorMax]. k is fitted through the origin on past seasons
// (each calendar year's peak NDVI anomaly against the PSD yield anomaly of
// the market year of the same number) when at least MinFitSeasons pairs
// exist; otherwise DefaultSlope (a yield anomaly proportional to the NDVI
// anomaly) is used and the forecast says so. With the official basis the
// factor is 1: the official forecast already is the yield view, and
// applying its own anomaly again would count it twice.
const (
	DefaultSlope  = 1.0
	MinFitSeasons = 3
	FactorMin     = 0.5
	FactorMax     = 1.5
)

// How a yield factor was obtained.
const (
	FitOfficial = "official" // factor 1: official basis
	FitFitted   = "fitted"
	FitDefault  = "default"
)

// How a port's share of the exportable volume was obtained.
const (
	ShareObserved = "observed" // the service's estimated export tonnage at the region's ports (last 365 days)
	ShareEqual    = "equal"    // no observed exports at any of the region's ports: split evenly
)

// Forecast is the season's production forecast of a region's crop and
// the exportable volume it implies at one of its ports. Volumes are in
// thousand metric tons; NaN where the data do not say (the EU member-state
// file has no domestic use).
type Forecast struct {
	Region        string
	RegionName    string
	Crop          string
	Port          string
	MarketYear    int
	Basis         string
	Scope         string
	BaselineKt    float64
	YieldFactor   float64
	FactorFit     string
	FactorSeasons int
	ProductionKt  float64
	DomesticKt    float64
	ExportableKt  float64 // region total: production - domestic use
	PortShare     float64
	ShareBasis    string
	PortKt        float64 // this port's share of ExportableKt
	Series        string
	Source        string
	AsOf          time.Time
}

// Forecasts computes the production forecast of every region and crop
// with an official baseline, one row per mapped port.
func Forecasts(in Inputs) []Forecast {
	var out []Forecast
	health := map[[2]string]Assessment{}
	for _, a := range Assess(in) {
		health[[2]string{a.Region, a.Crop}] = a
	}
	byRegion := compositesByRegion(in.NDVI)
	for _, r := range regions {
		shares, basis := portShares(r, in.PortTonnes)
		for _, c := range r.Crops {
			b, ok := baseline(in, r, c)
			if !ok {
				continue
			}
			f := Forecast{Region: r.Slug, RegionName: r.Name, Crop: c, MarketYear: b.year, Basis: BasisOfficial, Scope: r.Scope[c],
				BaselineKt: b.production, YieldFactor: 1, FactorFit: FitOfficial, DomesticKt: b.domestic,
				Series: b.name, Source: b.source, AsOf: b.asOf, ShareBasis: basis}
			if a, ok := health[[2]string{r.Slug, c}]; ok && a.Basis == BasisNDVI {
				k, n := fitSlope(in, r, c, byRegion[r.Slug])
				f.Basis, f.FactorSeasons = BasisNDVI, n
				f.FactorFit = FitDefault
				if n >= MinFitSeasons {
					f.FactorFit = FitFitted
				}
				f.YieldFactor = math.Max(FactorMin, math.Min(FactorMax, 1+k*a.Anomaly))
			}
			f.ProductionKt = f.BaselineKt * f.YieldFactor
			f.ExportableKt = math.NaN()
			if !math.IsNaN(f.DomesticKt) {
				f.ExportableKt = math.Max(0, f.ProductionKt-f.DomesticKt)
			}
			for _, p := range r.Ports {
				g := f
				g.Port, g.PortShare = p, shares[p]
				g.PortKt = g.ExportableKt * g.PortShare
				out = append(out, g)
			}
		}
	}
	return out
}

// portShares shares a region's exports among its ports by the observed
// tonnage, evenly when none is observed.
func portShares(r Region, tonnes map[string]float64) (map[string]float64, string) {
	total := 0.0
	for _, p := range r.Ports {
		if t := tonnes[p]; t > 0 && !math.IsInf(t, 0) {
			total += t
		}
	}
	out := map[string]float64{}
	if total <= 0 {
		for _, p := range r.Ports {
			out[p] = 1 / float64(len(r.Ports))
		}
		return out, ShareEqual
	}
	for _, p := range r.Ports {
		if t := tonnes[p]; t > 0 && !math.IsInf(t, 0) {
			out[p] = t / total
		}
	}
	return out, ShareObserved
}

// base is an official production baseline.
type base struct {
	year                 int
	production, domestic float64 // kt; domestic NaN when unknown
	name, source         string
	asOf                 time.Time
}

// baseline is the official production and domestic use of the newest
// market year: PSD (1000 MT) or WASDE (million metric tons or million
// bushels), converted to thousand metric tons.
func baseline(in Inputs, r Region, crop string) (base, bool) {
	src := r.Sources[crop]
	if src.PSDCommodity != "" {
		prod := psdSeries(in.PSD, r.PSDCountry, src.PSDCommodity, PSDProduction)
		y, ok := prod.latest()
		if !ok {
			return base{}, false
		}
		b := base{year: y, production: prod.years[y].value, domestic: math.NaN(), name: prod.name, source: prod.source, asOf: prod.years[y].asOf}
		if d, ok := psdSeries(in.PSD, r.PSDCountry, src.PSDCommodity, PSDDomestic).years[y]; ok {
			b.domestic = d.value
		}
		return b, true
	}
	if src.WASDETable == "" {
		return base{}, false
	}
	prod := wasdeSeries(in.WASDE, src.WASDETable, src.WASDECommodity, src.WASDERegion, "Production")
	y, ok := prod.latest()
	if !ok {
		return base{}, false
	}
	conv := toKt(prod.unit, crop)
	if math.IsNaN(conv) {
		return base{}, false
	}
	b := base{year: y, production: prod.years[y].value * conv, domestic: math.NaN(), name: prod.name, source: prod.source, asOf: prod.years[y].asOf}
	dom := wasdeSeries(in.WASDE, src.WASDETable, src.WASDECommodity, src.WASDERegion, src.DomesticAttr)
	if d, ok := dom.years[y]; ok {
		if c := toKt(dom.unit, crop); !math.IsNaN(c) {
			b.domestic = d.value * c
		}
	}
	return b, true
}

// toKt is the factor from a WASDE unit to thousand metric tons (NaN for
// a unit that does not convert).
func toKt(unit, crop string) float64 {
	switch unit {
	case "Million Metric Tons":
		return 1000
	case "Million Bushels":
		switch crop {
		case Corn:
			return BushelCornKg
		case Soybeans:
			return BushelSoyKg
		case Wheat:
			return BushelWheatKg
		}
	}
	return math.NaN()
}

// fitSlope fits k of the yield-factor mapping on the region's past
// seasons: x = a calendar year's peak NDVI relative to the mean peak of
// the other years, y = the PSD yield of that market year relative to its
// prior 5-year average. Fewer than MinFitSeasons pairs give DefaultSlope.
func fitSlope(in Inputs, r Region, crop string, cs []Composite) (float64, int) {
	peaks := map[int]float64{}
	for _, c := range cs {
		if y := c.Date.Year(); c.NDVI > peaks[y] {
			peaks[y] = c.NDVI
		}
	}
	ys, ok := yieldSeries(in, r, crop)
	if !ok || len(peaks) < 2 {
		return DefaultSlope, 0
	}
	sxy, sxx, n := 0.0, 0.0, 0
	for y, p := range peaks {
		others, m := 0.0, 0
		for y2, p2 := range peaks {
			if y2 != y {
				others += p2
				m++
			}
		}
		v, ok := ys.years[y]
		mean, k := priorMean(ys, y)
		if !ok || m == 0 || others <= 0 || k < MinBaselineYears || mean <= 0 {
			continue
		}
		x := p/(others/float64(m)) - 1
		sxy += x * (v.value/mean - 1)
		sxx += x * x
		n++
	}
	if n < MinFitSeasons || sxx == 0 {
		return DefaultSlope, n
	}
	return sxy / sxx, n
}
