package ais

import (
	"strconv"
	"strings"
	"testing"
)

// TestShipTypeText compares every code with gpsd's shiptype_text (gpsd
// 3.22's table, generated with gpsdecode; the newer gpsd of the ground
// truth prints the same texts for the codes it contains). Codes 100-255
// are "INVALID SHIP TYPE" for gpsd and get ITU-R M.1371-5's wording here.
func TestShipTypeText(t *testing.T) {
	t.Parallel()
	for _, l := range readLines(t, "testdata/gpsd_3.22_shiptype_text.txt") {
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		code, text, _ := strings.Cut(string(l), "|")
		n, err := strconv.Atoi(code)
		if err != nil {
			t.Fatal(err)
		}
		want := text
		switch {
		case n >= 200:
			want = "Reserved for future use"
		case n >= 100:
			want = "Reserved for regional use"
		}
		if got := ShipTypeText(uint8(n)); got != want {
			t.Errorf("%d: %q, want %q (gpsd %q)", n, got, want, text)
		}
	}
}

func TestNavStatusText(t *testing.T) {
	t.Parallel()
	for code, want := range map[uint8]string{
		0: "Under way using engine", 3: "Restricted maneuverability", 5: "Moored", 8: "Under way sailing",
		9: "Reserved for HSC", 12: "Power-driven vessel pushing ahead or towing alongside", 15: "Not defined", 16: "Not defined",
	} {
		if got := NavStatusText(code); got != want {
			t.Errorf("%d: %q, want %q", code, got, want)
		}
	}
}

func TestOtherTexts(t *testing.T) {
	t.Parallel()
	if EPFDText(1) != "GPS" || EPFDText(15) != "Internal GNSS" || EPFDText(7) != "Surveyed" {
		t.Error("EPFD texts")
	}
	if AidTypeText(20) != "Cardinal Mark N" || AidTypeText(31) != "Light Vessel / LANBY / Rigs" {
		t.Error("aid type texts")
	}
}
