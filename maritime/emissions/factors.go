package emissions

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ModelVersion names this version of the voyage emissions model
// and its factor table; it is printed on every report so that a figure can
// be traced to the factors that produced it.
const ModelVersion = "overwatch-emissions-1 (2026)"

// Factor is one row of the factor table: every number the emissions
// model uses, with its unit, where it comes from and the version of that
// source. Name is a dotted key ("cf.vlsfo", "aux_kw.bulk_carrier.60000.sea")
// that the model looks values up by.
type Factor struct {
	Name    string  `json:"name"`
	Value   float64 `json:"value"`
	Unit    string  `json:"unit"`
	Source  string  `json:"source"`
	Version string  `json:"version"`
}

// Sources of the factor table, cited in full in docs/emissions.md.
const (
	srcIMO4      = "Fourth IMO GHG Study 2020 (IMO, 2021)"
	srcIMO4Eq8   = srcIMO4 + ", eq. 8 and sec. 2.2.4 (main engine power)"
	srcIMO4T17   = srcIMO4 + ", Table 17 (auxiliary engine and boiler power by phase)"
	srcIMO4T19   = srcIMO4 + ", Table 19 (SFC base, engines built after 2000)"
	srcIMO4SFC   = srcIMO4 + ", SFC load curve (as in the Third IMO GHG Study 2014)"
	srcCf        = "IMO MEPC.364(79) EEDI guidelines, Cf table; same values in EU MRV Reg. (EU) 2015/757 Annex I"
	srcFuelEU    = "Regulation (EU) 2023/1805 (FuelEU Maritime), Annex II default factors"
	srcEEXI      = "IMO MEPC.350(78) 2022 EEXI calculation guidelines, parameters of the approximated Vref (Vref,avg and MCRavg)"
	srcAR6       = "IPCC AR6 WG1 (2021), Table 7.15, GWP100 of fossil methane"
	srcGLEC      = "GLEC Framework v3.0 (Smart Freight Centre, 2023), Table 12, bulk carrier 35,000-59,999 dwt, HFO, TTW"
	srcInterim   = "Overwatch interim: IMO CII reference line (MEPC.353(78)) at a typical size / 1.852 / 55 % utilisation; replace with the GLEC v3.0 value"
	srcOverwatch = "Overwatch assumption (docs/emissions.md)"
	verIMO4      = "2020"
	verEEXI      = "MEPC.350(78)"
	verOW        = ModelVersion
)

// Factors is the factor table of the emissions model, in the order
// docs/emissions.md lists it. The model reads every number from it.
var Factors = []Factor{
	// Fuel: carbon factor Cf, lower calorific value, well-to-tank factor.
	{"cf.vlsfo", 3.114, "t CO2/t fuel", srcCf + " (HFO, RME-RMK; VLSFO taken as HFO)", "MEPC.364(79)"},
	{"cf.mgo", 3.206, "t CO2/t fuel", srcCf + " (MDO/MGO, DMX-DMB)", "MEPC.364(79)"},
	{"cf.lng", 2.750, "t CO2/t fuel", srcCf, "MEPC.364(79)"},
	{"cf.methanol", 1.375, "t CO2/t fuel", srcCf, "MEPC.364(79)"},
	{"lcv.vlsfo", 40.5, "MJ/kg", srcFuelEU + " (HFO)", "2023/1805"},
	{"lcv.mgo", 42.7, "MJ/kg", srcFuelEU + " (MDO/MGO)", "2023/1805"},
	{"lcv.lng", 49.1, "MJ/kg", srcFuelEU, "2023/1805"},
	{"lcv.methanol", 19.9, "MJ/kg", srcFuelEU + " (fossil methanol)", "2023/1805"},
	{"wtt.vlsfo", 13.5, "g CO2e/MJ", srcFuelEU + " (HFO)", "2023/1805"},
	{"wtt.mgo", 14.4, "g CO2e/MJ", srcFuelEU + " (MDO/MGO)", "2023/1805"},
	{"wtt.lng", 18.5, "g CO2e/MJ", srcFuelEU + " (fossil LNG)", "2023/1805"},
	{"wtt.methanol", 31.3, "g CO2e/MJ", srcFuelEU + " (natural-gas methanol)", "2023/1805"},
	{"slip.lng", 3.1, "% of fuel mass", srcFuelEU + " (Cslip, LNG Otto dual fuel medium speed)", "2023/1805"},
	{"slip.lng.low", 0.2, "% of fuel mass", srcFuelEU + " (Cslip, LNG Diesel dual fuel slow speed)", "2023/1805"},
	{"gwp100.ch4", 29.8, "t CO2e/t CH4", srcAR6, "AR6"},

	// Main engine power and load (Fourth IMO GHG Study, eq. 8).
	{"me.delta_w", 0.75, "share of MCR", srcEEXI + " (Vref is the speed at 75 % MCR)", verEEXI},
	{"me.eta_w.small", 0.909, "factor", srcIMO4Eq8 + " (weather, ships < 10,000 dwt)", verIMO4},
	{"me.eta_w.large", 0.867, "factor", srcIMO4Eq8 + " (weather, ships >= 10,000 dwt)", verIMO4},
	{"me.eta_w.threshold", 10000, "dwt", srcIMO4Eq8, verIMO4},
	{"me.eta_f", 0.917, "factor", srcIMO4Eq8 + " (hull fouling)", verIMO4},
	{"me.draught_exponent", 2.0 / 3.0, "exponent", srcIMO4Eq8 + " (Admiralty law)", verIMO4},
	{"me.msd_below_kw", 5000, "kW MCR", srcOverwatch + " (main engines below this are medium-speed)", verOW},
	{"me.mcr.bulk_carrier.a", 23.7510, "kW", srcEEXI + " (bulk carrier, MCR = a x DWT^b)", verEEXI},
	{"me.mcr.bulk_carrier.b", 0.54087, "exponent", srcEEXI, verEEXI},
	{"me.vref.bulk_carrier.a", 10.6585, "kn", srcEEXI + " (bulk carrier, Vref = a x DWT^b)", verEEXI},
	{"me.vref.bulk_carrier.b", 0.02706, "exponent", srcEEXI, verEEXI},
	{"me.mcr.tanker.a", 22.8415, "kW", srcEEXI + " (tanker: oil and chemical)", verEEXI},
	{"me.mcr.tanker.b", 0.55826, "exponent", srcEEXI, verEEXI},
	{"me.vref.tanker.a", 8.1358, "kn", srcEEXI + " (tanker: oil and chemical)", verEEXI},
	{"me.vref.tanker.b", 0.05383, "exponent", srcEEXI, verEEXI},
	{"me.mcr.container.a", 0.5042, "kW", srcEEXI + " (containership)", verEEXI},
	{"me.mcr.container.b", 1.03046, "exponent", srcEEXI, verEEXI},
	{"me.vref.container.a", 3.2395, "kn", srcEEXI + " (containership)", verEEXI},
	{"me.vref.container.b", 0.18294, "exponent", srcEEXI, verEEXI},
	{"me.mcr.general_cargo.a", 0.8816, "kW", srcEEXI + " (general cargo ship; also the proxy for other ships)", verEEXI},
	{"me.mcr.general_cargo.b", 0.92050, "exponent", srcEEXI, verEEXI},
	{"me.vref.general_cargo.a", 2.4538, "kn", srcEEXI + " (general cargo ship)", verEEXI},
	{"me.vref.general_cargo.b", 0.18832, "exponent", srcEEXI, verEEXI},
	{"me.mcr.gas_carrier.a", 21.4704, "kW", srcEEXI + " (gas carrier)", verEEXI},
	{"me.mcr.gas_carrier.b", 0.59522, "exponent", srcEEXI, verEEXI},
	{"me.vref.gas_carrier.a", 7.4462, "kn", srcEEXI + " (gas carrier)", verEEXI},
	{"me.vref.gas_carrier.b", 0.07604, "exponent", srcEEXI, verEEXI},
	{"me.mcr.lng_carrier.a", 20.7096, "kW", srcEEXI + " (LNG carrier)", verEEXI},
	{"me.mcr.lng_carrier.b", 0.63477, "exponent", srcEEXI, verEEXI},
	{"me.vref.lng_carrier.a", 11.0536, "kn", srcEEXI + " (LNG carrier)", verEEXI},
	{"me.vref.lng_carrier.b", 0.05030, "exponent", srcEEXI, verEEXI},

	// Specific fuel consumption, engines built after 2000, and its load curve
	// SFC(load) = SFC_base x (a x load^2 + b x load + c).
	{"sfc.me.ssd.vlsfo", 175, "g/kWh", srcIMO4T19 + " (SSD, HFO)", verIMO4},
	{"sfc.me.ssd.mgo", 165, "g/kWh", srcIMO4T19 + " (SSD, MDO)", verIMO4},
	{"sfc.me.ssd.methanol", 350, "g/kWh", srcIMO4T19 + " (SSD, methanol)", verIMO4},
	{"sfc.me.msd.vlsfo", 185, "g/kWh", srcIMO4T19 + " (MSD, HFO)", verIMO4},
	{"sfc.me.msd.mgo", 175, "g/kWh", srcIMO4T19 + " (MSD, MDO)", verIMO4},
	{"sfc.me.msd.methanol", 370, "g/kWh", srcIMO4T19 + " (MSD, methanol)", verIMO4},
	{"sfc.me.lng", 156, "g/kWh", srcIMO4T19 + " (LNG-Otto medium speed)", verIMO4},
	{"sfc.ae.vlsfo", 195, "g/kWh", srcIMO4T19 + " (auxiliary engine, HFO)", verIMO4},
	{"sfc.ae.mgo", 185, "g/kWh", srcIMO4T19 + " (auxiliary engine, MDO)", verIMO4},
	{"sfc.ae.lng", 156, "g/kWh", srcIMO4T19 + " (auxiliary engine, LNG)", verIMO4},
	{"sfc.ae.methanol", 370, "g/kWh", srcOverwatch + " (MSD methanol value of Table 19)", verOW},
	{"sfc.boiler.vlsfo", 340, "g/kWh", srcIMO4T19 + " (boiler, HFO)", verIMO4},
	{"sfc.boiler.mgo", 320, "g/kWh", srcIMO4T19 + " (boiler, MDO)", verIMO4},
	{"sfc.boiler.lng", 285, "g/kWh", srcIMO4T19 + " (boiler, LNG)", verIMO4},
	{"sfc.boiler.methanol", 692, "g/kWh", srcOverwatch + " (HFO boiler 340 g/kWh x 40.5/19.9 MJ/kg)", verOW},
	{"sfc.curve.a", 0.455, "coefficient", srcIMO4SFC, verIMO4},
	{"sfc.curve.b", -0.710, "coefficient", srcIMO4SFC, verIMO4},
	{"sfc.curve.c", 1.280, "coefficient", srcIMO4SFC, verIMO4},

	// Size conversions for the auxiliary power bins, and operating defaults.
	{"size.container_dwt_per_teu", 12, "dwt/TEU", srcOverwatch, verOW},
	{"size.gas_cbm_per_dwt", 2.0, "m3/dwt", srcOverwatch, verOW},
	{"speed.manoeuvring", 5, "kn", srcOverwatch, verOW},
	{"speed.default_share_of_vref", 0.8, "share of Vref", srcOverwatch, verOW},
	{"draught.ballast_ratio", 0.6, "share of design draught", srcOverwatch, verOW},
	{"cargo.default_share_of_dwt", 0.75, "share of DWT", srcOverwatch, verOW},
	{"coverage.min", 0.5, "share of leg", srcOverwatch + " (below it the track is too sparse)", verOW},
	{"unit.km_per_nm", 1.852, "km/nm", "definition of the international nautical mile", "SI"},

	// Default intensities when the track is too sparse (tank-to-wake, HFO).
	{"glec.ttw.bulk_carrier", 5.4, "g CO2e/t-km", srcGLEC, "v3.0"},
	{"glec.ttw.oil_tanker", 4.6, "g CO2e/t-km", srcInterim + " (100,000 dwt)", verOW},
	{"glec.ttw.chemical_tanker", 12.3, "g CO2e/t-km", srcInterim + " (20,000 dwt)", verOW},
	{"glec.ttw.container", 9.8, "g CO2e/t-km", srcInterim + " (50,000 dwt)", verOW},
	{"glec.ttw.general_cargo", 12.3, "g CO2e/t-km", srcInterim + " (20,000 dwt)", verOW},
	{"glec.ttw.lng_carrier", 10.6, "g CO2e/t-km", srcInterim + " (100,000 dwt, 50 % utilisation)", verOW},
	{"glec.ttw.gas_carrier", 7.9, "g CO2e/t-km", srcInterim + " (50,000 dwt)", verOW},
	{"glec.ttw.other", 12.3, "g CO2e/t-km", srcInterim + " (general cargo value)", verOW},

	// Stated uncertainties: half-widths of the ~95 % range, as a share.
	{"unc.me_power", 0.20, "share", srcOverwatch + " (MCR and Vref from the EEXI regression)", verOW},
	{"unc.me_power.registry", 0.10, "share", srcOverwatch + " (MCR and Vref given)", verOW},
	{"unc.me_power.estimated", 0.35, "share", srcOverwatch + " (DWT estimated from dimensions, or proxy class)", verOW},
	{"unc.sfc", 0.10, "share", srcOverwatch + " (engine age unknown; Table 19 spread)", verOW},
	{"unc.aux_power", 0.30, "share", srcOverwatch + " (Table 17 averages)", verOW},
	{"unc.speed.ais", 0.05, "share", srcOverwatch + " (speed bands from AIS)", verOW},
	{"unc.speed.mean", 0.08, "share", srcOverwatch + " (mean speed only: cube of mean < mean of cubes)", verOW},
	{"unc.speed.default", 0.15, "share", srcOverwatch + " (speed assumed)", verOW},
	{"unc.draught", 0.10, "share", srcOverwatch + " (draught assumed)", verOW},
	{"unc.cargo.high", 0.10, "share", srcOverwatch + " (draught estimate, good quality)", verOW},
	{"unc.cargo.medium", 0.20, "share", srcOverwatch, verOW},
	{"unc.cargo.low", 0.35, "share", srcOverwatch, verOW},
	{"unc.cargo.assumed", 0.50, "share", srcOverwatch + " (no estimate: default share of DWT)", verOW},
	{"unc.distance.base", 0.02, "share", srcOverwatch + " (full AIS coverage)", verOW},
	{"unc.distance.gap", 0.40, "share per uncovered share", srcOverwatch + " (added x (1 - coverage))", verOW},
	{"unc.distance.sea_lane", 0.10, "share", srcOverwatch + " (sea-lane distance)", verOW},
	{"unc.wtt", 0.30, "share", srcOverwatch + " (well-to-tank spread of fossil fuels)", verOW},
	{"unc.glec", 0.50, "share", srcOverwatch + " (default intensity for a class)", verOW},

	// Auxiliary engine (aux_kw) and boiler (boiler_kw) power by ship type,
	// size bin (lower bound: dwt; TEU for containers; m3 for gas carriers)
	// and phase: berth, anchor, manoeuvring, sea.
	{"aux_kw.bulk_carrier.0.berth", 110, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.0.berth", 70, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.0.anchor", 180, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.0.anchor", 70, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.0.manoeuvring", 500, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.0.manoeuvring", 60, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.0.sea", 190, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.0.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.35000.berth", 150, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.35000.berth", 130, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.35000.anchor", 250, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.35000.anchor", 130, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.35000.manoeuvring", 680, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.35000.manoeuvring", 120, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.35000.sea", 260, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.35000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.60000.berth", 240, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.60000.berth", 260, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.60000.anchor", 400, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.60000.anchor", 260, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.60000.manoeuvring", 1100, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.60000.manoeuvring", 240, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.bulk_carrier.60000.sea", 410, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.bulk_carrier.60000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.0.berth", 250, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.0.berth", 500, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.0.anchor", 250, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.0.anchor", 100, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.0.manoeuvring", 375, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.0.manoeuvring", 100, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.0.sea", 250, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.0.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.5000.berth", 375, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.5000.berth", 750, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.5000.anchor", 375, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.5000.anchor", 150, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.5000.manoeuvring", 560, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.5000.manoeuvring", 150, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.5000.sea", 375, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.5000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.10000.berth", 690, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.10000.berth", 1250, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.10000.anchor", 500, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.10000.anchor", 250, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.10000.manoeuvring", 580, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.10000.manoeuvring", 250, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.10000.sea", 490, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.10000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.20000.berth", 720, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.20000.berth", 2700, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.20000.anchor", 520, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.20000.anchor", 270, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.20000.manoeuvring", 600, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.20000.manoeuvring", 270, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.20000.sea", 510, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.20000.sea", 270, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.60000.berth", 620, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.60000.berth", 3250, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.60000.anchor", 490, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.60000.anchor", 360, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.60000.manoeuvring", 770, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.60000.manoeuvring", 360, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.60000.sea", 560, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.60000.sea", 280, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.80000.berth", 800, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.80000.berth", 4000, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.80000.anchor", 640, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.80000.anchor", 400, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.80000.manoeuvring", 910, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.80000.manoeuvring", 400, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.80000.sea", 690, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.80000.sea", 280, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.120000.berth", 2500, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.120000.berth", 6500, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.120000.anchor", 770, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.120000.anchor", 500, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.120000.manoeuvring", 1300, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.120000.manoeuvring", 500, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.120000.sea", 860, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.120000.sea", 300, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.200000.berth", 2500, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.200000.berth", 7000, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.200000.anchor", 770, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.200000.anchor", 600, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.200000.manoeuvring", 1300, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.200000.manoeuvring", 600, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.oil_tanker.200000.sea", 860, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.oil_tanker.200000.sea", 300, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.0.berth", 110, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.0.berth", 670, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.0.anchor", 170, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.0.anchor", 160, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.0.manoeuvring", 190, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.0.manoeuvring", 130, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.0.sea", 200, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.0.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.5000.berth", 330, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.5000.berth", 670, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.5000.anchor", 490, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.5000.anchor", 160, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.5000.manoeuvring", 560, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.5000.manoeuvring", 130, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.5000.sea", 580, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.5000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.10000.berth", 330, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.10000.berth", 1000, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.10000.anchor", 490, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.10000.anchor", 240, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.10000.manoeuvring", 560, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.10000.manoeuvring", 200, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.10000.sea", 580, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.10000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.20000.berth", 790, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.20000.berth", 1350, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.20000.anchor", 550, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.20000.anchor", 320, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.20000.manoeuvring", 900, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.20000.manoeuvring", 270, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.chemical_tanker.20000.sea", 660, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.chemical_tanker.20000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.0.berth", 370, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.0.berth", 250, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.0.anchor", 450, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.0.anchor", 250, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.0.manoeuvring", 790, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.0.manoeuvring", 240, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.0.sea", 410, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.0.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.1000.berth", 820, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.1000.berth", 340, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.1000.anchor", 910, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.1000.anchor", 340, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.1000.manoeuvring", 1750, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.1000.manoeuvring", 310, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.1000.sea", 900, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.1000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.2000.berth", 610, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.2000.berth", 460, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.2000.anchor", 910, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.2000.anchor", 450, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.2000.manoeuvring", 1900, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.2000.manoeuvring", 430, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.2000.sea", 920, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.2000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.3000.berth", 1100, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.3000.berth", 480, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.3000.anchor", 1350, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.3000.anchor", 480, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.3000.manoeuvring", 2500, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.3000.manoeuvring", 430, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.3000.sea", 1400, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.3000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.5000.berth", 1100, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.5000.berth", 590, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.5000.anchor", 1400, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.5000.anchor", 580, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.5000.manoeuvring", 2800, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.5000.manoeuvring", 550, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.5000.sea", 1450, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.5000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.8000.berth", 1150, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.8000.berth", 620, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.8000.anchor", 1600, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.8000.anchor", 620, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.8000.manoeuvring", 2900, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.8000.manoeuvring", 540, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.8000.sea", 1800, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.8000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.12000.berth", 1300, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.12000.berth", 630, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.12000.anchor", 1800, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.12000.anchor", 630, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.12000.manoeuvring", 3250, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.12000.manoeuvring", 630, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.12000.sea", 2050, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.12000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.14500.berth", 1400, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.14500.berth", 630, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.14500.anchor", 1950, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.14500.anchor", 630, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.14500.manoeuvring", 3600, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.14500.manoeuvring", 630, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.14500.sea", 2300, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.14500.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.20000.berth", 1400, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.20000.berth", 700, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.20000.anchor", 1950, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.20000.anchor", 700, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.20000.manoeuvring", 3600, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.20000.manoeuvring", 700, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.container.20000.sea", 2300, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.container.20000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.0.berth", 90, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.0.berth", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.0.anchor", 50, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.0.anchor", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.0.manoeuvring", 180, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.0.manoeuvring", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.0.sea", 60, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.0.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.5000.berth", 240, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.5000.berth", 110, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.5000.anchor", 130, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.5000.anchor", 110, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.5000.manoeuvring", 490, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.5000.manoeuvring", 100, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.5000.sea", 180, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.5000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.10000.berth", 720, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.10000.berth", 150, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.10000.anchor", 370, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.10000.anchor", 150, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.10000.manoeuvring", 1450, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.10000.manoeuvring", 130, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.general_cargo.10000.sea", 520, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.general_cargo.10000.sea", 0, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.0.berth", 240, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.0.berth", 1000, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.0.anchor", 240, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.0.anchor", 200, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.0.manoeuvring", 360, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.0.manoeuvring", 200, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.0.sea", 240, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.0.sea", 100, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.50000.berth", 1700, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.50000.berth", 1000, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.50000.anchor", 1700, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.50000.anchor", 200, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.50000.manoeuvring", 2600, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.50000.manoeuvring", 200, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.50000.sea", 1700, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.50000.sea", 100, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.100000.berth", 2500, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.100000.berth", 1500, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.100000.anchor", 2000, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.100000.anchor", 300, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.100000.manoeuvring", 2300, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.100000.manoeuvring", 300, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.100000.sea", 2650, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.100000.sea", 150, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.200000.berth", 6750, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.200000.berth", 3000, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.200000.anchor", 7200, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.200000.anchor", 600, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.200000.manoeuvring", 7200, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.200000.manoeuvring", 600, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.liquefied_gas.200000.sea", 6750, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.liquefied_gas.200000.sea", 300, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.other.0.berth", 150, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.other.0.berth", 110, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.other.0.anchor", 150, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.other.0.anchor", 110, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.other.0.manoeuvring", 430, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.other.0.manoeuvring", 90, "kW", srcIMO4T17, verIMO4},
	{"aux_kw.other.0.sea", 410, "kW", srcIMO4T17, verIMO4}, {"boiler_kw.other.0.sea", 0, "kW", srcIMO4T17, verIMO4},
}

// efIndex is EmissionFactors by name, with the lower bounds of every
// auxiliary power table's size bins ("aux_kw.<table>" -> sorted bounds).
type efIndex struct {
	value map[string]float64
	bins  map[string][]float64
}

var emissionFactorIndex = sync.OnceValue(func() *efIndex {
	x := &efIndex{value: make(map[string]float64, len(Factors)), bins: map[string][]float64{}}
	for _, f := range Factors {
		x.value[f.Name] = f.Value
		if rest, ok := strings.CutPrefix(f.Name, "aux_kw."); ok && strings.HasSuffix(rest, ".sea") {
			table, lo, _ := strings.Cut(strings.TrimSuffix(rest, ".sea"), ".")
			if v, err := strconv.ParseFloat(lo, 64); err == nil {
				x.bins[table] = append(x.bins[table], v)
			}
		}
	}
	for _, b := range x.bins {
		slices.Sort(b)
	}
	return x
})

// FactorValue returns the value of the named factor.
func FactorValue(name string) (float64, bool) {
	v, ok := emissionFactorIndex().value[name]
	return v, ok
}

// FactorsNamed returns the rows of EmissionFactors whose names are
// in names, in table order: the factor table of a report.
func FactorsNamed(names []string) []Factor {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	var out []Factor
	for _, f := range Factors {
		if want[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// FactorsUsed returns the factor rows that the voyages used.
func FactorsUsed(rows []Voyage) []Factor {
	var names []string
	for _, r := range rows {
		names = append(names, r.Factors...)
	}
	return FactorsNamed(names)
}
