package emissions

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"overwatch"

	"overwatch/maritime/vessel"
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

// ComputeVoyage computes a voyage's emissions: bottom-up (Fourth IMO GHG
// Study 2020) when the vessel's size and the leg are known well enough,
// else from the vessel class's default intensity, flagged with the reason.
// It never returns NaN, infinities or negative numbers.
func ComputeVoyage(in VoyageInput) (out Voyage) {
	in = sanitizeVoyage(in)
	out = Voyage{IMO: in.IMO, Name: in.Name, From: in.From, To: in.To,
		Departure: in.Departure, Arrival: in.Arrival, Commodity: in.Commodity, Method: MethodNone}
	out.Flags = make([]Flag, 0, 4)
	m := &voyageModel{in: &in, out: &out, log: &efLog{}}
	defer func() { out.Factors = m.log.names }()
	if _, ok := classTables[in.Class]; !ok {
		in.Class = VesselClassOf(in.ShipType)
	}
	out.Class = in.Class
	out.Fuel = DefaultFuel(in.Class)
	if f, ok := ParseFuelType(string(in.Fuel)); ok {
		out.Fuel = f
		m.flag(FlagFuelOverride)
	}
	if !m.distance() {
		m.flag(FlagNoDistance)
		out.Reason = "no distance: no AIS track, sea-lane distance or distance_nm"
		return out
	}
	m.size()
	m.cargo()
	switch {
	case m.dwt <= 0 && out.CargoTonnes.Central <= 0 && !in.Ballast:
		m.flag(FlagNoSize)
		out.Reason = "no vessel size and no cargo estimate"
	case m.dwt <= 0:
		m.flag(FlagNoSize)
		m.defaultIntensity("vessel size unknown: no DWT and no dimensions")
	case m.sparse && in.SpeedKnots <= 0:
		m.defaultIntensity(fmt.Sprintf("AIS track covers %.0f %% of the leg (minimum %.0f %%)",
			100*in.TrackCoverage, 100*m.log.v("coverage.min")))
	default:
		m.bottomUp()
	}
	return out
}

// sanitizeVoyage replaces NaN, infinite and negative numbers by zero (unknown) and
// clamps the coverage to 0-1.
func sanitizeVoyage(in VoyageInput) VoyageInput {
	for _, p := range []*float64{&in.DWT, &in.DesignDraughtM, &in.DraughtM, &in.LengthM, &in.BeamM,
		&in.MainEnginePowerKW, &in.DesignSpeedKnots, &in.TrackDistanceNM, &in.TrackCoverage,
		&in.SeaLaneDistanceNM, &in.HoursAtSea, &in.MeanSpeedKnots, &in.HoursManoeuvring,
		&in.HoursAtAnchor, &in.HoursAtBerth, &in.CargoTonnes, &in.DistanceNM, &in.SpeedKnots} {
		*p = knownQty(*p)
	}
	in.TrackCoverage = min(in.TrackCoverage, 1)
	bands := make([]SpeedBand, 0, len(in.SpeedBands))
	for _, b := range in.SpeedBands {
		if b.Knots, b.Hours = knownQty(b.Knots), knownQty(b.Hours); b.Knots > 0 && b.Hours > 0 {
			bands = append(bands, b)
		}
	}
	in.SpeedBands = bands
	return in
}

// knownQty returns v, or 0 (unknown) for NaN, infinities, negatives and
// values below 1e-6 or beyond any ship (1e12).
func knownQty(v float64) float64 {
	if math.IsNaN(v) || v < 1e-6 || v > 1e12 {
		return 0
	}
	return v
}

// emSpread holds the squared log-widths below and above a central value; the
// relative uncertainties of independent factors of a product add in it.
type emSpread struct{ lo, hi float64 }

// with adds a factor known to within ±u (a share), its log-width scaled by k
// (the exponent with which it enters).
func (s emSpread) with(u, k float64) emSpread {
	w := k * math.Log1p(u)
	return emSpread{s.lo + w*w, s.hi + w*w}
}

// plus adds the independent emSpread t.
func (s emSpread) plus(t emSpread) emSpread { return emSpread{s.lo + t.lo, s.hi + t.hi} }

// mixSpread is the emSpread of a sum of two independent parts with shares sa, sb.
func mixSpread(a, b emSpread, sa, sb float64) emSpread {
	return emSpread{sa*sa*a.lo + sb*sb*b.lo, sa*sa*a.hi + sb*sb*b.hi}
}

// of returns the bounds of central c.
func (s emSpread) of(c float64) Bounds {
	return Bounds{c * math.Exp(-math.Sqrt(s.lo)), c, c * math.Exp(math.Sqrt(s.hi))}
}

// splitShares returns a/(a+b) and b/(a+b), or 1, 0 when both are zero.
func splitShares(a, b float64) (float64, float64) {
	if a+b <= 0 {
		return 1, 0
	}
	return a / (a + b), b / (a + b)
}

// voyageModel is one ComputeVoyage call in progress.
type voyageModel struct {
	in           *VoyageInput
	out          *Voyage
	log          *efLog
	dwt          float64
	dwtEstimated bool
	sparse       bool    // the AIS track covers too little of the leg
	uDist        float64 // distance uncertainty, share
	uCargo       float64 // cargo uncertainty, share
}

func (m *voyageModel) flag(f Flag) {
	if !m.out.HasFlag(f) {
		m.out.Flags = append(m.out.Flags, f)
	}
}

// distance picks the leg's distance: distance_nm, else the AIS track if it
// covers enough of the leg, else the sea-lane distance, else the sparse
// track. It reports false when there is none.
func (m *voyageModel) distance() bool {
	in, out, v := m.in, m.out, m.log.v
	m.sparse = in.TrackCoverage < v("coverage.min")
	gap := v("unc.distance.base") + v("unc.distance.gap")*(1-in.TrackCoverage)
	switch {
	case in.DistanceNM > 0:
		out.DistanceNM, out.DistanceSource = in.DistanceNM, "override"
		m.flag(FlagDistanceOverride)
	case in.TrackDistanceNM > 0 && !m.sparse:
		out.DistanceNM, out.DistanceSource, m.uDist, out.AISDistance = in.TrackDistanceNM, "ais", gap, true
		if in.TrackCoverage < 1 {
			m.flag(FlagPartialTrack)
		}
	case in.SeaLaneDistanceNM > 0:
		out.DistanceNM, out.DistanceSource, m.uDist = in.SeaLaneDistanceNM, "sea_lane", v("unc.distance.sea_lane")
		m.flag(FlagSeaLaneDistance)
	case in.TrackDistanceNM > 0:
		out.DistanceNM, out.DistanceSource, m.uDist = in.TrackDistanceNM, "ais", gap
		m.flag(FlagPartialTrack)
	default:
		out.DistanceSource = "none"
		return false
	}
	return true
}

// size sets the deadweight: given, or estimated from the AIS dimensions.
func (m *voyageModel) size() {
	in := m.in
	if m.dwt = in.DWT; m.dwt > 0 {
		return
	}
	draught := cmpOr(in.DesignDraughtM, in.DraughtM)
	if d, ok := vessel.EstimateDWT(in.ShipType, in.LengthM, in.BeamM, draught); ok {
		m.dwt, m.dwtEstimated = d, true
		m.flag(FlagDWTEstimated)
	}
}

// cargo sets the cargo and tonne-miles: none in ballast, the draught
// estimate, else a default share of the deadweight.
func (m *voyageModel) cargo() {
	in, out, v := m.in, m.out, m.log.v
	var c float64
	switch {
	case in.Ballast:
		m.flag(FlagBallast)
	case in.CargoTonnes > 0:
		q := in.CargoQuality
		if q != CargoHigh && q != CargoMedium {
			q = CargoLow
		}
		c, m.uCargo, out.AISCargo = in.CargoTonnes, v("unc.cargo."+string(q)), true
	case m.dwt > 0:
		c, m.uCargo = m.dwt*v("cargo.default_share_of_dwt"), v("unc.cargo.assumed")
		m.flag(FlagCargoAssumed)
	}
	out.CargoTonnes = emSpread{}.with(m.uCargo, 1).of(c)
	out.TonneMiles = emSpread{}.with(m.uCargo, 1).with(m.uDist, 1).of(c * out.DistanceNM)
}

// bottomUp is the Fourth IMO GHG Study 2020 model: main engine by speed
// band and manoeuvring, auxiliary engines and boilers by phase.
func (m *voyageModel) bottomUp() {
	in, out, v := m.in, m.out, m.log.v
	out.Method = MethodBottomUp
	tables := classTables[in.Class]
	mcr, vref, uPow := in.MainEnginePowerKW, in.DesignSpeedKnots, v("unc.me_power.registry")
	if in.Class == ClassOther {
		m.flag(FlagProxyClass)
	}
	if mcr <= 0 || vref <= 0 {
		uPow = v("unc.me_power")
		if m.dwtEstimated || in.Class == ClassOther {
			uPow = v("unc.me_power.estimated")
		}
		if mcr <= 0 {
			mcr = v("me.mcr."+tables[0]+".a") * math.Pow(m.dwt, v("me.mcr."+tables[0]+".b"))
		}
		if vref <= 0 {
			vref = v("me.vref."+tables[0]+".a") * math.Pow(m.dwt, v("me.vref."+tables[0]+".b"))
		}
	}
	out.MainEnginePowerKW, out.DesignSpeedKnots = mcr, vref
	bands, uSpeed := m.speeds(vref)
	ratio, uDraught := m.draughtRatio()
	var me, seaHours, loadHours float64
	for _, b := range bands {
		f, load := m.mainEngine(mcr, vref, b.Knots, ratio, b.Hours)
		me, seaHours, loadHours = me+f, seaHours+b.Hours, loadHours+load*b.Hours
	}
	if in.HoursManoeuvring > 0 {
		f, _ := m.mainEngine(mcr, vref, min(v("speed.manoeuvring"), vref), ratio, in.HoursManoeuvring)
		me += f
	}
	if seaHours > 0 {
		out.MainEngineLoad = loadHours / seaHours
	}
	ae, boiler := m.auxiliary(tables[1], seaHours)
	out.MainEngineFuelTonnes, out.AuxiliaryFuelTonnes, out.BoilerFuelTonnes = me, ae, boiler
	ttwF, wttF, sCf := m.fuelFactors()
	sME := emSpread{}.with(uPow, 1).with(v("unc.sfc"), 1).with(uSpeed, 2).with(uDraught, 2.0/3)
	sAux := emSpread{}.with(v("unc.aux_power"), 1).with(v("unc.sfc"), 1)
	a, b := splitShares(me, ae+boiler)
	sFuel := mixSpread(sME.with(m.uDist, 1), sAux, a, b)
	sInt := mixSpread(sME, sAux, a, b).with(m.uCargo, 1)
	m.finish(me+ae+boiler, ttwF, wttF, sFuel, sInt, sCf)
}

// defaultIntensity replaces the bottom-up model by the class's default
// tank-to-wake intensity (HFO), converted to the fuel by energy.
func (m *voyageModel) defaultIntensity(reason string) {
	out, v, f := m.out, m.log.v, string(m.out.Fuel)
	out.Method, out.Reason = MethodDefaultIntensity, reason
	m.flag(FlagDefaultIntensity)
	ttwF, wttF, sCf := m.fuelFactors()
	perTkm := v("glec.ttw."+string(out.Class)) * (ttwF / v("lcv."+f)) / (v("cf.vlsfo") / v("lcv.vlsfo"))
	ttw := perTkm * out.CargoTonnes.Central * out.DistanceNM * v("unit.km_per_nm") / 1e6
	g := emSpread{}.with(v("unc.glec"), 1)
	m.finish(ttw/ttwF, ttwF, wttF, g.with(m.uCargo, 1).with(m.uDist, 1), g, sCf)
}

// finish sets fuel, emissions and intensities from the fuel burnt, the
// fuel's factors, the spread of the fuel, the spread of fuel per tonne-mile
// and the spread of the tank-to-wake factor.
func (m *voyageModel) finish(fuel, ttwF, wttF float64, sFuel, sInt, sCf emSpread) {
	out, uWTT := m.out, m.log.v("unc.wtt")
	ttw, wtt := fuel*ttwF, fuel*wttF
	a, b := splitShares(ttw, wtt)
	out.FactorTTW, out.FactorWTW = ttwF, ttwF+wttF
	out.FuelTonnes = sFuel.of(fuel)
	out.TTW = sFuel.plus(sCf).of(ttw)
	out.WTW = mixSpread(sFuel.plus(sCf), sFuel.with(uWTT, 1), a, b).of(ttw + wtt)
	if tm := out.TonneMiles.Central; tm > 0 {
		out.IntensityTTW = sInt.plus(sCf).of(ttw * 1e6 / tm)
		out.IntensityWTW = mixSpread(sInt.plus(sCf), sInt.with(uWTT, 1), a, b).of((ttw + wtt) * 1e6 / tm)
	}
}

// Totals sums voyages. Central values add up; Low and High are the
// sums of the voyages' lows and highs, as if every voyage erred the same way
// (conservative: wider than independent errors would give). Intensities are
// total emissions over total tonne-miles, ballast legs included; their low
// is the low emissions over the high tonne-miles, and the reverse.
type Totals struct {
	Voyages                 int     `json:"voyages"`
	DistanceNM              float64 `json:"distance_nm"`
	CargoTonnes             Bounds  `json:"cargo_tonnes"`
	TonneMiles              Bounds  `json:"tonne_miles"`
	FuelTonnes              Bounds  `json:"fuel_tonnes"`
	TTW                     Bounds  `json:"ttw_t_co2e"`
	WTW                     Bounds  `json:"wtw_t_co2e"`
	IntensityTTW            Bounds  `json:"intensity_ttw_g_per_tnm"`
	IntensityWTW            Bounds  `json:"intensity_wtw_g_per_tnm"`
	AISDistanceVoyages      int     `json:"ais_distance_voyages"`
	AISCargoVoyages         int     `json:"ais_cargo_voyages"`
	DefaultIntensityVoyages int     `json:"default_intensity_voyages"`
	NoEstimateVoyages       int     `json:"no_estimate_voyages"`
}

// Add adds a voyage to the totals.
func (t *Totals) Add(v *Voyage) {
	t.Voyages++
	t.DistanceNM += v.DistanceNM
	for _, p := range [...][2]*Bounds{{&t.CargoTonnes, &v.CargoTonnes}, {&t.TonneMiles, &v.TonneMiles},
		{&t.FuelTonnes, &v.FuelTonnes}, {&t.TTW, &v.TTW}, {&t.WTW, &v.WTW}} {
		p[0].Low, p[0].Central, p[0].High = p[0].Low+p[1].Low, p[0].Central+p[1].Central, p[0].High+p[1].High
	}
	t.AISDistanceVoyages += b2i(v.AISDistance)
	t.AISCargoVoyages += b2i(v.AISCargo)
	t.DefaultIntensityVoyages += b2i(v.Method == MethodDefaultIntensity)
	t.NoEstimateVoyages += b2i(v.Method == MethodNone)
	t.IntensityTTW, t.IntensityWTW = perTonneMile(t.TTW, t.TonneMiles), perTonneMile(t.WTW, t.TonneMiles)
}

// perTonneMile is grams per tonne-mile of tonnes e over tonne-miles tm.
func perTonneMile(e, tm Bounds) Bounds {
	if tm.Central <= 0 || tm.Low <= 0 {
		return Bounds{}
	}
	return Bounds{e.Low * 1e6 / tm.High, e.Central * 1e6 / tm.Central, e.High * 1e6 / tm.Low}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Sum returns the totals of the voyages.
func Sum(rows []Voyage) Totals {
	var t Totals
	for i := range rows {
		t.Add(&rows[i])
	}
	return t
}

// GroupBy is a dimension to total voyages by (the group_by
// parameter takes none, imo, port and commodity).
type GroupBy string

// Grouping dimensions. Port is the arrival (discharge) port of the leg, so
// that every voyage is in exactly one group; month is the arrival month
// (UTC), or the departure month when the arrival is unknown.
const (
	GroupNone        GroupBy = "none"
	GroupIMO         GroupBy = "imo"
	GroupPort        GroupBy = "port"
	GroupCommodity   GroupBy = "commodity"
	GroupMonth       GroupBy = "month"
	GroupVesselClass GroupBy = "vessel_class"
)

// ParseGroupBy returns the group_by value s; empty is none.
func ParseGroupBy(s string) (GroupBy, bool) {
	switch g := GroupBy(s); g {
	case "":
		return GroupNone, true
	case GroupNone, GroupIMO, GroupPort, GroupCommodity:
		return g, true
	}
	return "", false
}

// Key returns the group of a voyage; an unknown value is "unknown".
func (g GroupBy) Key(v *Voyage) string {
	var k string
	switch g {
	case GroupIMO:
		k = v.IMO.String()
	case GroupPort:
		k = v.To
	case GroupCommodity:
		k = v.Commodity
	case GroupVesselClass:
		k = string(v.Class)
	case GroupMonth:
		if t := v.Arrival; !t.IsZero() || !v.Departure.IsZero() {
			if t.IsZero() {
				t = v.Departure
			}
			k = t.UTC().Format("2006-01")
		}
	default:
		return "all"
	}
	return cmp.Or(k, "unknown")
}

// Group is the totals of one group.
type Group struct {
	Key string `json:"key"`
	Totals
}

// GroupVoyages totals the voyages by g, in key order; every voyage is in
// exactly one group, so the groups add up to SumEmissions. GroupNone gives
// no groups.
func GroupVoyages(rows []Voyage, g GroupBy) []Group {
	if g == GroupNone || g == "" {
		return nil
	}
	at := map[string]int{}
	var out []Group
	for i := range rows {
		k := g.Key(&rows[i])
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, Group{Key: k})
		}
		out[j].Add(&rows[i])
	}
	slices.SortFunc(out, func(a, b Group) int { return cmp.Compare(a.Key, b.Key) })
	return out
}
