package terminals

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// GEMUnit is one row of the Global Energy Monitor Global Gas
// Infrastructure Tracker, LNG Terminals sheet: one train or project phase
// of a terminal (rows of one terminal share TerminalID; ComboID is unique).
type GEMUnit struct {
	TerminalID   string
	ComboID      string
	TerminalName string
	UnitName     string
	FacilityType string // Import or Export
	Status       string // Operating, Construction, Proposed, ...
	Country      string
	Owner        string   // as written, with the shares: "ADNOC [70.00%]; Mitsui Group [15.00%]"
	CapacityMtpa *float64 // CapacityInMtpa; nil when blank or "--"
	StartYear    int      // StartYear1; 0 when blank
	Lat, Lon     *float64 // nil when blank
	Accuracy     string
	Floating     string
	LastUpdated  string
}

// gemColumns are the columns ParseGEM needs.
var gemColumns = []string{"TerminalID", "ComboID", "TerminalName", "UnitName", "FacilityType", "Status", "Country",
	"Owner", "CapacityInMtpa", "StartYear1", "Latitude", "Longitude", "Accuracy", "Floating", "LastUpdated"}

// maxGEMRows bounds what ParseGEM reads (the January 2024 release has
// 1,256 rows).
const maxGEMRows = 100000

// ParseGEM reads the tracker's main sheet as CSV (header first; the
// workbook's numbers as stored, with binary noise such as
// 2.2999999999999998; years as numbers, possibly "2016.0"; cells may hold
// newlines). A missing column, a row without TerminalID or ComboID, or a
// number that does not parse is an error naming the line.
func ParseGEM(r io.Reader) ([]GEMUnit, error) {
	var out []GEMUnit
	err := csvRows(r, "gem", gemColumns, maxGEMRows, func(_ int, get func(string) string) error {
		u := GEMUnit{
			TerminalID: get("TerminalID"), ComboID: get("ComboID"), TerminalName: get("TerminalName"),
			UnitName: get("UnitName"), FacilityType: get("FacilityType"), Status: get("Status"),
			Country: get("Country"), Owner: get("Owner"), Accuracy: get("Accuracy"),
			Floating: get("Floating"), LastUpdated: get("LastUpdated"),
		}
		if u.TerminalID == "" || u.ComboID == "" {
			return errors.New("no TerminalID or ComboID")
		}
		var err error
		if u.CapacityMtpa, err = optFloat(get("CapacityInMtpa")); err != nil {
			return fmt.Errorf("CapacityInMtpa: %w", err)
		}
		if u.Lat, err = optFloat(get("Latitude")); err != nil || (u.Lat != nil && math.Abs(*u.Lat) > 90) {
			return fmt.Errorf("bad Latitude %q", get("Latitude"))
		}
		if u.Lon, err = optFloat(get("Longitude")); err != nil || (u.Lon != nil && math.Abs(*u.Lon) > 180) {
			return fmt.Errorf("bad Longitude %q", get("Longitude"))
		}
		y, err := optFloat(get("StartYear1"))
		if err != nil || (y != nil && (*y < 1900 || *y > 2100)) {
			return fmt.Errorf("bad StartYear1 %q", get("StartYear1"))
		}
		if y != nil {
			u.StartYear = int(*y)
		}
		out = append(out, u)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// optFloat parses a workbook number: nil for blank and the tracker's "--"
// (unknown); NaN and the infinities are errors. Binary noise is rounded
// off at 6 decimals.
func optFloat(s string) (*float64, error) {
	if s == "" || s == "--" {
		return nil, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("not a number: %q", s)
	}
	v = math.Round(v*1e6) / 1e6
	return &v, nil
}
