package overwatch

import "testing"

func TestParseProvider(t *testing.T) {
	for _, p := range Providers() {
		if got, ok := ParseProvider(string(p)); !ok || got != p {
			t.Errorf("ParseProvider(%q) = %q, %v", p, got, ok)
		}
	}
	for _, bad := range []string{"", "none", "AISHUB", "all"} {
		if _, ok := ParseProvider(bad); ok {
			t.Errorf("ParseProvider(%q) accepted", bad)
		}
	}
	if _, ok := ParseSource(string(SourceAny)); ok {
		t.Error("ParseSource accepted any, which names no source")
	}
	if p := Providers(); len(p) != len(Sources)+1 || p[len(p)-1] != SourceAny {
		t.Errorf("Providers() = %v, want the sources then any", p)
	}
}
