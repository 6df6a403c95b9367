package crop

import (
	"strconv"
	"strings"
	"time"
)

// PSDRow is one row of a USDA FAS PSD Online CSV (long format: one
// attribute of one commodity, country and market year). Codes stay the
// zero-padded strings the file holds. Revised is Calendar_Year/Month:
// when USDA last revised the row, not the period it covers; MarketYear is
// the country's local market year.
type PSDRow struct {
	CommodityCode string
	Commodity     string
	CountryCode   string
	Country       string
	MarketYear    int
	Revised       time.Time // first day of Calendar_Year-Month (month 00 read as January)
	AttributeID   string
	Attribute     string
	UnitID        string
	Unit          string
	Value         float64
}

// PSD attribute ids the assessments use.
const (
	PSDAreaHarvested = "004"
	PSDProduction    = "028"
	PSDExports       = "088"
	PSDDomestic      = "125"
	PSDYield         = "184"
)

// WASDERow is one row of the WASDE report data CSV.
type WASDERow struct {
	WasdeNumber int
	Released    time.Time // ReleaseDate
	Table       string    // ReportTitle
	Attribute   string
	Projection  string // ReliabilityProjection ("" in the supply-and-use tables)
	Commodity   string
	Region      string
	MarketYear  string // "2025/26", a calendar year, or ""
	Flag        string // ProjEstFlag without parentheses: "", "Est.", "Proj."
	Period      string // AnnualQuarterFlag: "Annual", "I".."IV"
	Value       float64
	Unit        string
}

// StartYear is the first year of a "2025/26" market year (or the year of
// a calendar-year one); ok is false when it names none.
func (w WASDERow) StartYear() (int, bool) {
	s := w.MarketYear
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	y, err := strconv.Atoi(s)
	return y, err == nil && y > 1900 && y < 3000
}

// NDVISample is one pixel's 16-day NDVI composite from an AppEEARS
// point-sample CSV (the scale factor already applied), with its MODLAND
// quality bits.
type NDVISample struct {
	Region    string // the region slug the sample's category maps to
	Category  string // the AppEEARS request's label
	Pixel     string // AppEEARS ID
	Latitude  float64
	Longitude float64
	Date      time.Time // composite start date
	NDVI      float64
	MODLAND   string // "0b00" good, "0b01" check QA, "0b10" cloudy, "0b11" not produced
	Product   string // e.g. "MOD13Q1_006"
}

// Usable reports whether the sample's quality lets it be used: MODLAND
// "0b00" (good) or "0b01" (produced, check other QA); cloudy and
// not-produced pixels are dropped.
func (s NDVISample) Usable() bool {
	return (s.MODLAND == "0b00" || s.MODLAND == "0b01") && s.NDVI >= -1 && s.NDVI <= 1
}

// Composite is a region's mean NDVI over its usable pixels for one 16-day
// composite.
type Composite struct {
	Region string
	Date   time.Time
	NDVI   float64
	Pixels int
}

// Composites averages usable samples per region and composite date,
// ordered by region then date.
func Composites(samples []NDVISample) []Composite {
	type key struct {
		region string
		date   time.Time
	}
	sum := map[key]*Composite{}
	var keys []key
	for _, s := range samples {
		if !s.Usable() || s.Region == "" {
			continue
		}
		k := key{s.Region, s.Date.UTC()}
		c, ok := sum[k]
		if !ok {
			c = &Composite{Region: k.region, Date: k.date}
			sum[k] = c
			keys = append(keys, k)
		}
		c.NDVI += s.NDVI
		c.Pixels++
	}
	out := make([]Composite, 0, len(keys))
	for _, k := range keys {
		c := *sum[k]
		c.NDVI /= float64(c.Pixels)
		out = append(out, c)
	}
	sortComposites(out)
	return out
}
