// Package river holds the river gauges that govern grain barges to the
// Gulf, their thresholds (each with its source) and the status, 24-hour
// change, trend and low/flood episodes computed from their readings.
package river

import "math"

// Statuses of a reading (docs/river-levels.md says how each is given).
const (
	StatusNormal   = "normal"
	StatusLow      = "low"
	StatusCritical = "critical"
	StatusFlood    = "flood"
)

// USGS parameter codes of the instantaneous-values service.
const (
	ParamGageHeight = "00065" // gage height, feet
	ParamDischarge  = "00060" // discharge, cubic feet per second
)

// NoData is the value the USGS services send where a value is missing
// (noDataValue): never a level.
const NoData = -999999.0

// Gauge is a river gauge: its USGS site, its NWS location id, the
// service's port it governs, and its thresholds in feet of gauge height
// (NaN where no published value is known: the status then never takes
// that value), each with its source (docs/river-levels.md).
type Gauge struct {
	ID       string // slug, e.g. "st-louis"
	Name     string
	River    string
	Site     string // USGS site number
	NWS      string // NWS location id (water.noaa.gov)
	Port     string // the service's port whose barges it governs (seaport slug)
	Location string // "river" or "port" (the one port location)
	Lat, Lon float64

	FloodStageFt  float64 // NWS flood stage
	LowFt         float64 // low water: navigation restrictions begin
	CriticalLowFt float64 // critical low water
	FloodSource   string
	LowSource     string
}

var nan = math.NaN()

// Sources of the thresholds, cited in the gauge table.
const (
	srcNWSNotes  = "NWS flood stage, as cited in ../shared/data/river/NOTES.md (local press and NWS summaries); check water.noaa.gov"
	srcChester   = "NWS St. Louis flood warnings for the Mississippi at Chester: \"Flood stage is 27.0 feet\" (2022-05-11, 2024-05-18)"
	srcThebes    = "NWS Paducah flood warnings for the Mississippi at Thebes: \"Flood stage is 33.0 feet\" (2020-05-18, 2024-05-01, quoted by the Gazette-Democrat, Anna IL)"
	srcCairoNWS  = "NWS Paducah flood warning for the Ohio at Cairo: \"Flood stage is 40.0 feet\" (May 2019, Gazette-Democrat); NWS Jackson 2008: a 54 ft crest \"14 feet above flood stage\""
	srcVicksburg = "NWS Jackson flood warnings for the Mississippi at Vicksburg: \"Flood stage is 43.0 feet\" (2017-04-28, 2018-02-24, 2025-04-14)"
	srcBatonFld  = "NWS hydrologist J. Graschel (AP, 2016-01-04): \"In Baton Rouge, where the flood stage is 35 feet\""
	srcStLouis   = "USACE St. Louis District: the 9-ft channel at Thebes holds down to −0.7 ft on the St. Louis gauge (Waterways Journal, 2022-10-03); channel behaviour less predictable below −5.0 ft (USACE St. Louis District low-flow update, irpt.net)"
	srcMemphis   = "restrictions reported from −5.4 ft (ProAg, Oct 2023); −10 ft is within a foot of the 1988 record −10.7 ft and where the 2022/2023 groundings and closures came (Waterways Journal, 2023-09-15; NOTES.md)"
	srcCairo     = "Corps of Engineers LMRFC figures (Waterways Journal via transport.motcats): 1988 low 4.9 ft; draft and tow restrictions reported as Cairo falls below 10–11 ft (ProAg, Oct 2023)"
	srcBatonRoug = "Corps of Engineers LMRFC figures (Waterways Journal via transport.motcats): 1988 low 1.7 ft; reductions reported near 5 ft"
	srcNone      = "no published navigation mark found; the gauge is never low or critical"
)

// Gauges are the gauges polled, upstream first: the Middle and Lower
// Mississippi (and the Ohio at Cairo) that govern grain barges to the
// Gulf, all serving the port of New Orleans; New Orleans is the port
// location. Sites and NWS ids: USGS NWIS site pages; see
// docs/river-levels.md for each value's source.
var Gauges = []Gauge{
	{ID: "st-louis", Name: "St. Louis, MO", River: "Mississippi", Site: "07010000", NWS: "EADM7", Port: "new-orleans", Location: "river",
		Lat: 38.6289, Lon: -90.1798, FloodStageFt: 30, LowFt: -0.7, CriticalLowFt: -5.0, FloodSource: srcNWSNotes, LowSource: srcStLouis},
	{ID: "chester", Name: "Chester, IL", River: "Mississippi", Site: "07020500", NWS: "CHSI2", Port: "new-orleans", Location: "river",
		Lat: 37.9036, Lon: -89.8364, FloodStageFt: 27, LowFt: nan, CriticalLowFt: nan, FloodSource: srcChester, LowSource: srcNone},
	{ID: "thebes", Name: "Thebes, IL", River: "Mississippi", Site: "07022000", NWS: "THBI2", Port: "new-orleans", Location: "river",
		Lat: 37.2217, Lon: -89.4631, FloodStageFt: 33, LowFt: nan, CriticalLowFt: nan, FloodSource: srcThebes, LowSource: srcNone},
	{ID: "cairo", Name: "Cairo, IL", River: "Ohio", Site: "03612500", NWS: "CIRI2", Port: "new-orleans", Location: "river",
		Lat: 37.0047, Lon: -89.1764, FloodStageFt: 40, LowFt: 10, CriticalLowFt: 4.9, FloodSource: srcCairoNWS, LowSource: srcCairo},
	{ID: "memphis", Name: "Memphis, TN", River: "Mississippi", Site: "07032000", NWS: "MEMT1", Port: "new-orleans", Location: "river",
		Lat: 35.1231, Lon: -90.0773, FloodStageFt: 34, LowFt: -5.0, CriticalLowFt: -10.0, FloodSource: srcNWSNotes, LowSource: srcMemphis},
	{ID: "vicksburg", Name: "Vicksburg, MS", River: "Mississippi", Site: "07289000", NWS: "VCKM6", Port: "new-orleans", Location: "river",
		Lat: 32.315, Lon: -90.9058, FloodStageFt: 43, LowFt: nan, CriticalLowFt: nan, FloodSource: srcVicksburg, LowSource: srcNone},
	{ID: "baton-rouge", Name: "Baton Rouge, LA", River: "Mississippi", Site: "07374000", NWS: "BTRL1", Port: "new-orleans", Location: "river",
		Lat: 30.4458, Lon: -91.1917, FloodStageFt: 35, LowFt: 5.0, CriticalLowFt: 1.7, FloodSource: srcBatonFld, LowSource: srcBatonRoug},
	{ID: "new-orleans", Name: "New Orleans, LA (Belle Chasse)", River: "Mississippi", Site: "07374525", NWS: "", Port: "new-orleans", Location: "port",
		Lat: 29.857, Lon: -89.9767, FloodStageFt: nan, LowFt: nan, CriticalLowFt: nan,
		FloodSource: "no NWS flood stage for the Belle Chasse site (the New Orleans flood stage belongs to the Carrollton gauge, another datum)", LowSource: srcNone},
}

// BySite returns the gauge of a USGS site number (with or without the
// "USGS-" prefix of the OGC API).
func BySite(site string) (Gauge, bool) {
	if len(site) > 5 && site[:5] == "USGS-" {
		site = site[5:]
	}
	for _, g := range Gauges {
		if g.Site == site {
			return g, true
		}
	}
	return Gauge{}, false
}

// Sites are the USGS site numbers of the gauges, in table order.
func Sites() []string {
	out := make([]string, len(Gauges))
	for i, g := range Gauges {
		out[i] = g.Site
	}
	return out
}

// Status is the status of a level at the gauge: flood at or above the
// flood stage, critical at or below the critical low mark, low at or
// below the low mark, normal otherwise (a threshold not known never
// applies).
func (g Gauge) Status(levelFt float64) string {
	switch {
	case !math.IsNaN(g.FloodStageFt) && levelFt >= g.FloodStageFt:
		return StatusFlood
	case !math.IsNaN(g.CriticalLowFt) && levelFt <= g.CriticalLowFt:
		return StatusCritical
	case !math.IsNaN(g.LowFt) && levelFt <= g.LowFt:
		return StatusLow
	}
	return StatusNormal
}
