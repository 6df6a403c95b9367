package crop

import (
	"errors"
	"io"
	"math"
	"strconv"
	"time"

	"overwatch/maritime/crop"
)

var psdColumns = []string{"Commodity_Code", "Commodity_Description", "Country_Code", "Country_Name", "Market_Year",
	"Calendar_Year", "Month", "Attribute_ID", "Attribute_Description", "Unit_ID", "Unit_Description", "Value"}

// parsePSD reads a PSD Online CSV (grains, EU member states, the Russia
// breakdown: the same layout). Codes stay the zero-padded strings of the
// file; Calendar_Year/Month is the revision date (month 00 is read as
// January); a row that does not parse fails the file.
func parsePSD(r io.Reader) ([]crop.PSDRow, error) {
	t, err := newTable(r, psdColumns...)
	if err != nil {
		return nil, err
	}
	var out []crop.PSDRow
	for {
		rec, err := t.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		row := crop.PSDRow{CommodityCode: t.get(rec, "Commodity_Code"), Commodity: t.get(rec, "Commodity_Description"),
			CountryCode: t.get(rec, "Country_Code"), Country: t.get(rec, "Country_Name"), AttributeID: t.get(rec, "Attribute_ID"),
			Attribute: t.get(rec, "Attribute_Description"), UnitID: t.get(rec, "Unit_ID"), Unit: t.get(rec, "Unit_Description")}
		if !digits(row.CommodityCode, 7) || !digits(row.AttributeID, 3) || !digits(row.UnitID, 2) {
			return nil, t.errorf("Commodity_Code, Attribute_ID and Unit_ID must be zero-padded digits (%q, %q, %q)",
				row.CommodityCode, row.AttributeID, row.UnitID)
		}
		if row.CountryCode == "" || len(row.CountryCode) > 3 {
			return nil, t.errorf("Country_Code %q", row.CountryCode)
		}
		my, err1 := strconv.Atoi(t.get(rec, "Market_Year"))
		cy, err2 := strconv.Atoi(t.get(rec, "Calendar_Year"))
		mo, err3 := strconv.Atoi(t.get(rec, "Month"))
		if err1 != nil || err2 != nil || err3 != nil || my < 1900 || my > 2200 || cy < 1900 || cy > 2200 || mo < 0 || mo > 12 {
			return nil, t.errorf("Market_Year, Calendar_Year or Month is not a year/month")
		}
		if mo == 0 {
			mo = 1
		}
		row.MarketYear, row.Revised = my, time.Date(cy, time.Month(mo), 1, 0, 0, 0, 0, time.UTC)
		v, err := strconv.ParseFloat(t.get(rec, "Value"), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, t.errorf("Value %q is not a number", t.get(rec, "Value"))
		}
		row.Value = v
		out = append(out, row)
	}
}

// digits reports whether s is 1..n ASCII digits.
func digits(s string, n int) bool {
	if s == "" || len(s) > n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
