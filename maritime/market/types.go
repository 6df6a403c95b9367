package market

import "time"

// Price is one observation of a published price series.
type Price struct {
	Source      string    // "fred", "worldbank", "usda_ams"
	Series      string    // the source's series id: "PWHEAMTUSDM", "WHEAT_US_HRW", "ams_3147:soybeans:basis"
	Name        string    // the source's own name ("Global price of Wheat")
	Commodity   string    // service name: wheat, maize, soybeans, soybean_meal, crude_oil, ...
	Date        time.Time // UTC midnight; first day of the period for monthly series
	Frequency   string    // "daily", "weekly", "monthly"
	Value       float64   // in Unit, as published
	Unit        string    // "usd_per_tonne", "usd_per_barrel", "usd_cents_per_bushel", ...
	Currency    string    // "USD"
	USDPerTonne float64   // normalised to USD per metric tonne where a conversion is published; NaN when none
	Detail      string    // e.g. AMS: "basis vs November (X) futures, delivery 2026-09-01 first half, ..."
	Published   time.Time // the day the source published this file/issue (zero: unknown)
}

// Rate is one observation of a published transport rate.
type Rate struct {
	Mode        string    // "barge", "rail", "truck", "ocean"
	Dataset     string    // the AgTransport dataset id: "deqi-uken", "7spn-fbua", ...
	Source      string    // "usda_agtransport"
	Commodity   string    // "grain" where the dataset does not say; else wheat, maize, ...
	Region      string    // the published location / river segment / route name, verbatim
	Origin      string    // where the dataset says (ocean: "U.S. Gulf", "Odesa"), else ""
	Destination string    // likewise ("Japan", "Alexandria,Egypt")
	VesselSize  string    // ocean, where published ("25,000-30,000")
	Date        time.Time // UTC midnight; period start (or the dataset's date)
	Frequency   string    // "weekly", "monthly", "quarterly"
	Rate        float64   // as published, in Unit
	Unit        string    // "pct_of_tariff", "usd_per_short_ton", "usd_per_tonne", "usd_per_car", "usd_per_mile", ...
	USDPerTonne float64   // normalised USD per metric tonne; NaN when not convertible
	Benchmark   float64   // the 1976 benchmark tariff (USD per short ton) used for a pct_of_tariff rate, else 0
	Published   time.Time // publication date of the file, zero when unknown
}

// The sources of prices and rates.
const (
	SourceFRED        = "fred"
	SourceWorldBank   = "worldbank"
	SourceAMS         = "usda_ams"
	SourceAgTransport = "usda_agtransport"
)

// The transport modes of a Rate.
const (
	ModeBarge = "barge"
	ModeRail  = "rail"
	ModeTruck = "truck"
	ModeOcean = "ocean"
)

// The frequencies of a series.
const (
	Daily     = "daily"
	Weekly    = "weekly"
	Monthly   = "monthly"
	Quarterly = "quarterly"
	Annual    = "annual"
)

// CurrencyUSD is the currency of every series the sources publish.
const CurrencyUSD = "USD"
