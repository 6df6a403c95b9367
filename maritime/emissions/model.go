package emissions

import (
	"fmt"
	"math"

	"overwatch/maritime/vessel"
)

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
