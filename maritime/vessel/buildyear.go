package vessel

import (
	"math"

	"overwatch"
)

// IMOSeries maps years to the IMO numbers being assigned about then: the
// IMO series (Lloyd's Register numbers, then IHS/S&P) grows with time, so
// an IMO number dates its hull to within a few years. The points are taken
// from the build years of ships in public registers (Equasis) around each
// number, rounded.
var IMOSeries = [][2]float64{{1990, 8900000}, {1995, 9100000}, {2000, 9200000}, {2004, 9300000}, {2008, 9400000}, {2010, 9500000}, {2012, 9600000}, {2014, 9700000}, {2017, 9800000}, {2021, 9900000}, {2025, 9990000}}

// IMOForYear is the IMO number being assigned at the (fractional) year,
// interpolated along IMOSeries.
func IMOForYear(year float64) float64 {
	s := IMOSeries
	if year <= s[0][0] {
		return s[0][1]
	}
	for i := 1; i < len(s); i++ {
		if a, b := s[i-1], s[i]; year <= b[0] {
			return a[1] + (year-a[0])/(b[0]-a[0])*(b[1]-a[1])
		}
	}
	return s[len(s)-1][1]
}

// BuildYearFromIMO estimates a ship's build year from its IMO number, the
// inverse of IMOForYear; numbers below the series' first point give its
// first year (the estimate is "that old or older").
func BuildYearFromIMO(imo overwatch.IMO) int {
	s, n := IMOSeries, float64(imo)
	if n <= s[0][1] {
		return int(s[0][0])
	}
	for i := 1; i < len(s); i++ {
		if a, b := s[i-1], s[i]; n <= b[1] {
			return int(math.Floor(a[0] + (n-a[1])/(b[1]-a[1])*(b[0]-a[0])))
		}
	}
	return int(s[len(s)-1][0])
}
