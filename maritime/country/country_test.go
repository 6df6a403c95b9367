package country

import (
	"strings"
	"testing"
)

// One row per code, one per ISO code; names, other names and codes of
// both former uses find their country: Comtrade's spellings and the
// sanctions lists' flag names.
func TestTable(t *testing.T) {
	t.Parallel()
	iso2, iso3 := map[string]int{}, map[string]int{}
	for _, line := range strings.Split(table, "\n") {
		f := strings.Split(line, "|")
		if len(f) != 5 {
			t.Fatalf("row %q", line)
		}
		if f[2] != "" {
			iso2[f[2]]++
		}
		iso3[f[1]]++
	}
	for c, n := range iso2 {
		if n > 1 {
			t.Errorf("ISO2 %s in %d rows", c, n)
		}
	}
	for c, n := range iso3 {
		if n > 1 {
			t.Errorf("ISO3 %s in %d rows", c, n)
		}
	}
	for name, want := range map[string]string{
		"Russian Federation": "RU", "Côte d'Ivoire": "CI", "Dem. People's Rep. of Korea": "KP", "DPRK": "KP",
		"St. Kitts & Nevis": "KN", "Saint Vincent and the Grenadines": "VC", "The Bahamas": "BS", "Swaziland": "SZ",
		"Taiwan": "TW", "usa": "US", "BRA": "BR", "Türkiye": "TR", "Turkiye": "TR",
	} {
		if c, ok := Lookup(name); !ok || c.ISO2 != want {
			t.Errorf("Lookup(%q) = %+v, %v; want %s", name, c, ok, want)
		}
	}
	if c, ok := ByCode(842); !ok || c.ISO3 != "USA" {
		t.Errorf("ByCode(842) = %+v", c)
	}
	if _, ok := Lookup("Atlantis"); ok {
		t.Error("Atlantis found")
	}
}
