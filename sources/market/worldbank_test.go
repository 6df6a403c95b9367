package market

import (
	"archive/zip"
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/market"
)

const wbFile = "worldbank_pinksheet_CMO-Historical-Data-Monthly.xlsx"

func TestParseWorldBankRealFile(t *testing.T) {
	res, err := Parse(wbFile, reader(readTestdata(t, wbFile)), "", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindWorldBank || !res.Published.Equal(day("2025-11-04")) {
		t.Fatalf("kind %s published %v", res.Kind, res.Published)
	}
	type key struct {
		series string
		date   time.Time
	}
	got := map[key]market.Price{}
	codes := map[string]bool{}
	for _, p := range res.Prices {
		got[key{p.Series, p.Date}] = p
		codes[p.Series] = true
		if p.Source != "worldbank" || p.Frequency != "monthly" || p.Date.Day() != 1 || !p.Published.Equal(res.Published) {
			t.Fatalf("bad price %+v", p)
		}
	}
	if len(codes) != len(WorldBankCarried) {
		t.Errorf("%d carried series found, want %d", len(codes), len(WorldBankCarried))
	}
	for _, c := range []struct {
		series, date, name, commodity, unit string
		value, perTonne                     float64
	}{
		{"WHEAT_US_HRW", "2025-09-01", "Wheat, US HRW", "wheat", market.UnitUSDPerTonne, 233.76, 233.76},
		{"WHEAT_US_HRW", "1960-01-01", "Wheat, US HRW", "wheat", market.UnitUSDPerTonne, 59.89, 59.89},
		{"CRUDE_BRENT", "2025-09-01", "Crude oil, Brent", "crude_oil", market.UnitUSDPerBarrel, 67.951, 67.951 * 7.33},
		{"MAIZE", "2025-10-01", "Maize", "maize", market.UnitUSDPerTonne, 198.13039555556, 198.13039555556},
		{"SOYBEAN_MEAL", "2025-10-01", "Soybean meal", "soybean_meal", market.UnitUSDPerTonne, 351.25, 351.25},
		{"IRON_ORE", "2025-10-01", "Iron ore, cfr spot", "iron_ore", market.UnitUSDPerDMTU, 103.53, math.NaN()},
		{"NGAS_JP", "2025-10-01", "Liquefied natural gas, Japan", "lng", market.UnitUSDPerMMBtu, 11.380283453260001, math.NaN()},
		{"COAL_SAFRICA", "2025-10-01", "Coal, South African", "coal", market.UnitUSDPerTonne, 91.58, 91.58},
		{"UREA_EE_BULK", "2025-10-01", "Urea", "urea", market.UnitUSDPerTonne, 394.4, 394.4},
		{"DAP", "2025-10-01", "DAP", "dap", market.UnitUSDPerTonne, 754, 754},
	} {
		p, ok := got[key{c.series, day(c.date)}]
		if !ok {
			t.Errorf("no %s on %s", c.series, c.date)
			continue
		}
		if p.Name != c.name || p.Commodity != c.commodity || p.Unit != c.unit || !approx(p.Value, c.value) ||
			!(approx(p.USDPerTonne, c.perTonne) || math.IsNaN(c.perTonne) && math.IsNaN(p.USDPerTonne)) {
			t.Errorf("%s %s = %+v", c.series, c.date, p)
		}
	}
	// "…" (WHEAT_US_SRW 1960) and "..." (DAP 1960, BARLEY 2025) are missing, not zero.
	for _, k := range []key{{"WHEAT_US_SRW", day("1960-01-01")}, {"DAP", day("1960-01-01")}, {"BARLEY", day("2025-10-01")}} {
		if p, ok := got[k]; ok {
			t.Errorf("%s %s is a missing mark, got %v", k.series, k.date.Format("2006-01"), p.Value)
		}
	}
	if res.Missing == 0 || res.Skipped == 0 {
		t.Errorf("missing %d skipped %d", res.Missing, res.Skipped)
	}
}

// workbook builds a minimal xlsx with one sheet of inline-string and
// number cells (rows of "A1=value" cells).
func workbook(t testing.TB, sheet string, rows [][]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, body string) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	add("xl/workbook.xml", `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="`+sheet+`" r:id="rId1"/></sheets></workbook>`)
	add("xl/_rels/workbook.xml.rels", `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`)
	add("xl/styles.xml", `<styleSheet></styleSheet>`)
	var sb strings.Builder
	sb.WriteString(`<worksheet><sheetData>`)
	for i, r := range rows {
		sb.WriteString(`<row r="` + itoa(i+1) + `">`)
		for j, v := range r {
			ref := columnName(j) + itoa(i+1)
			if v == "" {
				continue
			}
			if _, err := parseNum(v); err == nil {
				sb.WriteString(`<c r="` + ref + `"><v>` + v + `</v></c>`)
			} else {
				sb.WriteString(`<c r="` + ref + `" t="inlineStr"><is><t>` + v + `</t></is></c>`)
			}
		}
		sb.WriteString(`</row>`)
	}
	sb.WriteString(`</sheetData></worksheet>`)
	add("xl/worksheets/sheet1.xml", sb.String())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestWorldBankSynthetic(t *testing.T) {
	header := [][]string{
		{"World Bank Commodity Price Data (The Pink Sheet)"},
		{"Updated on March 3, 2026"},
		{"", "Wheat, US HRW", "Gold"},
		{"", "($/mt)", "($/troy oz)"},
		{"", "WHEAT_US_HRW", "GOLD"},
	}
	rows := append(append([][]string{}, header...), []string{"2026M01", "250.5", "2000"}, []string{"2026M02", "…", "2100"}, []string{"Note: x"})
	ps, err := ParseWorldBank(reader(workbook(t, "Monthly Prices", rows)), time.Time{})
	if err != nil || len(ps) != 1 || ps[0].Value != 250.5 || !ps[0].Published.Equal(day("2026-03-03")) || !ps[0].Date.Equal(day("2026-01-01")) {
		t.Fatalf("%+v %v", ps, err)
	}
	for name, c := range map[string]struct {
		sheet string
		rows  [][]string
		want  string
	}{
		"no sheet":    {"Prices", rows, "no sheet"},
		"no header":   {"Monthly Prices", [][]string{{"2026M01", "1"}}, "no header"},
		"bad unit":    {"Monthly Prices", [][]string{{"", "Wheat"}, {"", "(furlongs)"}, {"", "WHEAT_US_HRW"}, {"2026M01", "1"}}, "unit"},
		"bad month":   {"Monthly Prices", append(append([][]string{}, header...), []string{"2026M13", "1"}), "row 6"},
		"bad value":   {"Monthly Prices", append(append([][]string{}, header...), []string{"2026M01", "n/a?"}), "row 6"},
		"no data":     {"Monthly Prices", header, "no monthly rows"},
		"negative ss": {"Monthly Prices", nil, ""},
	} {
		if name == "negative ss" {
			continue
		}
		_, err := ParseWorldBank(reader(workbook(t, c.sheet, c.rows)), time.Time{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, c.want)
		}
	}
	for name, body := range map[string][]byte{
		"empty": nil, "not zip": []byte("PK\x03\x04 garbage"), "html": []byte("<html></html>"),
	} {
		if _, err := ParseWorldBank(reader(body), time.Time{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A negative shared-string index would panic inside the xlsx reader's
// goroutine; the sheet check refuses it first.
func TestWorldBankNegativeSharedString(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"xl/workbook.xml":            `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Monthly Prices" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/styles.xml":              `<styleSheet></styleSheet>`,
		"xl/sharedStrings.xml":       `<sst count="1"><si><t>x</t></si></sst>`,
		"xl/worksheets/sheet1.xml":   `<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>-1</v></c></row></sheetData></worksheet>`,
	} {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	zw.Close()
	if _, err := ParseWorldBank(reader(buf.Bytes()), time.Time{}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("error %v", err)
	}
}

func itoa(i int) string { return fmtInt(i) }
