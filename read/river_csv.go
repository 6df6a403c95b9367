package read

import "strings"

// RiverCSVRow is a row of GET /v1/river-levels?format=csv: a gauge's newest
// reading with its thresholds (the JSON readings, qualifiers joined by
// ";").
type RiverCSVRow struct {
	Gauge         string   `csv:"gauge"`
	Name          string   `csv:"name"`
	River         string   `csv:"river"`
	Location      string   `csv:"location"`
	Port          string   `csv:"port"`
	USGSSite      string   `csv:"usgs_site"`
	NWSID         *string  `csv:"nws_id"`
	Latitude      float64  `csv:"latitude"`
	Longitude     float64  `csv:"longitude"`
	Time          string   `csv:"time"`
	LevelFt       float64  `csv:"level_ft"`
	Status        string   `csv:"status"`
	CriticalLowFt *float64 `csv:"critical_low_ft"`
	LowFt         *float64 `csv:"low_ft"`
	FloodStageFt  *float64 `csv:"flood_stage_ft"`
	Change24hFt   *float64 `csv:"change_24h_ft"`
	Trend         *string  `csv:"trend"`
	Qualifiers    string   `csv:"qualifiers"`
	Source        string   `csv:"source"`
}

// newRiverCSVRow presents a reading as a CSV row.
func newRiverCSVRow(r RiverReading) RiverCSVRow {
	return RiverCSVRow{
		Gauge: r.Gauge, Name: r.Name, River: r.River, Location: r.Location, Port: r.Port, USGSSite: r.USGSSite,
		NWSID: r.NWSID, Latitude: r.Latitude, Longitude: r.Longitude, Time: r.Time, LevelFt: r.LevelFt,
		Status: r.Status, CriticalLowFt: r.CriticalLowFt, LowFt: r.LowFt, FloodStageFt: r.FloodStageFt,
		Change24hFt: r.Change24hFt, Trend: r.Trend, Qualifiers: strings.Join(r.Qualifiers, ";"), Source: r.Source,
	}
}
