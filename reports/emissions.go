package reports

import "time"

// EmissionsReport is a Scope 3 sea-transport emissions report: what the
// PDF, the CSV and the JSON of /v1/emissions/report show. The read side
// fills it from the emissions model; reports only renders it, so the same
// numbers appear in every format. Emissions are in tonnes of CO2e, transport
// work in tonne-nautical miles, intensities in grams of CO2e per
// tonne-nautical mile; TTW is tank-to-wake, WTW well-to-wake.
type EmissionsReport struct {
	Title        string    `json:"title"`  // empty: "Scope 3 sea transport emissions"
	Entity       string    `json:"entity"` // the reporting company
	PeriodStart  time.Time `json:"period_start"`
	PeriodEnd    time.Time `json:"period_end"` // exclusive
	GeneratedAt  time.Time `json:"generated_at"`
	Author       string    `json:"author"` // document author; empty: "Overwatch"
	ModelVersion string    `json:"model_version"`

	Totals EmissionsTotals `json:"totals"`
	// ByMonth is the emissions by month, labelled "2006-01", in order.
	ByMonth []EmissionsBreakdown `json:"by_month"`
	// Breakdown is the emissions by BreakdownBy ("vessel type" or
	// "commodity"), largest first.
	Breakdown   []EmissionsBreakdown `json:"breakdown"`
	BreakdownBy string               `json:"breakdown_by"`
	// Voyages are the voyage rows; VoyagesTotal counts the voyages of the
	// period, more than len(Voyages) when the caller capped the rows.
	Voyages      []EmissionsVoyage `json:"voyages"`
	VoyagesTotal int               `json:"voyages_total"`

	Methodology []string          `json:"methodology"` // paragraphs
	Factors     []EmissionsFactor `json:"factors"`
	Quality     EmissionsQuality  `json:"data_quality"`
	Assumptions []string          `json:"assumptions"`
	Overrides   []string          `json:"overrides"` // the caller's distance_nm, speed_knots, fuel_type
}

// EmissionsRange is a central value with its low and high bounds.
type EmissionsRange struct {
	Low     float64 `json:"low"`
	Central float64 `json:"central"`
	High    float64 `json:"high"`
}

// EmissionsTotals are the report's totals with their bounds.
type EmissionsTotals struct {
	Voyages      int            `json:"voyages"`
	DistanceNM   float64        `json:"distance_nm"`
	CargoTonnes  float64        `json:"cargo_tonnes"`
	FuelTonnes   float64        `json:"fuel_tonnes"`
	TonneMiles   EmissionsRange `json:"tonne_miles"`
	TTW          EmissionsRange `json:"ttw_t_co2e"`
	WTW          EmissionsRange `json:"wtw_t_co2e"`
	IntensityTTW EmissionsRange `json:"intensity_ttw_g_per_tnm"`
	IntensityWTW EmissionsRange `json:"intensity_wtw_g_per_tnm"`
}

// EmissionsBreakdown is the emissions of one month, vessel type or commodity.
type EmissionsBreakdown struct {
	Label      string         `json:"label"`
	Voyages    int            `json:"voyages"`
	TonneMiles float64        `json:"tonne_miles"`
	TTW        EmissionsRange `json:"ttw_t_co2e"`
	WTW        EmissionsRange `json:"wtw_t_co2e"`
}

// EmissionsVoyage is one voyage row: the leg between two port calls.
type EmissionsVoyage struct {
	Vessel       string         `json:"vessel"`
	IMO          string         `json:"imo"`
	VesselType   string         `json:"vessel_type"`
	From         string         `json:"from"`
	To           string         `json:"to"`
	Departure    time.Time      `json:"departure"`
	Arrival      time.Time      `json:"arrival"`
	DistanceNM   float64        `json:"distance_nm"`
	CargoTonnes  float64        `json:"cargo_tonnes"`
	Commodity    string         `json:"commodity"`
	Fuel         string         `json:"fuel"`
	FactorTTW    float64        `json:"factor_ttw"` // t CO2e per t of fuel
	Method       string         `json:"method"`     // bottom_up, default_intensity, none
	TTW          EmissionsRange `json:"ttw_t_co2e"`
	WTW          EmissionsRange `json:"wtw_t_co2e"`
	TonneMiles   float64        `json:"tonne_miles"`
	IntensityTTW float64        `json:"intensity_ttw_g_per_tnm"`
	Quality      string         `json:"data_quality"` // primary, modelled, default, none
	Flags        []string       `json:"flags"`
}

// EmissionsFactor is one row of the factor table.
type EmissionsFactor struct {
	Name    string  `json:"name"`
	Value   float64 `json:"value"`
	Unit    string  `json:"unit"`
	Source  string  `json:"source"`
	Version string  `json:"version"`
}

// EmissionsQuality describes the data behind the report: the shares (0-1)
// of voyages whose distance was measured on the AIS track, whose cargo came
// from the port-call draught estimate, and that fell back to a default
// intensity, and free-text notes.
type EmissionsQuality struct {
	AISDistanceShare      float64  `json:"ais_distance_share"`
	AISCargoShare         float64  `json:"ais_cargo_share"`
	DefaultIntensityShare float64  `json:"default_intensity_share"`
	Notes                 []string `json:"notes"`
}

// emissionsTitle is the report's title.
func (r *EmissionsReport) emissionsTitle() string {
	if r.Title != "" {
		return r.Title
	}
	return "Scope 3 sea transport emissions"
}

// period is the reporting period as text: "2025-01-01 to 2025-12-31", the
// end shown inclusive.
func (r *EmissionsReport) period() string {
	end := r.PeriodEnd
	if !end.IsZero() && end.After(r.PeriodStart) {
		end = end.Add(-time.Nanosecond)
	}
	return day(r.PeriodStart) + " to " + day(end)
}

// day is t's UTC date, or "" for the zero time.
func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}
