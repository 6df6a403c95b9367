package crop

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	fileGrains  = "usda_fas_psd_grains_pulses_wheat_corn_export_regions_my2010-2025_2025-11.csv"
	fileEU      = "usda_fas_psd_eu_area_prod_romania_bulgaria_2025-11.csv"
	fileRussia  = "usda_fas_psd_russiabreakdown_area_prod_2025-11.csv"
	fileWASDE   = "usda_oce_wasde_report_data_2025-11.csv"
	fileAppEARS = "appeears_point_MOD13Q1_006_ndvi_neon_harv_2012-2020.csv"
)

func TestParsePSDRealFiles(t *testing.T) {
	for _, c := range []struct {
		file string
		rows int
	}{{fileGrains, 3360}, {fileEU, 1239}, {fileRussia, 156}} {
		res, err := Parse(bytes.NewReader(read(t, c.file)))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if res.Kind != KindPSD || len(res.PSD) != c.rows {
			t.Errorf("%s: %s with %d rows, want PSD with %d", c.file, res.Kind, len(res.PSD), c.rows)
		}
	}
	res, _ := Parse(bytes.NewReader(read(t, fileGrains)))
	found := false
	for _, r := range res.PSD {
		if r.CommodityCode == "0440000" && r.CountryCode == "BR" && r.MarketYear == 2025 && r.AttributeID == "028" {
			found = true
			if r.Value != 131000 || r.Unit != "(1000 MT)" || r.Commodity != "Corn" || r.UnitID != "08" {
				t.Errorf("BR corn 2025 production: %+v", r)
			}
			if !r.Revised.Equal(time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)) {
				t.Errorf("revision date %v, want 2025-11 (Calendar_Year/Month)", r.Revised)
			}
		}
	}
	if !found {
		t.Error("no BR corn 2025 production row (code 0440000 must stay a string)")
	}
	res, _ = Parse(bytes.NewReader(read(t, fileEU)))
	for _, r := range res.PSD {
		if r.Commodity == "Oilseed, Rapeseed" {
			return
		}
	}
	t.Error("the quoted description with a comma was not read whole")
}

func TestParseWASDERealFile(t *testing.T) {
	res, err := Parse(bytes.NewReader(read(t, fileWASDE)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindWASDE || len(res.WASDE)+res.Missing != 5054 || res.Missing != 4 {
		t.Fatalf("%s: %d rows, %d missing; want 5,050 + 4", res.Kind, len(res.WASDE), res.Missing)
	}
	var got bool
	for _, r := range res.WASDE {
		if r.Table == "U.S. Wheat by Class: Supply and Use" && r.Commodity == "Wheat, White" && r.Attribute == "Production" && r.MarketYear == "2025/26" {
			got = r.Value == 283 && r.Flag == "Proj." && r.WasdeNumber == 665 && r.Released.Format(time.DateOnly) == "2025-11-14"
		}
		if r.Value == .25 && r.Attribute == "Domestic Feed" && r.Region == "Argentina" && r.MarketYear == "2023/24" && r.Flag != "" {
			t.Errorf("empty ProjEstFlag read as %q", r.Flag)
		}
	}
	if !got {
		t.Error("white wheat 2025/26 production not read as 283 million bushels, (Proj.) flag unwrapped")
	}
}

func TestParseAppEEARSRealFile(t *testing.T) {
	res, err := Parse(bytes.NewReader(read(t, fileAppEARS)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindAppEEARS || len(res.NDVI) != 1800 {
		t.Fatalf("%s with %d samples, want 1,800", res.Kind, len(res.NDVI))
	}
	s := res.NDVI[0]
	if s.NDVI != 0.7399 || s.MODLAND != "0b00" || s.Pixel != "4243" || s.Product != "MOD13Q1_006" || s.Date.Format(time.DateOnly) != "2011-12-19" {
		t.Errorf("first sample %+v", s)
	}
	if res.NDVI[1].MODLAND != "0b01" || !res.NDVI[1].Usable() {
		t.Errorf("second sample (check QA, description quoted) %+v", res.NDVI[1])
	}
}

func TestParseFailures(t *testing.T) {
	wasde := read(t, fileWASDE)
	psd := read(t, fileGrains)
	cases := map[string][]byte{
		"empty":           nil,
		"html":            []byte("<!DOCTYPE html><html><body>Service unavailable</body></html>"),
		"header only":     psd[:bytes.IndexByte(psd, '\n')+1],
		"cut mid-quote":   wasde[:len(wasde)/2+7],
		"psd bad code":    []byte(strings.Replace(string(psd[:2000]), "0440000,", "44e4,", 1)),
		"psd bad value":   []byte(strings.Replace(string(psd[:400]), "3750.0000", "n/a", 1)),
		"unknown header":  []byte("a,b,c\n1,2,3\n"),
		"appeears no col": []byte("Category,ID,Latitude,Longitude,Date\nX,1,0,0,2020-01-01\n"),
	}
	for name, b := range cases {
		if _, err := Parse(bytes.NewReader(b)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{fileGrains, fileEU, fileRussia, fileWASDE, fileAppEARS} {
		b := read(f, n)
		f.Add(b[:min(len(b), 6000)])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := Parse(bytes.NewReader(b))
		if err == nil && res.Rows() == 0 {
			t.Error("success with no rows")
		}
		for _, s := range res.NDVI {
			if s.NDVI < -1 || s.NDVI > 1 {
				t.Errorf("NDVI %v kept", s.NDVI)
			}
		}
	})
}
