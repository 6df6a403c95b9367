package crop

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/crop"
)

var wasdeColumns = []string{"WasdeNumber", "ReportTitle", "Attribute", "ReliabilityProjection", "Commodity", "Region",
	"MarketYear", "ProjEstFlag", "AnnualQuarterFlag", "Value", "Unit", "ReleaseDate"}

// parseWASDE reads the WASDE report data CSV. Rows with an empty Value
// are counted as missing and kept out; ProjEstFlag loses its parentheses
// ("(Est.)" is "Est."); any other row that does not parse fails the file.
func parseWASDE(r io.Reader) ([]crop.WASDERow, int, error) {
	t, err := newTable(r, wasdeColumns...)
	if err != nil {
		return nil, 0, err
	}
	var out []crop.WASDERow
	missing := 0
	for {
		rec, err := t.next()
		if errors.Is(err, io.EOF) {
			return out, missing, nil
		}
		if err != nil {
			return nil, 0, err
		}
		n, err := strconv.Atoi(t.get(rec, "WasdeNumber"))
		if err != nil || n < 0 {
			return nil, 0, t.errorf("WasdeNumber %q is not a number", t.get(rec, "WasdeNumber"))
		}
		rel, err := time.Parse(time.DateOnly, t.get(rec, "ReleaseDate"))
		if err != nil {
			return nil, 0, t.errorf("ReleaseDate %q is not a date", t.get(rec, "ReleaseDate"))
		}
		raw := t.get(rec, "Value")
		if raw == "" {
			missing++
			continue
		}
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, t.errorf("Value %q is not a number", raw)
		}
		out = append(out, crop.WASDERow{WasdeNumber: n, Released: rel, Table: t.get(rec, "ReportTitle"), Attribute: t.get(rec, "Attribute"),
			Projection: t.get(rec, "ReliabilityProjection"), Commodity: t.get(rec, "Commodity"), Region: t.get(rec, "Region"),
			MarketYear: t.get(rec, "MarketYear"), Flag: strings.Trim(t.get(rec, "ProjEstFlag"), "()"),
			Period: t.get(rec, "AnnualQuarterFlag"), Value: v, Unit: t.get(rec, "Unit")})
	}
}
