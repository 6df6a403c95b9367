package terminals

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WPIPort is the part of a row of the NGA World Port Index (Pub. 150) the
// terminals use: the port's reference point, not a berth position.
type WPIPort struct {
	Number      int    // World Port Index Number
	Name        string // Main Port Name
	LOCODE      string // as five letters, "" when blank ("AU PHE" and "BRIQI" both become AUPHE, BRIQI)
	Country     string
	HarborSize  string
	HarborType  string
	MaxDraughtM *float64 // Maximum Vessel Draft (m); nil when blank
	Lat, Lon    float64
}

// maxWPIRows bounds what ParseWPI reads (the full index has some 3,800).
const maxWPIRows = 20000

// ParseWPI reads World Port Index rows as CSV (a UTF-8 BOM before the
// header, CRLF, a blank LOCODE written as one space, float noise in the
// coordinates). A missing column or a row without number, name or valid
// coordinates is an error naming the line.
func ParseWPI(r io.Reader) ([]WPIPort, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("wpi: header: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	for _, c := range []string{"World Port Index Number", "Main Port Name", "UN/LOCODE", "Country Code", "Harbor Size",
		"Harbor Type", "Maximum Vessel Draft (m)", "Latitude", "Longitude"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("wpi: no column %q", c)
		}
	}
	var out []WPIPort
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("wpi: %w", err)
		}
		line, _ := cr.FieldPos(0)
		if len(out) >= maxWPIRows {
			return nil, fmt.Errorf("wpi: more than %d rows", maxWPIRows)
		}
		get := func(name string) string {
			if i := col[name]; i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		n, err := optFloat(get("World Port Index Number"))
		if err != nil || n == nil || *n <= 0 || *n > 1e7 || *n != math.Trunc(*n) {
			return nil, fmt.Errorf("wpi: line %d: bad World Port Index Number %q", line, get("World Port Index Number"))
		}
		p := WPIPort{Number: int(*n), Name: get("Main Port Name"), LOCODE: strings.ReplaceAll(get("UN/LOCODE"), " ", ""),
			Country: get("Country Code"), HarborSize: get("Harbor Size"), HarborType: get("Harbor Type")}
		if p.Name == "" {
			return nil, fmt.Errorf("wpi: line %d: no Main Port Name", line)
		}
		if p.MaxDraughtM, err = optFloat(get("Maximum Vessel Draft (m)")); err != nil {
			return nil, fmt.Errorf("wpi: line %d: Maximum Vessel Draft (m): %w", line, err)
		}
		lat, err1 := strconv.ParseFloat(get("Latitude"), 64)
		lon, err2 := strconv.ParseFloat(get("Longitude"), 64)
		if err1 != nil || err2 != nil || !(math.Abs(lat) <= 90) || !(math.Abs(lon) <= 180) {
			return nil, fmt.Errorf("wpi: line %d: bad coordinates %q, %q", line, get("Latitude"), get("Longitude"))
		}
		p.Lat, p.Lon = math.Round(lat*1e6)/1e6, math.Round(lon*1e6)/1e6
		out = append(out, p)
	}
	return out, nil
}
