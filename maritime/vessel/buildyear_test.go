package vessel

import (
	"testing"

	"overwatch"
)

func TestBuildYearFromIMO(t *testing.T) {
	t.Parallel()
	for year := 1990; year <= 2024; year++ {
		imo := overwatch.IMO(IMOForYear(float64(year) + 0.5))
		if got := BuildYearFromIMO(imo); got != year {
			t.Errorf("IMO %d (assigned mid-%d): build year %d", imo, year, got)
		}
	}
	if got := BuildYearFromIMO(7000000); got != 1990 {
		t.Errorf("an old number: %d, want the series' first year", got)
	}
	if got := BuildYearFromIMO(9999999); got != 2025 {
		t.Errorf("past the series: %d", got)
	}
}
