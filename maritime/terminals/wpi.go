package terminals

import (
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
	var out []WPIPort
	err := csvRows(r, "wpi", wpiColumns, maxWPIRows, func(_ int, get func(string) string) error {
		n, err := optFloat(get("World Port Index Number"))
		if err != nil || n == nil || *n <= 0 || *n > 1e7 || *n != math.Trunc(*n) {
			return fmt.Errorf("bad World Port Index Number %q", get("World Port Index Number"))
		}
		p := WPIPort{Number: int(*n), Name: get("Main Port Name"), LOCODE: strings.ReplaceAll(get("UN/LOCODE"), " ", ""),
			Country: get("Country Code"), HarborSize: get("Harbor Size"), HarborType: get("Harbor Type")}
		if p.Name == "" {
			return errors.New("no Main Port Name")
		}
		if p.MaxDraughtM, err = optFloat(get("Maximum Vessel Draft (m)")); err != nil {
			return fmt.Errorf("Maximum Vessel Draft (m): %w", err)
		}
		lat, err1 := strconv.ParseFloat(get("Latitude"), 64)
		lon, err2 := strconv.ParseFloat(get("Longitude"), 64)
		if err1 != nil || err2 != nil || !(math.Abs(lat) <= 90) || !(math.Abs(lon) <= 180) {
			return fmt.Errorf("bad coordinates %q, %q", get("Latitude"), get("Longitude"))
		}
		p.Lat, p.Lon = math.Round(lat*1e6)/1e6, math.Round(lon*1e6)/1e6
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// wpiColumns are the columns of the World Port Index extract ParseWPI
// needs.
var wpiColumns = []string{"World Port Index Number", "Main Port Name", "UN/LOCODE", "Country Code", "Harbor Size",
	"Harbor Type", "Maximum Vessel Draft (m)", "Latitude", "Longitude"}
