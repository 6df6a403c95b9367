package emissions

import (
	"time"

	"overwatch"
)

// CargoQuality is how good a cargo estimate from port-call draughts is.
type CargoQuality string

// Cargo estimate qualities; an empty quality with a cargo figure counts as low.
const (
	CargoHigh   CargoQuality = "high"
	CargoMedium CargoQuality = "medium"
	CargoLow    CargoQuality = "low"
)

// SpeedBand is time spent at sea at about one speed.
type SpeedBand struct {
	Knots float64 `json:"knots"`
	Hours float64 `json:"hours"`
}

// VoyageInput is one voyage, the leg between two port calls, as the model
// takes it. Zero means unknown for every number. DistanceNM, SpeedKnots and
// Fuel are the caller's overrides (distance_nm, speed_knots, fuel_type).
type VoyageInput struct {
	IMO       overwatch.IMO `json:"imo"`
	Name      string        `json:"name"`
	ShipType  uint8         `json:"ship_type"` // AIS ship type code
	Class     VesselClass   `json:"class"`     // empty: from ShipType
	Commodity string        `json:"commodity"` // from the port-call estimate
	From      string        `json:"from"`      // port slug
	To        string        `json:"to"`        // port slug
	Departure time.Time     `json:"departure"`
	Arrival   time.Time     `json:"arrival"`

	DWT               float64 `json:"dwt"`
	DesignDraughtM    float64 `json:"design_draught_m"` // summer load draught
	DraughtM          float64 `json:"draught_m"`        // reported on the leg
	LengthM           float64 `json:"length_m"`
	BeamM             float64 `json:"beam_m"`
	MainEnginePowerKW float64 `json:"main_engine_power_kw"` // MCR, if known
	DesignSpeedKnots  float64 `json:"design_speed_knots"`   // Vref at 75 % MCR, if known

	TrackDistanceNM   float64     `json:"track_distance_nm"`    // summed along the AIS track
	TrackCoverage     float64     `json:"track_coverage"`       // share of the leg with AIS positions, 0-1; 0 counts as sparse
	SeaLaneDistanceNM float64     `json:"sea_lane_distance_nm"` // RouteDistanceNM(From, To)
	HoursAtSea        float64     `json:"hours_at_sea"`
	MeanSpeedKnots    float64     `json:"mean_speed_knots"`
	SpeedBands        []SpeedBand `json:"speed_bands"`
	HoursManoeuvring  float64     `json:"hours_manoeuvring"`
	HoursAtAnchor     float64     `json:"hours_at_anchor"`
	HoursAtBerth      float64     `json:"hours_at_berth"`

	CargoTonnes  float64      `json:"cargo_tonnes"`
	CargoQuality CargoQuality `json:"cargo_quality"`
	Ballast      bool         `json:"ballast"` // no cargo on the leg

	Fuel       FuelType `json:"fuel"`        // override; empty: DefaultFuel
	DistanceNM float64  `json:"distance_nm"` // override
	SpeedKnots float64  `json:"speed_knots"` // override
}

// Bounds is a central estimate with its low and high bounds (about a 95 %
// range); Low <= Central <= High always.
type Bounds struct {
	Low     float64 `json:"low"`
	Central float64 `json:"central"`
	High    float64 `json:"high"`
}

// Method is how a voyage's emissions were computed.
type Method string

// Methods: the Fourth IMO GHG Study bottom-up model, a default intensity for
// the vessel class when the AIS track is too sparse, or nothing at all.
const (
	MethodBottomUp         Method = "bottom_up"
	MethodDefaultIntensity Method = "default_intensity"
	MethodNone             Method = "none"
)

// Flag marks an assumption, an override or a data gap on a voyage.
type Flag string

// The flags of a voyage result.
const (
	FlagDefaultIntensity Flag = "default_intensity" // GLEC/ISO 14083 default intensity used
	FlagNoDistance       Flag = "no_distance"
	FlagNoSize           Flag = "no_vessel_size"
	FlagDistanceOverride Flag = "distance_override"
	FlagSpeedOverride    Flag = "speed_override"
	FlagFuelOverride     Flag = "fuel_override"
	FlagSeaLaneDistance  Flag = "sea_lane_distance"
	FlagPartialTrack     Flag = "partial_track"
	FlagDWTEstimated     Flag = "dwt_estimated"
	FlagProxyClass       Flag = "proxy_class" // engine regression of another class
	FlagSpeedAssumed     Flag = "speed_assumed"
	FlagDraughtAssumed   Flag = "draught_assumed"
	FlagCargoAssumed     Flag = "cargo_assumed"
	FlagBallast          Flag = "ballast"
	FlagLoadCapped       Flag = "load_capped"
)

// Voyage is the result for one voyage. Emissions are in tonnes of
// CO2e, intensities in grams of CO2e per tonne-nautical mile, fuel in
// tonnes. TTW is tank-to-wake (combustion plus methane slip), WTW
// well-to-wake (TTW plus the fuel's well-to-tank emissions).
type Voyage struct {
	IMO       overwatch.IMO `json:"imo"`
	Name      string        `json:"name"`
	Class     VesselClass   `json:"vessel_class"`
	From      string        `json:"from"`
	To        string        `json:"to"`
	Departure time.Time     `json:"departure"`
	Arrival   time.Time     `json:"arrival"`
	Commodity string        `json:"commodity"`
	Fuel      FuelType      `json:"fuel"`
	Method    Method        `json:"method"`

	DistanceNM     float64 `json:"distance_nm"`
	DistanceSource string  `json:"distance_source"` // ais, override, sea_lane, none
	SpeedSource    string  `json:"speed_source"`    // ais, ais_mean, override, assumed
	CargoTonnes    Bounds  `json:"cargo_tonnes"`
	TonneMiles     Bounds  `json:"tonne_miles"`
	FuelTonnes     Bounds  `json:"fuel_tonnes"`
	TTW            Bounds  `json:"ttw_t_co2e"`
	WTW            Bounds  `json:"wtw_t_co2e"`
	IntensityTTW   Bounds  `json:"intensity_ttw_g_per_tnm"`
	IntensityWTW   Bounds  `json:"intensity_wtw_g_per_tnm"`
	FactorTTW      float64 `json:"factor_ttw"` // t CO2e per t fuel
	FactorWTW      float64 `json:"factor_wtw"` // t CO2e per t fuel

	MainEngineFuelTonnes float64 `json:"main_engine_fuel_t"`
	AuxiliaryFuelTonnes  float64 `json:"auxiliary_fuel_t"`
	BoilerFuelTonnes     float64 `json:"boiler_fuel_t"`
	MainEnginePowerKW    float64 `json:"main_engine_power_kw"`
	DesignSpeedKnots     float64 `json:"design_speed_knots"`
	MainEngineLoad       float64 `json:"main_engine_load"` // hour-weighted at sea

	AISDistance bool     `json:"ais_distance"` // distance measured on the AIS track
	AISCargo    bool     `json:"ais_cargo"`    // cargo from the port-call draught estimate
	Flags       []Flag   `json:"flags"`
	Reason      string   `json:"reason,omitempty"` // why the default intensity or nothing
	Factors     []string `json:"-"`                // names of the factors used
}

// HasFlag reports whether the voyage carries flag f.
func (v *Voyage) HasFlag(f Flag) bool {
	for _, g := range v.Flags {
		if g == f {
			return true
		}
	}
	return false
}

// Quality is the voyage's data-quality label: primary (bottom-up on an AIS
// distance and a draught cargo estimate), modelled (bottom-up with an
// assumption or override), default (class default intensity) or none.
func (v *Voyage) Quality() string {
	switch {
	case v.Method == MethodDefaultIntensity:
		return "default"
	case v.Method != MethodBottomUp:
		return "none"
	case v.AISDistance && v.AISCargo:
		return "primary"
	}
	return "modelled"
}

// Methodology is the method in a few paragraphs, for reports.
var Methodology = []string{
	"Scope: GHG Protocol Scope 3 category 4 (upstream transportation) and category 9 (downstream transportation) for the sea legs of the reporting entity's cargo, quantified per ISO 14083:2023 and the GLEC Framework v3.0; each voyage is the leg between two port calls.",
	"Fuel is estimated bottom-up with the Fourth IMO GHG Study 2020 method: main-engine power = 0.75 x MCR x (draught/design draught)^(2/3) x (speed/Vref)^3 / (weather x fouling factors), with MCR and Vref from the EEXI regressions on deadweight when not known; fuel = power x hours x SFC, SFC by engine and fuel with the Study's load curve; auxiliary engines and boilers by ship type, size and phase (sea, manoeuvring, anchor, berth) from the Study's Table 17.",
	"Distance is summed along the AIS track, or the sea-lane distance when the track is sparse, or the caller's distance_nm. Cargo comes from the port-call draught estimate. Tonne-miles = cargo x distance; intensity = emissions / tonne-miles.",
	"Tank-to-wake CO2e = fuel x Cf (IMO) plus LNG methane slip x GWP100 29.8 (IPCC AR6); well-to-wake adds FuelEU Maritime Annex II well-to-tank factors. Where the AIS track covers less than half of the leg, a default intensity for the vessel class (GLEC v3.0) replaces the bottom-up model, and the voyage says so.",
	"Bounds: every input carries a stated uncertainty (engine power, SFC, speed, draught, auxiliary power, cargo, distance coverage, well-to-tank, default intensity); relative widths combine in quadrature on a log scale, so missing inputs widen the bounds. Totals add the lows and the highs, which treats voyages as fully correlated (conservative).",
}
