package comtrade

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"overwatch/maritime/tradestats"
)

func parseFile(t *testing.T, name string) []tradestats.Flow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := Parse(bytes.NewReader(b), name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return fs
}

// Brazil's 2024 soybean exports to China: four rows, one per mode of
// transport; only the total (motCode 0) is kept.
func TestBrazilSoyExports(t *testing.T) {
	fs := parseFile(t, "comtrade_v1_get_C_A_HS_r76_p156_cmd1201_X_2024_brazil_soy_exports_to_china.json")
	if len(fs) != 1 {
		t.Fatalf("%d flows, want the motCode 0 total only: %+v", len(fs), fs)
	}
	f := fs[0]
	if f.ReporterCode != 76 || f.ReporterISO3 != "BRA" || f.ReporterName != "Brazil" || f.PartnerCode != 156 || f.PartnerName != "China" ||
		f.Flow != tradestats.FlowExport || f.HSCode != "1201" || f.Period != "2024" || f.Year != 2024 || f.Month != 0 {
		t.Errorf("%+v", f)
	}
	if f.NetWeightKg != 72557710367 || f.ValueUSD != 31499887711 || f.ValueBasis != "fob" || f.Classification != "H6" {
		t.Errorf("weight %v value %v basis %q", f.NetWeightKg, f.ValueUSD, f.ValueBasis)
	}
}

func TestChinaSoyImports(t *testing.T) {
	fs := parseFile(t, "comtrade_v1_get_C_A_HS_r156_p76_cmd1201_M_2024_china_soy_imports_from_brazil.json")
	if len(fs) != 1 || fs[0].Flow != tradestats.FlowImport || fs[0].NetWeightKg != 74647380005 || fs[0].ValueUSD != 36455784932 ||
		fs[0].ValueBasis != "cif" || fs[0].QuantityUnit != "kg" {
		t.Fatalf("%+v", fs)
	}
}

func TestSoyComplex(t *testing.T) {
	fs := parseFile(t, "comtrade_v1_get_C_A_HS_r76_p156_cmd1201-1507-2304_X_2024_brazil_soy_complex_to_china.json")
	got := map[string]float64{}
	for _, f := range fs {
		got[tradestats.CommodityOfHS(f.HSCode)] += f.NetWeightKg
	}
	if len(fs) != 3 || len(got) != 3 || got["soybeans"] != 72557710367 || got["soybean_meal"] <= 0 || got["soybean_oil"] <= 0 {
		t.Errorf("%d flows %v", len(fs), got)
	}
}

// The full envelope: TOTAL rows have null weights (not reported).
func TestFullEnvelope(t *testing.T) {
	fs := parseFile(t, "comtrade_v1_get_C_A_HS_r156_TOTAL_2010_full_envelope.json")
	if len(fs) != 4 {
		t.Fatalf("%d flows", len(fs))
	}
	for _, f := range fs {
		if f.HSCode != "TOTAL" || f.NetWeightKg != -1 || f.Quantity != -1 || f.ValueUSD <= 0 || f.ReporterName != "China" || f.Period != "2010" {
			t.Errorf("%+v", f)
		}
	}
}

func TestEmptyAndListing(t *testing.T) {
	if fs := parseFile(t, "comtrade_bulk_v1_get_C_A_HS_empty_result.json"); len(fs) != 0 {
		t.Errorf("%+v", fs)
	}
	b, _ := os.ReadFile("testdata/comtrade_bulk_v1_get_C_A_HS_file_listing.json")
	if _, err := Parse(bytes.NewReader(b), "x"); !errors.Is(err, ErrListing) {
		t.Errorf("listing: %v", err)
	}
	for _, bad := range []string{"", `{"data":[],"error":"quota exceeded"}`, `{"count":1}`, `{"data":[{"reporterCode":"x"}]}`,
		"a,b\n1,2\n", `{"data":[{"reporterCode":76,"partnerCode":156,"flowCode":"Q","cmdCode":"1201","period":"2024"}]}`} {
		if _, err := Parse(strings.NewReader(bad), "x"); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// The bulk layout (tab-separated, the API's field names as header,
// gzipped as served) of the real Brazil row gives the same flow.
func TestBulkDelimited(t *testing.T) {
	tsv := "typeCode\tfreqCode\trefYear\trefMonth\tperiod\treporterCode\treporterISO\treporterDesc\tflowCode\tpartnerCode\tpartnerISO\tpartnerDesc\tpartner2Code\tcmdCode\tcustomsCode\tmosCode\tmotCode\tqtyUnitAbbr\tqty\tnetWgt\tcifvalue\tfobvalue\tprimaryValue\n" +
		"C\tA\t2024\t52\t2024\t76\tBRA\tBrazil\tX\t156\tCHN\tChina\t0\t1201\tC00\t0\t0\tkg\t72557710367\t72557710367\t\t31499887711\t31499887711\n" +
		"C\tA\t2024\t52\t2024\t76\tBRA\tBrazil\tX\t156\tCHN\tChina\t0\t1201\tC00\t0\t2100\tkg\t1\t1\t\t1\t1\n"
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(tsv))
	zw.Close()
	for _, in := range [][]byte{[]byte(tsv), z.Bytes(), []byte(strings.ReplaceAll(tsv, "\t", ","))} {
		fs, err := Parse(bytes.NewReader(in), "bulk")
		if err != nil || len(fs) != 1 || fs[0].NetWeightKg != 72557710367 || fs[0].ValueBasis != "fob" || fs[0].PartnerName != "China" {
			t.Errorf("%v %+v", err, fs)
		}
	}
}

func FuzzParse(f *testing.F) {
	names, _ := filepath.Glob("testdata/*.json")
	for _, n := range names {
		b, _ := os.ReadFile(n)
		f.Add(b)
	}
	f.Add([]byte("reporterCode,partnerCode,flowCode,cmdCode,period,netWgt\n76,156,X,1201,2024,5\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		fs, err := Parse(bytes.NewReader(b), "fuzz")
		if err != nil {
			return
		}
		for _, fl := range fs {
			if fl.Period == "" || fl.Flow == "" || fl.HSCode == "" || math.IsNaN(fl.NetWeightKg) || math.IsNaN(fl.ValueUSD) {
				t.Fatalf("bad flow %+v", fl)
			}
		}
	})
}
