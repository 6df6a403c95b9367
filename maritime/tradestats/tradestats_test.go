package tradestats

import (
	"math"
	"testing"
)

func TestCountryLookup(t *testing.T) {
	for _, s := range []string{"brazil", "BRA", "br", " Brazil ", "BRASIL", "76"} {
		if c, ok := LookupCountry(s); !ok || c.Code != 76 || c.ISO3 != "BRA" {
			t.Errorf("%q: %+v %v", s, c, ok)
		}
	}
	if c, ok := LookupCountry("russian federation"); !ok || c.ISO2 != "RU" {
		t.Errorf("russia %+v", c)
	}
	for _, s := range []string{"china", "China", "CHN", "cn", "156"} {
		if c, ok := LookupCountry(s); !ok || c.Code != 156 {
			t.Errorf("%q: %+v", s, c)
		}
	}
	if c, ok := LookupCountry("china, hong kong sar"); !ok || c.Code != 344 {
		t.Errorf("hong kong %+v", c)
	}
	if _, ok := LookupCountry("atlantis"); ok {
		t.Error("atlantis found")
	}
	if _, ok := LookupCountry(""); ok {
		t.Error("empty found")
	}
}

func TestCommodities(t *testing.T) {
	cases := map[string]string{"1001": "wheat", "1005": "maize", "1201": "soybeans", "120190": "soybeans", "2601": "iron_ore",
		"2701": "coal", "2709": "crude_oil", "2711": "lng", "TOTAL": "all", "9999": "hs9999"}
	for hs, want := range cases {
		if got := CommodityOfHS(hs); got != want {
			t.Errorf("%s: %s, want %s", hs, got, want)
		}
	}
	for name, want := range map[string]string{"Soybeans": "1201", "corn": "1005", "iron ore": "2601", "hs2709": "2709", "1001": "1001", "all": "TOTAL"} {
		if got, ok := HSOfCommodity(name); !ok || got != want {
			t.Errorf("%s: %s %v", name, got, ok)
		}
	}
	if _, ok := HSOfCommodity("unobtainium"); ok {
		t.Error("unknown commodity found")
	}
}

func TestMirrorStatus(t *testing.T) {
	for pct, want := range map[float64]string{0: MirrorConsistent, -5: MirrorConsistent, 5.1: MirrorMinor, -20: MirrorMinor, 20.5: MirrorMajor,
		math.NaN(): MirrorOneSideMissing} {
		if got := MirrorStatus(pct); got != want {
			t.Errorf("%v: %s", pct, got)
		}
	}
}

func TestMirror(t *testing.T) {
	flows := []Flow{
		{ReporterCode: 76, ReporterName: "Brazil", PartnerCode: 156, PartnerName: "China", Flow: FlowExport, HSCode: "1201", Period: "2024", NetWeightKg: 100e6},
		{ReporterCode: 156, ReporterName: "China", PartnerCode: 76, PartnerName: "Brazil", Flow: FlowImport, HSCode: "1201", Period: "2024", NetWeightKg: 110e6},
		{ReporterCode: 32, ReporterName: "Argentina", PartnerCode: 156, PartnerName: "China", Flow: FlowExport, HSCode: "1201", Period: "2024", NetWeightKg: 5e6},
		{ReporterCode: 32, ReporterName: "Argentina", PartnerCode: 0, PartnerName: "World", Flow: FlowExport, HSCode: "1201", Period: "2024", NetWeightKg: 5e6},
	}
	ds := Mirror(flows)
	if len(ds) != 2 {
		t.Fatalf("%+v", ds)
	}
	if d := ds[1]; d.ExporterName != "Brazil" || d.ImporterName != "China" || d.ExportedT != 100e3 || d.ImportedT != 110e3 ||
		math.Abs(d.DiscrepancyPct-10) > 1e-9 || d.Status != MirrorMinor || d.Commodity != "soybeans" {
		t.Errorf("%+v", d)
	}
	if d := ds[0]; d.ExporterName != "Argentina" || d.Status != MirrorOneSideMissing || d.HasImport {
		t.Errorf("%+v", d)
	}
}
