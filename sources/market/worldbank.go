package market

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/market"
)

// The World Bank Commodity Price Data ("Pink Sheet") workbook
// CMO-Historical-Data-Monthly.xlsx: sheet "Monthly Prices" has a title
// block ("Updated on November 04, 2025" in A4), then three header rows
// (name, unit such as "($/mt)", code such as WHEAT_US_HRW), then one row
// per month with the period as text "1960M01" in column A. Missing values
// are "…" (U+2026), "..." or empty cells; names carry footnote marks
// ("Coal, South African **").

// WorldBankSheet is the sheet ParseWorldBank reads.
const WorldBankSheet = "Monthly Prices"

// WorldBankCarried maps the Pink Sheet codes the service carries to their
// commodity; the other series are skipped.
var WorldBankCarried = map[string]string{
	"CRUDE_BRENT": "crude_oil", "CRUDE_DUBAI": "crude_oil", "CRUDE_WTI": "crude_oil",
	"COAL_AUS": "coal", "COAL_SAFRICA": "coal",
	"NGAS_JP": "lng", "NGAS_US": "natural_gas", "NGAS_EUR": "natural_gas",
	"SOYBEANS": "soybeans", "SOYBEAN_MEAL": "soybean_meal", "SOYBEAN_OIL": "soybean_oil",
	"MAIZE": "maize", "BARLEY": "barley", "SORGHUM": "sorghum",
	"WHEAT_US_SRW": "wheat", "WHEAT_US_HRW": "wheat",
	"RICE_05": "rice", "RICE_25": "rice", "RICE_A1": "rice", "RICE_05_VNM": "rice",
	"PALM_OIL": "palm_oil", "SUGAR_WLD": "sugar",
	"IRON_ORE": "iron_ore", "UREA_EE_BULK": "urea", "DAP": "dap", "TSP": "tsp",
	"POTASH": "potash", "PHOSROCK": "phosphate_rock",
}

// worldBankUnits maps the units row's labels to unit codes.
var worldBankUnits = map[string]string{
	"$/mt": market.UnitUSDPerTonne, "$/bbl": market.UnitUSDPerBarrel,
	"$/mmbtu": market.UnitUSDPerMMBtu, "$/dmtu": market.UnitUSDPerDMTU,
	"$/kg": market.UnitUSDPerKg,
}

var (
	periodRE  = regexp.MustCompile(`^(\d{4})M(\d{1,2})$`)
	updatedRE = regexp.MustCompile(`(?i)updated\s+on\s+([A-Za-z]+\.?\s+\d{1,2},?\s+\d{4})`)
)

// ParseWorldBank reads the Pink Sheet workbook from r (spooled to a
// temporary file, as a zip needs random access) and returns the monthly
// prices of the carried series, oldest first, each dated the first of its
// month. The workbook's "Updated on" date, when present, is Published. It
// fails, naming the row, on a missing sheet or header, a unit it does not
// know for a carried series, a malformed period or a cell that is neither
// a number nor a missing mark.
func ParseWorldBank(r io.Reader, published time.Time) ([]market.Price, error) {
	res := Result{Published: published}
	if err := parseWorldBank(r, &res); err != nil {
		return nil, err
	}
	return res.Prices, nil
}

// wbColumn is a carried column of the sheet.
type wbColumn struct {
	code, name, unit, commodity string
}

func parseWorldBank(r io.Reader, res *Result) error {
	x, sheet, closeFn, err := openWorkbook(r, WorldBankSheet)
	if err != nil {
		return err
	}
	defer closeFn()
	var prev [2]map[int]string // the two rows before the current one
	var cols map[int]wbColumn
	var firstErr error
	fail := func(e error) {
		if firstErr == nil {
			firstErr = e
		}
	}
	start := res.count()
	for row := range x.ReadRows(sheet) { // always drained: the reader's goroutine ends with the sheet
		if firstErr != nil {
			continue
		}
		if row.Error != nil {
			fail(fmt.Errorf("sheet %q row %d: %v", sheet, row.Index, row.Error))
			continue
		}
		cells := make(map[int]string, len(row.Cells))
		for _, c := range row.Cells {
			if i := c.ColumnIndex(); i >= 0 && i < 16384 {
				cells[i] = c.Value
			}
		}
		if cols == nil {
			if m := updatedRE.FindStringSubmatch(cells[0]); m != nil {
				if t, ok := parseLongDate(m[1]); ok {
					res.Published = t
				}
			}
			if c, err := wbHeader(cells, prev); err != nil {
				fail(fmt.Errorf("sheet %q row %d: %w", sheet, row.Index, err))
			} else if c != nil {
				cols = c
				res.Skipped += countCodes(cells) - len(c)
			}
			prev[0], prev[1] = prev[1], cells
			continue
		}
		if err := wbRow(row.Index, cells, cols, res); err != nil {
			fail(fmt.Errorf("sheet %q row %d: %w", sheet, row.Index, err))
		} else if err := res.flush(false); err != nil {
			fail(err)
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if cols == nil {
		return fmt.Errorf("sheet %q: no header row with the series codes (CRUDE_BRENT, WHEAT_US_HRW, ...)", sheet)
	}
	if res.count() == start {
		return fmt.Errorf("sheet %q: no monthly rows (period like 1960M01 in column A)", sheet)
	}
	return nil
}

// wbHeader returns the carried columns when cells is the codes row (it has
// carried codes, the row above has units, the one above that names), nil
// when it is not, and an error for a carried code with an unknown unit.
func wbHeader(cells map[int]string, prev [2]map[int]string) (map[int]wbColumn, error) {
	units, labels := 0, 0
	for i, v := range prev[1] {
		if v = strings.TrimSpace(v); i > 0 && v != "" {
			labels++
			if strings.HasPrefix(v, "(") {
				units++
			}
		}
	}
	if units == 0 || 2*units < labels {
		return nil, nil // the row above is not the units row: this is not the codes row
	}
	cols := map[int]wbColumn{}
	for i, v := range cells {
		code := strings.TrimSpace(v) // codes are upper case; names ("Soybeans") are not
		comm, ok := WorldBankCarried[code]
		if !ok || i == 0 {
			continue
		}
		label := strings.Trim(strings.ToLower(strings.TrimSpace(prev[1][i])), "()")
		unit, ok := worldBankUnits[strings.ReplaceAll(label, " ", "")]
		if !ok {
			return nil, fmt.Errorf("series %s: unit %q above its code is not one the service knows", code, trunc(prev[1][i]))
		}
		cols[i] = wbColumn{code: code, name: cleanName(prev[0][i]), unit: unit, commodity: comm}
	}
	if len(cols) == 0 {
		return nil, nil
	}
	return cols, nil
}

// countCodes counts the cells after column A of a codes row.
func countCodes(cells map[int]string) int {
	n := 0
	for i, v := range cells {
		if i > 0 && strings.TrimSpace(v) != "" {
			n++
		}
	}
	return n
}

// wbRow adds the carried values of one data row.
func wbRow(index int, cells map[int]string, cols map[int]wbColumn, res *Result) error {
	a := strings.TrimSpace(cells[0])
	m := periodRE.FindStringSubmatch(a)
	if m == nil {
		return nil // a note or blank row below the data
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	if mo < 1 || mo > 12 {
		return fmt.Errorf("period %q has no month %d", a, mo)
	}
	date := utcDate(y, time.Month(mo), 1)
	idx := make([]int, 0, len(cols))
	for i := range cols {
		idx = append(idx, i)
	}
	sort.Ints(idx) // the sheet's column order, the same on every run
	for _, i := range idx {
		c := cols[i]
		s := strings.TrimSpace(cells[i])
		switch s {
		case "", "…", "...", "..", "n.a.", "na", "NA", "-", "–":
			res.Missing++
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("column %s (%s): %q is neither a number nor a missing mark", columnName(i), c.code, trunc(s))
		}
		res.Prices = append(res.Prices, market.Price{
			Source: market.SourceWorldBank, Series: c.code, Name: c.name, Commodity: c.commodity,
			Date: date, Frequency: market.Monthly, Value: v, Unit: c.unit, Currency: market.CurrencyUSD,
			USDPerTonne: market.ToUSDPerTonne(v, c.unit, c.commodity), Published: res.Published,
		})
	}
	return nil
}

// cleanName drops footnote marks and doubled spaces from a series name.
func cleanName(s string) string {
	return strings.Join(strings.Fields(strings.TrimRight(strings.TrimSpace(s), "* ")), " ")
}

// columnName is the spreadsheet letter of a 0-based column index.
func columnName(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// parseLongDate reads "November 04, 2025" (or "Nov 4 2025").
func parseLongDate(s string) (time.Time, bool) {
	s = strings.Join(strings.Fields(strings.ReplaceAll(strings.ReplaceAll(s, ",", " "), ".", "")), " ")
	for _, layout := range []string{"January 2 2006", "Jan 2 2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
