package crop

import (
	"math"
	"sort"
	"time"
)

// Bases of an assessment.
const (
	BasisNDVI     = "ndvi"
	BasisOfficial = "official_forecast"
)

// Statuses of an assessment, from the anomaly (a fraction of the
// baseline): good at +5% or more, normal above -5%, watch above -15%,
// poor at -15% or less. The same cut-offs apply to an NDVI anomaly
// (relative to the period's multi-year mean) and to a yield anomaly
// (USDA's forecast relative to its 5-year average).
const (
	StatusGood   = "good"
	StatusNormal = "normal"
	StatusWatch  = "watch"
	StatusPoor   = "poor"
)

// Statuses lists the statuses, best first.
var Statuses = []string{StatusGood, StatusNormal, StatusWatch, StatusPoor}

// Status thresholds (fractions of the baseline).
const (
	GoodFrom   = 0.05
	NormalFrom = -0.05
	WatchFrom  = -0.15
)

// StatusOf is the status of an anomaly.
func StatusOf(anomaly float64) string {
	switch {
	case anomaly >= GoodFrom:
		return StatusGood
	case anomaly > NormalFrom:
		return StatusNormal
	case anomaly > WatchFrom:
		return StatusWatch
	}
	return StatusPoor
}

// MinBaselineYears is how many earlier years a baseline needs; the
// official view averages up to BaselineYears.
const (
	MinBaselineYears = 2
	BaselineYears    = 5
)

// Assessment is the health of one region and crop.
type Assessment struct {
	Region        string
	RegionName    string
	Crop          string
	Basis         string
	Status        string
	Anomaly       float64 // fraction of the baseline
	Value         float64 // the NDVI of the period, or the forecast yield
	Baseline      float64 // the period's multi-year mean, or the 5-year average yield
	BaselineYears int
	Unit          string
	MarketYear    int       // official view: the forecast's market year
	PeriodStart   time.Time // NDVI: the composite's start date
	Pixels        int       // NDVI: usable pixels averaged
	Series        string
	Source        string
	AsOf          time.Time // NDVI: composite date; official: the row's revision or release
}

// Inputs are what the assessments and forecasts are computed from.
type Inputs struct {
	PSD        []PSDRow
	WASDE      []WASDERow
	NDVI       []Composite
	PortTonnes map[string]float64 // observed export tonnage per port slug (the service's estimates)
}

// Assess assesses every region and crop the data allow: NDVI where the
// region has a series with a multi-year baseline for its latest period,
// the official view otherwise; a crop with neither is left out.
func Assess(in Inputs) []Assessment {
	var out []Assessment
	byRegion := compositesByRegion(in.NDVI)
	for _, r := range regions {
		nd, ndOK := ndviAssessment(byRegion[r.Slug])
		for _, c := range r.Crops {
			if ndOK {
				a := nd
				a.Region, a.RegionName, a.Crop = r.Slug, r.Name, c
				out = append(out, a)
				continue
			}
			if a, ok := officialAssessment(in, r, c); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// ndviAssessment compares a region's latest composite with the mean of
// the same 16-day period (same day of year: MODIS composites start on
// fixed days of the year) in earlier years.
func ndviAssessment(cs []Composite) (Assessment, bool) {
	if len(cs) == 0 {
		return Assessment{}, false
	}
	last := cs[len(cs)-1]
	mean, n := periodMean(cs, last)
	if n < MinBaselineYears || mean <= 0 {
		return Assessment{}, false
	}
	an := last.NDVI/mean - 1
	return Assessment{Basis: BasisNDVI, Status: StatusOf(an), Anomaly: an, Value: last.NDVI, Baseline: mean, BaselineYears: n,
		Unit: "NDVI", PeriodStart: last.Date, Pixels: last.Pixels, Series: "MODIS 16-day NDVI (AppEEARS point samples)",
		Source: "NASA LP DAAC MODIS MOD13Q1 via AppEEARS", AsOf: last.Date}, true
}

// periodMean is the mean NDVI of c's period in the years before c's.
func periodMean(cs []Composite, c Composite) (float64, int) {
	sum, n := 0.0, 0
	for _, x := range cs {
		if x.Date.Year() < c.Date.Year() && x.Date.YearDay() == c.Date.YearDay() {
			sum += x.NDVI
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

func compositesByRegion(cs []Composite) map[string][]Composite {
	out := map[string][]Composite{}
	for _, c := range cs {
		out[c.Region] = append(out[c.Region], c)
	}
	for k := range out {
		sortComposites(out[k])
	}
	return out
}

func sortComposites(cs []Composite) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Region != cs[j].Region {
			return cs[i].Region < cs[j].Region
		}
		return cs[i].Date.Before(cs[j].Date)
	})
}

// yearValue is one year of an official series.
type yearValue struct {
	value float64
	asOf  time.Time
}

// series is an official series by market year with its description.
type series struct {
	years  map[int]yearValue
	unit   string
	name   string
	source string
}

// latest is the newest year of s.
func (s series) latest() (int, bool) {
	best, ok := 0, false
	for y := range s.years {
		if !ok || y > best {
			best, ok = y, true
		}
	}
	return best, ok
}

// officialAssessment is USDA's latest yield forecast for the region's
// crop against the average of up to 5 earlier market years.
func officialAssessment(in Inputs, r Region, crop string) (Assessment, bool) {
	s, ok := yieldSeries(in, r, crop)
	if !ok {
		return Assessment{}, false
	}
	y, ok := s.latest()
	if !ok {
		return Assessment{}, false
	}
	base, n := priorMean(s, y)
	if n < MinBaselineYears || base <= 0 {
		return Assessment{}, false
	}
	v := s.years[y]
	an := v.value/base - 1
	return Assessment{Region: r.Slug, RegionName: r.Name, Crop: crop, Basis: BasisOfficial, Status: StatusOf(an), Anomaly: an,
		Value: v.value, Baseline: base, BaselineYears: n, Unit: s.unit, MarketYear: y, Series: s.name, Source: s.source, AsOf: v.asOf}, true
}

// priorMean averages the BaselineYears market years before y that s has.
func priorMean(s series, y int) (float64, int) {
	sum, n := 0.0, 0
	for k := y - BaselineYears; k < y; k++ {
		if v, ok := s.years[k]; ok && !math.IsNaN(v.value) {
			sum += v.value
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// yieldSeries is the official yield series of a region's crop: PSD
// Yield, or PSD Production / Area Harvested where the file has no yield
// (the EU member-state file), or a WASDE yield table.
func yieldSeries(in Inputs, r Region, crop string) (series, bool) {
	src := r.Sources[crop]
	code := src.PSDCommodity
	if code == "" {
		code = src.YieldPSDCommodity
	}
	if code != "" {
		if s := psdSeries(in.PSD, r.PSDCountry, code, PSDYield); len(s.years) > 0 {
			return s, true
		}
		prod := psdSeries(in.PSD, r.PSDCountry, code, PSDProduction)
		area := psdSeries(in.PSD, r.PSDCountry, code, PSDAreaHarvested)
		out := series{years: map[int]yearValue{}, unit: "(MT/HA)", source: "USDA FAS PSD Online",
			name: "USDA PSD " + r.Country + " " + crop + " production / area harvested"}
		for y, p := range prod.years {
			if a, ok := area.years[y]; ok && a.value > 0 {
				out.years[y] = yearValue{p.value / a.value, later(p.asOf, a.asOf)}
			}
		}
		return out, len(out.years) > 0
	}
	if src.YieldWASDETable != "" {
		s := wasdeSeries(in.WASDE, src.YieldWASDETable, src.YieldWASDECommodity, src.YieldWASDERegion, src.YieldWASDEAttr)
		return s, len(s.years) > 0
	}
	return series{}, false
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// psdSeries is one attribute of a PSD commodity and country by market
// year, the latest revision winning.
func psdSeries(rows []PSDRow, country, code, attr string) series {
	s := series{years: map[int]yearValue{}, source: "USDA FAS PSD Online"}
	for _, r := range rows {
		if r.CountryCode != country || r.CommodityCode != code || r.AttributeID != attr {
			continue
		}
		if old, ok := s.years[r.MarketYear]; ok && old.asOf.After(r.Revised) {
			continue
		}
		s.years[r.MarketYear] = yearValue{r.Value, r.Revised}
		s.unit = r.Unit
		s.name = "USDA PSD " + r.Country + " " + r.Commodity + " " + r.Attribute + " " + r.Unit
	}
	return s
}

// wasdeSeries is one attribute of a WASDE table's commodity and region by
// market year (annual rows), the latest report winning.
func wasdeSeries(rows []WASDERow, table, commodity, region, attr string) series {
	s := series{years: map[int]yearValue{}, source: "USDA WASDE"}
	num := map[int]int{}
	for _, r := range rows {
		if r.Table != table || r.Commodity != commodity || r.Region != region || r.Attribute != attr || r.Projection != "" {
			continue
		}
		if r.Period != "" && r.Period != "Annual" {
			continue
		}
		y, ok := r.StartYear()
		if !ok || num[y] > r.WasdeNumber {
			continue
		}
		num[y] = r.WasdeNumber
		s.years[y] = yearValue{r.Value, r.Released}
		s.unit = r.Unit
		s.name = "USDA WASDE " + table + ": " + commodity + ", " + region + ", " + attr + " (" + r.Unit + ")"
	}
	return s
}
