package emissions

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
)

var updateEmissionsDoc = flag.Bool("update-emissions-doc", false, "rewrite the factor table in docs/emissions.md")

// near reports whether got is within 1e-9 (relative) of want.
func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func checkNear(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !near(got, want) {
		t.Errorf("%s = %.9g, want %.9g", what, got, want)
	}
}

// The hand-worked examples, one per fuel. Shared constants: delta_w 0.75,
// eta_f 0.917, eta_w 0.867 (>= 10,000 dwt) or 0.909, SFC curve 0.455 L^2 -
// 0.710 L + 1.280, fuel in tonnes = kW x h x g/kWh / 1e6.

// exampleVLSFO: a 60,000 dwt bulk carrier, MCR 10,000 kW, Vref 14 kn, laden
// at design draught (12 m), 1,200 nm at 12 kn (100 h), 2 h manoeuvring, 10 h
// at anchor, 50,000 t of cargo.
//
//	load   = 0.75 x 1 x (12/14)^3 / (0.867 x 0.917) = 0.594063
//	SFC    = 175 (SSD, HFO) x (0.455 x 0.594063^2 - 0.710 x 0.594063 + 1.280) = 178.288 g/kWh
//	ME sea = 0.594063 x 10,000 kW x 100 h x 178.288 / 1e6 = 105.914 t
//	ME man = load 0.0429733 at 5 kn, SFC 218.808: 429.733 kW x 2 h = 0.188058 t
//	AE     = (410 x 100 + 1,100 x 2 + 400 x 10) kWh x 195 / 1e6 = 9.204 t   (Table 17, bulk >= 60,000 dwt)
//	boiler = (0 x 100 + 240 x 2 + 260 x 10) kWh x 340 / 1e6 = 1.0472 t
//	fuel   = 116.354 t; TTW = x 3.114 = 362.325 t CO2e
//	WTT    = 116.354 x 13.5 g/MJ x 40.5 MJ/kg / 1000 = 63.616 t; WTW = 425.942 t
//	tonne-miles = 50,000 x 1,200 = 6.0e7; intensity = 362.325e6 / 6.0e7 = 6.0388 g/t-nm
var exampleVLSFO = VoyageInput{IMO: 9000001, Class: ClassBulkCarrier, DWT: 60000, DesignDraughtM: 12, DraughtM: 12,
	MainEnginePowerKW: 10000, DesignSpeedKnots: 14, TrackDistanceNM: 1200, TrackCoverage: 1,
	SpeedBands: []SpeedBand{{12, 100}}, HoursManoeuvring: 2, HoursAtAnchor: 10, CargoTonnes: 50000, CargoQuality: CargoHigh,
	From: "santos", To: "rotterdam", Commodity: "soybeans",
	Departure: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), Arrival: time.Date(2025, 3, 6, 0, 0, 0, 0, time.UTC)}

// exampleMGO: an 8,000 dwt general cargo ship on MGO (fuel override), MCR
// 3,000 kW (medium speed: < 5,000 kW), Vref 12 kn, draught 6.4 of 8.0 m,
// speed_knots 10 and distance_nm 500 (so 50 h at sea), 12 h at berth, 6,000 t.
//
//	load   = 0.75 x (0.8)^(2/3) x (10/12)^3 / (0.909 x 0.917) = 0.75 x 0.861774 x 0.578704 / 0.833553 = 0.448722
//	SFC    = 175 (MSD, MDO) x 1.053022 = 184.279 g/kWh
//	ME     = 0.448722 x 3,000 x 50 x 184.279 / 1e6 = 12.4035 t
//	AE     = (180 x 50 + 240 x 12) x 185 / 1e6 = 2.1978 t   (general cargo 5,000-9,999 dwt)
//	boiler = (0 x 50 + 110 x 12) x 320 / 1e6 = 0.4224 t
//	fuel   = 15.0237 t; TTW = x 3.206 = 48.166 t; WTW = + 15.0237 x 14.4 x 42.7 / 1000 = 57.404 t
//	intensity = 48.166e6 / (6,000 x 500) = 16.0553 g/t-nm
var exampleMGO = VoyageInput{IMO: 9000002, Class: ClassGeneralCargo, DWT: 8000, DesignDraughtM: 8, DraughtM: 6.4,
	MainEnginePowerKW: 3000, DesignSpeedKnots: 12, TrackDistanceNM: 480, TrackCoverage: 0.2, DistanceNM: 500, SpeedKnots: 10,
	HoursAtBerth: 12, CargoTonnes: 6000, CargoQuality: CargoMedium, Fuel: FuelMGO, From: "hamburg", To: "rotterdam"}

// exampleLNG: an 80,000 dwt LNG carrier (default fuel LNG; 160,000 m3 at 2
// m3/dwt, so Table 17's 100,000-199,999 m3 bin), MCR 26,000 kW, Vref 19.5
// kn, 200 h at 17 kn over 3,400 nm (95 % AIS coverage), 24 h at anchor.
//
//	load   = 0.75 x (17/19.5)^3 / (0.867 x 0.917) = 0.625051; SFC = 156 x 1.013977 = 158.180 g/kWh
//	ME     = 0.625051 x 26,000 x 200 x 158.180 / 1e6 = 514.129 t
//	AE     = (2,650 x 200 + 2,000 x 24) x 156 / 1e6 = 90.168 t; boiler = (150 x 200 + 300 x 24) x 285 / 1e6 = 10.602 t
//	fuel   = 614.899 t; TTW factor = (1 - 0.031) x 2.750 + 0.031 x 29.8 = 3.58855 (methane slip 3.1 %, GWP100 29.8)
//	TTW    = 2,206.59 t; WTT = 614.899 x 18.5 x 49.1 / 1000 = 558.543 t; WTW = 2,765.14 t
//	intensity = 2,206.59e6 / (65,000 x 3,400) = 9.98459 g/t-nm
var exampleLNG = VoyageInput{IMO: 9000003, Class: ClassLNGCarrier, DWT: 80000, DesignDraughtM: 11.5, DraughtM: 11.5,
	MainEnginePowerKW: 26000, DesignSpeedKnots: 19.5, TrackDistanceNM: 3400, TrackCoverage: 0.95,
	SpeedBands: []SpeedBand{{17, 200}}, HoursAtAnchor: 24, CargoTonnes: 65000, CargoQuality: CargoMedium,
	From: "ras-laffan", To: "zeebrugge", Commodity: "lng"}

// exampleMethanol: a 50,000 dwt container ship on methanol (4,167 TEU at 12
// dwt/TEU: Table 17's 3,000-4,999 TEU bin), MCR 30,000 kW, Vref 22 kn, mean
// speed 16 kn over a 2,400 nm track (150 h), 24 h at berth, 30,000 t.
//
//	load   = 0.75 x (16/22)^3 / (0.867 x 0.917) = 0.362881; SFC = 350 (SSD, methanol) x 1.082270 = 378.794 g/kWh
//	ME     = 0.362881 x 30,000 x 150 x 378.794 / 1e6 = 618.559 t
//	AE     = (1,400 x 150 + 1,100 x 24) x 370 / 1e6 = 87.468 t; boiler = (0 + 480 x 24) x 692 / 1e6 = 7.97184 t
//	fuel   = 713.998 t; TTW = x 1.375 = 981.748 t; WTT = 713.998 x 31.3 x 19.9 / 1000 = 444.728 t
//	intensity = 981.748e6 / (30,000 x 2,400) = 13.6354 g/t-nm
var exampleMethanol = VoyageInput{IMO: 9000004, Class: ClassContainer, DWT: 50000, DesignDraughtM: 13, DraughtM: 13,
	MainEnginePowerKW: 30000, DesignSpeedKnots: 22, TrackDistanceNM: 2400, TrackCoverage: 1, MeanSpeedKnots: 16,
	HoursAtBerth: 24, CargoTonnes: 30000, CargoQuality: CargoMedium, Fuel: FuelMethanol,
	From: "shanghai", To: "singapore", Commodity: "containers"}

// exampleDefault: a bulk carrier whose track covers 30 % of the leg: the
// GLEC v3.0 default 5.4 g CO2e/t-km over the 2,000 nm sea-lane distance.
//
//	TTW  = 5.4 x 40,000 t x 2,000 nm x 1.852 km/nm / 1e6 = 800.064 t; fuel = 800.064 / 3.114 = 256.925 t
//	WTW  = 800.064 + 256.925 x 13.5 x 40.5 / 1000 = 940.538 t; intensity = 5.4 x 1.852 = 10.0008 g/t-nm
var exampleDefault = VoyageInput{IMO: 9000005, Class: ClassBulkCarrier, DWT: 82000, TrackDistanceNM: 600,
	TrackCoverage: 0.3, SeaLaneDistanceNM: 2000, CargoTonnes: 40000, CargoQuality: CargoHigh, From: "santos", To: "qingdao"}

func TestComputeVoyageExamples(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                          string
		in                            VoyageInput
		fuel, ttw, wtw, tm, intensity float64
		method                        Method
		flags                         []Flag
	}{
		{"vlsfo", exampleVLSFO, 116.35367040315998, 362.32532963544014, 425.9416989283679, 6e7, 6.038755493924003, MethodBottomUp, nil},
		{"mgo", exampleMGO, 15.02370612091477, 48.166001823652756, 57.40377824328083, 3e6, 16.055333941217587, MethodBottomUp,
			[]Flag{FlagFuelOverride, FlagDistanceOverride, FlagSpeedOverride}},
		{"lng", exampleLNG, 614.898706557155, 2206.5947534156785, 2765.13799351687, 2.21e8, 9.984591644414834, MethodBottomUp,
			[]Flag{FlagPartialTrack}},
		{"methanol", exampleMethanol, 713.9984872664901, 981.7479199914238, 1426.4761577551026, 7.2e7, 13.635387777658664, MethodBottomUp,
			[]Flag{FlagFuelOverride}},
		{"default", exampleDefault, 256.9248554913295, 800.064, 940.5376647398843, 8e7, 10.0008, MethodDefaultIntensity,
			[]Flag{FlagSeaLaneDistance, FlagDefaultIntensity}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ComputeVoyage(c.in)
			if got.Method != c.method {
				t.Fatalf("method %s, want %s (%s)", got.Method, c.method, got.Reason)
			}
			checkNear(t, "fuel", got.FuelTonnes.Central, c.fuel)
			checkNear(t, "TTW", got.TTW.Central, c.ttw)
			checkNear(t, "WTW", got.WTW.Central, c.wtw)
			checkNear(t, "tonne-miles", got.TonneMiles.Central, c.tm)
			checkNear(t, "intensity", got.IntensityTTW.Central, c.intensity)
			if !slices.Equal(got.Flags, c.flags) {
				t.Errorf("flags %v, want %v", got.Flags, c.flags)
			}
			checkBounds(t, got)
		})
	}
	if v := ComputeVoyage(exampleDefault); v.Reason != "AIS track covers 30 % of the leg (minimum 50 %)" {
		t.Errorf("reason %q", v.Reason)
	}
}

func TestComputeVoyageParts(t *testing.T) {
	t.Parallel()
	v := ComputeVoyage(exampleVLSFO)
	checkNear(t, "ME fuel", v.MainEngineFuelTonnes, 105.91441268758645+0.18805771557353831)
	checkNear(t, "AE fuel", v.AuxiliaryFuelTonnes, 9.204)
	checkNear(t, "boiler fuel", v.BoilerFuelTonnes, 1.0472)
	checkNear(t, "load", v.MainEngineLoad, 0.5940629415627214)
	if v.Quality() != "primary" || !v.AISDistance || !v.AISCargo || v.Fuel != FuelVLSFO {
		t.Errorf("quality %s, fuel %s", v.Quality(), v.Fuel)
	}
	if l := ComputeVoyage(exampleLNG); l.Fuel != FuelLNG || !near(l.FactorTTW, 3.58855) {
		t.Errorf("LNG carrier: fuel %s factor %v", l.Fuel, l.FactorTTW)
	}
	if f := FactorsNamed(v.Factors); len(f) != len(v.Factors) || len(f) < 30 {
		t.Errorf("%d factors used, %d named", len(v.Factors), len(f))
	}
}

// checkBounds checks low <= central <= high, all finite and non-negative.
func checkBounds(t *testing.T, v Voyage) {
	t.Helper()
	for name, b := range map[string]Bounds{"cargo": v.CargoTonnes, "tonne-miles": v.TonneMiles, "fuel": v.FuelTonnes,
		"TTW": v.TTW, "WTW": v.WTW, "intensity TTW": v.IntensityTTW, "intensity WTW": v.IntensityWTW} {
		for _, x := range []float64{b.Low, b.Central, b.High} {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				t.Fatalf("%s: %+v not a finite non-negative number", name, b)
			}
		}
		if b.Low > b.Central || b.Central > b.High {
			t.Fatalf("%s: %+v not ordered", name, b)
		}
	}
	for _, x := range []float64{v.DistanceNM, v.FactorTTW, v.FactorWTW, v.MainEngineFuelTonnes,
		v.AuxiliaryFuelTonnes, v.BoilerFuelTonnes, v.MainEnginePowerKW, v.DesignSpeedKnots, v.MainEngineLoad} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			t.Fatalf("%v not a finite non-negative number in %+v", x, v)
		}
	}
}

// width is High/Low of b, the relative width of its range.
func width(b Bounds) float64 { return b.High / b.Low }

func TestBoundsWidenWhenInputsAreMissing(t *testing.T) {
	t.Parallel()
	full := exampleVLSFO
	steps := []struct {
		name string
		drop func(*VoyageInput)
		flag Flag
	}{
		{"engine", func(in *VoyageInput) { in.MainEnginePowerKW, in.DesignSpeedKnots = 0, 0 }, ""},
		{"dwt", func(in *VoyageInput) { in.DWT, in.LengthM, in.BeamM = 0, 229, 32.3 }, FlagDWTEstimated},
		{"speed", func(in *VoyageInput) { in.SpeedBands = nil }, FlagSpeedAssumed},
		{"draught", func(in *VoyageInput) { in.DraughtM = 0 }, FlagDraughtAssumed},
		{"coverage", func(in *VoyageInput) { in.TrackCoverage = 0.6 }, FlagPartialTrack},
	}
	in := full
	prev := ComputeVoyage(in)
	for _, s := range steps {
		s.drop(&in)
		v := ComputeVoyage(in)
		checkBounds(t, v)
		if width(v.TTW) <= width(prev.TTW) {
			t.Errorf("without %s: TTW width %.4f, not wider than %.4f", s.name, width(v.TTW), width(prev.TTW))
		}
		if s.flag != "" && !v.HasFlag(s.flag) {
			t.Errorf("without %s: flags %v lack %s", s.name, v.Flags, s.flag)
		}
		prev = v
	}
	// Cargo: the intensity widens when the estimate is worse or missing.
	prevI := ComputeVoyage(full).IntensityTTW
	for _, q := range []CargoQuality{CargoMedium, CargoLow} {
		in := full
		in.CargoQuality = q
		i := ComputeVoyage(in).IntensityTTW
		if width(i) <= width(prevI) {
			t.Errorf("cargo %s: intensity width %.4f not wider than %.4f", q, width(i), width(prevI))
		}
		prevI = i
	}
	in = full
	in.CargoTonnes = 0
	if v := ComputeVoyage(in); !v.HasFlag(FlagCargoAssumed) || width(v.IntensityTTW) <= width(prevI) {
		t.Errorf("no cargo: flags %v, width %.4f", v.Flags, width(v.IntensityTTW))
	}
	// The default intensity is wider than the bottom-up model on the same leg.
	in = full
	in.TrackCoverage, in.SeaLaneDistanceNM = 0.2, 1200
	if v := ComputeVoyage(in); v.Method != MethodDefaultIntensity || width(v.TTW) <= width(ComputeVoyage(full).TTW) {
		t.Errorf("sparse track: %s, width %.4f", v.Method, width(v.TTW))
	}
}

func TestComputeVoyageGaps(t *testing.T) {
	t.Parallel()
	if v := ComputeVoyage(VoyageInput{DWT: 50000, CargoTonnes: 1000}); v.Method != MethodNone || !v.HasFlag(FlagNoDistance) {
		t.Errorf("no distance: %s %v", v.Method, v.Flags)
	}
	if v := ComputeVoyage(VoyageInput{DistanceNM: 100}); v.Method != MethodNone || v.TTW != (Bounds{}) {
		t.Errorf("no size, no cargo: %s %+v", v.Method, v.TTW)
	}
	v := ComputeVoyage(VoyageInput{ShipType: 80, DistanceNM: 100, CargoTonnes: 1000})
	if v.Method != MethodDefaultIntensity || v.Class != ClassOilTanker || !v.HasFlag(FlagNoSize) {
		t.Errorf("no size: %s %s %v", v.Method, v.Class, v.Flags)
	}
	ballast := exampleVLSFO
	ballast.Ballast, ballast.DraughtM = true, 0
	b := ComputeVoyage(ballast)
	if b.TonneMiles.Central != 0 || b.IntensityTTW != (Bounds{}) || b.TTW.Central <= 0 || !b.HasFlag(FlagBallast) {
		t.Errorf("ballast: %+v", b)
	}
	if b.TTW.Central >= ComputeVoyage(exampleVLSFO).TTW.Central {
		t.Errorf("ballast leg (%.1f t) burns no less than laden (%.1f t)", b.TTW.Central, ComputeVoyage(exampleVLSFO).TTW.Central)
	}
}

// fleet returns n voyages cycling through the examples with varied sizes.
func fleet(n int) []VoyageInput {
	base := []VoyageInput{exampleVLSFO, exampleMGO, exampleLNG, exampleMethanol, exampleDefault}
	out := make([]VoyageInput, n)
	for i := range out {
		in := base[i%len(base)]
		in.IMO = overwatch.IMO(9000000 + i%997)
		in.DWT *= 0.5 + float64(i%11)/10
		in.CargoTonnes *= 0.5 + float64(i%7)/10
		in.Departure = time.Date(2025, time.Month(1+i%12), 1+i%28, 0, 0, 0, 0, time.UTC)
		in.Arrival = in.Departure.Add(time.Duration(24*(1+i%20)) * time.Hour)
		in.Commodity = []string{"iron ore", "coal", "grain", "", "lng"}[i%5]
		out[i] = in
	}
	return out
}

func computeAll(ins []VoyageInput) []Voyage {
	out := make([]Voyage, len(ins))
	for i, in := range ins {
		out[i] = ComputeVoyage(in)
	}
	return out
}

func TestTotalsAreSumsOfRows(t *testing.T) {
	t.Parallel()
	rows := computeAll(fleet(500))
	total := Sum(rows)
	var ttw, wtw, tm, low, high float64
	for _, r := range rows {
		ttw, wtw, tm, low, high = ttw+r.TTW.Central, wtw+r.WTW.Central, tm+r.TonneMiles.Central, low+r.TTW.Low, high+r.TTW.High
	}
	if total.Voyages != 500 || !near(total.TTW.Central, ttw) || !near(total.WTW.Central, wtw) ||
		!near(total.TonneMiles.Central, tm) || !near(total.TTW.Low, low) || !near(total.TTW.High, high) {
		t.Errorf("totals %+v, sums TTW %v WTW %v TM %v", total, ttw, wtw, tm)
	}
	checkNear(t, "fleet intensity", total.IntensityTTW.Central, ttw*1e6/tm)
	if i := total.IntensityTTW; i.Low > i.Central || i.Central > i.High {
		t.Errorf("intensity bounds %+v", i)
	}
	if total.DefaultIntensityVoyages != 100 || total.AISCargoVoyages != 500 {
		t.Errorf("counts %+v", total)
	}
	for _, g := range []GroupBy{GroupIMO, GroupPort, GroupCommodity, GroupMonth, GroupVesselClass} {
		groups := GroupVoyages(rows, g)
		var sum Totals
		for i, grp := range groups {
			if i > 0 && groups[i-1].Key >= grp.Key {
				t.Errorf("%s: keys not sorted: %q, %q", g, groups[i-1].Key, grp.Key)
			}
			sum.Voyages += grp.Voyages
			for _, p := range [][2]*Bounds{{&sum.TTW, &grp.TTW}, {&sum.WTW, &grp.WTW}, {&sum.TonneMiles, &grp.TonneMiles}} {
				p[0].Low, p[0].Central, p[0].High = p[0].Low+p[1].Low, p[0].Central+p[1].Central, p[0].High+p[1].High
			}
		}
		if sum.Voyages != total.Voyages || !near(sum.TTW.Central, total.TTW.Central) || !near(sum.TTW.High, total.TTW.High) ||
			!near(sum.WTW.Low, total.WTW.Low) || !near(sum.TonneMiles.Central, total.TonneMiles.Central) {
			t.Errorf("%s: groups add to %+v, fleet %+v", g, sum, total)
		}
	}
	if GroupVoyages(rows, GroupNone) != nil {
		t.Error("group_by none gave groups")
	}
	if g := GroupVoyages(rows, GroupCommodity); g[len(g)-1].Key != "unknown" {
		t.Errorf("commodity keys %q...", g[len(g)-1].Key)
	}
}

func TestParsers(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "none", "imo", "port", "commodity"} {
		if _, ok := ParseGroupBy(s); !ok {
			t.Errorf("group_by %q refused", s)
		}
	}
	if _, ok := ParseGroupBy("month"); ok {
		t.Error("group_by month accepted")
	}
	for _, f := range FuelTypes {
		if g, ok := ParseFuelType(string(f)); !ok || g != f {
			t.Errorf("fuel %s", f)
		}
	}
	if _, ok := ParseVesselClass("tug"); ok {
		t.Error("class tug accepted")
	}
}

func TestEmissionFactorTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, f := range Factors {
		if seen[f.Name] || f.Unit == "" || f.Source == "" || f.Version == "" || math.IsNaN(f.Value) {
			t.Errorf("factor %+v duplicate or incomplete", f)
		}
		seen[f.Name] = true
	}
	// Every class and fuel computes (a missing factor would panic).
	for _, c := range VesselClasses {
		for _, f := range FuelTypes {
			for _, in := range []VoyageInput{exampleVLSFO, exampleDefault} {
				in.Class, in.Fuel = c, f
				checkBounds(t, ComputeVoyage(in))
			}
		}
	}
}

func FuzzComputeVoyage(f *testing.F) {
	f.Add(uint8(70), 60000.0, 12.0, 12.0, 0.0, 0.0, 1200.0, 1.0, 0.0, 12.0, 100.0, 50000.0, 0.0, 0.0, uint8(0), false)
	f.Add(uint8(84), 0.0, 0.0, 5.0, 10000.0, 0.0, 300.0, 0.2, 900.0, 0.0, 0.0, 0.0, 500.0, 14.0, uint8(2), true)
	f.Add(uint8(0), math.NaN(), math.Inf(1), -1.0, 1e300, 1e-300, 5.0, 7.0, -3.0, 1e9, 1e-9, -5.0, math.NaN(), 1e12, uint8(9), false)
	f.Fuzz(func(t *testing.T, typ uint8, dwt, design, draught, mcr, vref, track, cov, lane, knots, hours, cargo,
		dist, speed float64, fuel uint8, ballast bool) {
		in := VoyageInput{ShipType: typ, DWT: dwt, DesignDraughtM: design, DraughtM: draught, LengthM: dwt / 300,
			BeamM: design * 3, MainEnginePowerKW: mcr, DesignSpeedKnots: vref, TrackDistanceNM: track, TrackCoverage: cov,
			SeaLaneDistanceNM: lane, SpeedBands: []SpeedBand{{knots, hours}, {hours, knots}}, MeanSpeedKnots: knots,
			HoursManoeuvring: hours / 10, HoursAtAnchor: hours, HoursAtBerth: cargo / 1000, CargoTonnes: cargo,
			CargoQuality: []CargoQuality{"", CargoHigh, CargoMedium, CargoLow}[fuel%4], Ballast: ballast,
			Fuel: FuelType([]string{"", "vlsfo", "mgo", "lng", "methanol", "hfo"}[fuel%6]), DistanceNM: dist, SpeedKnots: speed}
		in.Class = VesselClasses[int(typ)%len(VesselClasses)]
		if typ%3 == 0 {
			in.Class = ""
		}
		v := ComputeVoyage(in)
		checkBounds(t, v)
		var tot Totals
		tot.Add(&v)
		tot.Add(&v)
		checkBounds(t, Voyage{CargoTonnes: tot.CargoTonnes, TonneMiles: tot.TonneMiles, FuelTonnes: tot.FuelTonnes,
			TTW: tot.TTW, WTW: tot.WTW, IntensityTTW: tot.IntensityTTW, IntensityWTW: tot.IntensityWTW})
	})
}

// BenchmarkEmissionsJSON10k measures the JSON answer for 10,000 voyages:
// the model for each, the fleet totals, grouping by IMO and the encoding.
func BenchmarkEmissionsJSON10k(b *testing.B) {
	ins := fleet(10000)
	b.ReportAllocs()
	for b.Loop() {
		rows := computeAll(ins)
		body := struct {
			Fleet   Totals   `json:"fleet"`
			Grouped []Group  `json:"grouped"`
			Voyages []Voyage `json:"voyages"`
		}{Sum(rows), GroupVoyages(rows, GroupIMO), rows}
		if err := json.NewEncoder(io.Discard).Encode(body); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEmissionsDocFactorTable keeps the factor table of docs/emissions.md
// equal to EmissionFactors (go test -run EmissionsDoc -update-emissions-doc).
func TestEmissionsDocFactorTable(t *testing.T) {
	t.Parallel()
	const path, begin, end = "../../docs/emissions.md", "<!-- factor-table:begin -->\n", "<!-- factor-table:end -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok1 := strings.Cut(string(doc), begin)
	_, tail, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the factor-table markers", path)
	}
	want := head + begin + emissionsFactorMarkdown() + end + tail
	if *updateEmissionsDoc {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if string(doc) != want {
		t.Errorf("%s: factor table differs from EmissionFactors; run go test -run EmissionsDoc -update-emissions-doc", path)
	}
}

// emissionsFactorMarkdown renders EmissionFactors: one table of the factors,
// one of the auxiliary engine (aux_kw) and boiler (boiler_kw) power.
func emissionsFactorMarkdown() string {
	var b, aux strings.Builder
	b.WriteString("| Factor | Value | Unit | Source | Version |\n|---|---:|---|---|---|\n")
	aux.WriteString("\nAuxiliary engine / boiler power in kW by phase (" + srcIMO4T17 + ", version " + verIMO4 +
		"); sizes in dwt, TEU for containers, m3 for liquefied gas carriers; factor names `aux_kw.<table>.<size>.<phase>` and `boiler_kw.<table>.<size>.<phase>`.\n\n" +
		"| Table | Size from | Berth | Anchor | Manoeuvring | Sea |\n|---|---:|---:|---:|---:|---:|\n")
	for _, f := range Factors {
		name, ok := strings.CutPrefix(f.Name, "aux_kw.")
		if !ok {
			if !strings.HasPrefix(f.Name, "boiler_kw.") {
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", f.Name, strconv.FormatFloat(f.Value, 'g', 6, 64), f.Unit, f.Source, f.Version)
			}
			continue
		}
		if !strings.HasSuffix(name, ".berth") {
			continue
		}
		bin := strings.TrimSuffix(name, ".berth")
		table, size, _ := strings.Cut(bin, ".")
		cells := make([]string, 4)
		for i, ph := range []string{"berth", "anchor", "manoeuvring", "sea"} {
			a, _ := FactorValue("aux_kw." + bin + "." + ph)
			bo, _ := FactorValue("boiler_kw." + bin + "." + ph)
			cells[i] = fmt.Sprintf("%g / %g", a, bo)
		}
		fmt.Fprintf(&aux, "| %s | %s | %s |\n", table, size, strings.Join(cells, " | "))
	}
	return b.String() + aux.String()
}
