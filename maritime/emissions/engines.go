package emissions

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// efLog reads factors and records their names.
type efLog struct{ names []string }

// v returns the named factor; a missing name is a bug in the model.
func (l *efLog) v(name string) float64 {
	v, ok := emissionFactorIndex().value[name]
	if !ok {
		panic(fmt.Sprintf("overwatch: no emission factor %q", name))
	}
	if !slices.Contains(l.names, name) {
		l.names = append(l.names, name)
	}
	return v
}

// auxBin returns the key prefix of the size bin of table that size falls
// in: the largest lower bound not above size.
func (l *efLog) auxBin(table string, size float64) string {
	bins := emissionFactorIndex().bins[table]
	lo := 0.0
	for _, b := range bins {
		if size >= b {
			lo = b
		}
	}
	return table + "." + strconv.FormatFloat(lo, 'f', -1, 64)
}

// fuelFactors returns the tank-to-wake and well-to-tank tonnes of CO2e per
// tonne of fuel, and the spread of the first (LNG: methane slip between the
// FuelEU Maritime defaults for slow-speed diesel and medium-speed Otto).
func (m *voyageModel) fuelFactors() (ttw, wtt float64, s emSpread) {
	v, f := m.log.v, string(m.out.Fuel)
	ttw = v("cf." + f)
	if m.out.Fuel == FuelLNG {
		gwp, slip, low := v("gwp100.ch4"), v("slip.lng")/100, v("slip.lng.low")/100
		cf := ttw
		ttw = (1-slip)*cf + slip*gwp
		w := math.Log(ttw / ((1-low)*cf + low*gwp))
		s.lo = w * w
	}
	return ttw, v("wtt."+f) * v("lcv."+f) / 1000, s
}

// speeds returns the speed bands over the leg's distance and the speed
// uncertainty: speed_knots, the AIS bands rescaled to the distance, the
// mean speed, or a default share of Vref.
func (m *voyageModel) speeds(vref float64) ([]SpeedBand, float64) {
	in, out, v, dist := m.in, m.out, m.log.v, m.out.DistanceNM
	switch {
	case in.SpeedKnots > 0:
		out.SpeedSource = "override"
		m.flag(FlagSpeedOverride)
		return []SpeedBand{{in.SpeedKnots, dist / in.SpeedKnots}}, 0
	case len(in.SpeedBands) > 0:
		sailed := 0.0
		for _, b := range in.SpeedBands {
			sailed += b.Knots * b.Hours
		}
		bands := make([]SpeedBand, len(in.SpeedBands))
		for i, b := range in.SpeedBands {
			bands[i] = SpeedBand{b.Knots, b.Hours * dist / sailed}
		}
		out.SpeedSource = "ais"
		return bands, v("unc.speed.ais")
	case in.MeanSpeedKnots > 0 || in.HoursAtSea > 0:
		s := cmpOr(in.MeanSpeedKnots, dist/in.HoursAtSea)
		out.SpeedSource = "ais_mean"
		return []SpeedBand{{s, dist / s}}, v("unc.speed.mean")
	}
	s := vref * v("speed.default_share_of_vref")
	out.SpeedSource = "assumed"
	m.flag(FlagSpeedAssumed)
	return []SpeedBand{{s, dist / s}}, v("unc.speed.default")
}

// draughtRatio returns actual over design draught and its uncertainty.
func (m *voyageModel) draughtRatio() (float64, float64) {
	in, v := m.in, m.log.v
	if in.DraughtM > 0 && in.DesignDraughtM > 0 {
		return min(max(in.DraughtM/in.DesignDraughtM, 0.3), 1.2), 0
	}
	m.flag(FlagDraughtAssumed)
	if in.Ballast {
		return v("draught.ballast_ratio"), v("unc.draught")
	}
	return 1, v("unc.draught")
}

// mainEngine returns the fuel (t) and load of the main engine at knots for
// hours: load = delta_w x ratio^(2/3) x (knots/Vref)^3 / (eta_w x eta_f),
// capped at 1; fuel = load x MCR x hours x SFC(load).
func (m *voyageModel) mainEngine(mcr, vref, knots, ratio, hours float64) (float64, float64) {
	v, f := m.log.v, string(m.out.Fuel)
	etaW := v("me.eta_w.large")
	if m.dwt < v("me.eta_w.threshold") {
		etaW = v("me.eta_w.small")
	}
	load := v("me.delta_w") * math.Pow(ratio, v("me.draught_exponent")) * math.Pow(knots/vref, 3) / (etaW * v("me.eta_f"))
	if !(load <= 1) {
		load = 1
		m.flag(FlagLoadCapped)
	}
	engine := "sfc.me.ssd." + f
	switch {
	case m.out.Fuel == FuelLNG:
		engine = "sfc.me.lng"
	case mcr < v("me.msd_below_kw"):
		engine = "sfc.me.msd." + f
	}
	sfc := v(engine) * (v("sfc.curve.a")*load*load + v("sfc.curve.b")*load + v("sfc.curve.c"))
	return load * mcr * hours * sfc / 1e6, load
}

// auxiliary returns the fuel (t) of the auxiliary engines and boilers over
// the phases of the voyage.
func (m *voyageModel) auxiliary(table string, seaHours float64) (float64, float64) {
	in, v, f := m.in, m.log.v, string(m.out.Fuel)
	size := m.dwt
	switch table {
	case "container":
		size /= v("size.container_dwt_per_teu")
	case "liquefied_gas":
		size *= v("size.gas_cbm_per_dwt")
	}
	bin := m.log.auxBin(table, size)
	var ae, boiler float64
	for _, p := range [...]struct {
		phase string
		hours float64
	}{{"sea", seaHours}, {"manoeuvring", in.HoursManoeuvring}, {"anchor", in.HoursAtAnchor}, {"berth", in.HoursAtBerth}} {
		ae += v("aux_kw."+bin+"."+p.phase) * p.hours
		boiler += v("boiler_kw."+bin+"."+p.phase) * p.hours
	}
	return ae * v("sfc.ae."+f) / 1e6, boiler * v("sfc.boiler."+f) / 1e6
}

// cmpOr returns a if it is positive, else b.
func cmpOr(a, b float64) float64 {
	if a > 0 {
		return a
	}
	return b
}
