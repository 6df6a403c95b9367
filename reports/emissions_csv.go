package reports

import (
	"io"
	"strings"
	"time"
)

// emissionsCSVHeader names the columns of the voyage rows.
var emissionsCSVHeader = []string{
	"imo", "vessel", "vessel_type", "from", "to", "departure", "arrival",
	"distance_nm", "cargo_t", "commodity", "fuel", "factor_t_co2e_per_t_fuel", "method",
	"ttw_t_co2e_low", "ttw_t_co2e", "ttw_t_co2e_high",
	"wtw_t_co2e_low", "wtw_t_co2e", "wtw_t_co2e_high",
	"tonne_miles", "intensity_g_co2e_per_tnm", "data_quality", "flags",
}

// WriteEmissionsCSV writes the report's voyage rows as CSV (the writer of
// csv.go: RFC 4180, CRLF, formula-injection protection): one row per
// voyage, times in RFC 3339 UTC, tonnes of CO2e to 3 decimals, flags joined
// by ";". The caller caps the rows by capping r.Voyages.
//
// The cells are written by hand rather than mapped by gocsv (StructCSV) for
// speed: this file is made per request (the exports' files are made once
// per data version and kept), and gocsv's reflection costs about six times
// the hand-written path (`go test -bench 'CSV10k' ./reports`:
// BenchmarkCSV10kStructs against BenchmarkCSV10kRows, docs/benchmarks.md).
func WriteEmissionsCSV(w io.Writer, r *EmissionsReport) error {
	c := NewCSV(w, emissionsCSVHeader, CSVOptions{})
	for i := range r.Voyages {
		v := &r.Voyages[i]
		err := c.WriteRow(
			TextCell(v.IMO), TextCell(v.Vessel), TextCell(v.VesselType), TextCell(v.From), TextCell(v.To),
			TextCell(csvTime(v.Departure)), TextCell(csvTime(v.Arrival)),
			NumberCell(v.DistanceNM, 1), NumberCell(v.CargoTonnes, 0), TextCell(v.Commodity), TextCell(v.Fuel),
			NumberCell(v.FactorTTW, 3), TextCell(v.Method),
			NumberCell(v.TTW.Low, 3), NumberCell(v.TTW.Central, 3), NumberCell(v.TTW.High, 3),
			NumberCell(v.WTW.Low, 3), NumberCell(v.WTW.Central, 3), NumberCell(v.WTW.High, 3),
			NumberCell(v.TonneMiles, 0), NumberCell(v.IntensityTTW, 3), TextCell(v.Quality),
			TextCell(strings.Join(v.Flags, ";")),
		)
		if err != nil {
			return err
		}
	}
	return c.Flush()
}

// csvTime is t in RFC 3339 UTC, or "" for the zero time.
func csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
