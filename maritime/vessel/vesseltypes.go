package vessel

import "math"

// Category is a family of ITU-R M.1371 ship type codes, the values of
// the `type` parameter of vessel queries.
type Category struct {
	Name  string
	Codes [][2]uint8 // inclusive ranges of ship type codes
	// Block coefficient and deadweight/displacement ratio for estimating
	// DWT from the dimensions (see EstimateDWT).
	Cb, DWTRatio float64
}

// Categories lists the categories in the order the API documents them.
var Categories = []Category{
	{"cargo", [][2]uint8{{70, 79}}, 0.84, 0.84}, // bulk-carrier form: the commodity trades
	{"tanker", [][2]uint8{{80, 89}}, 0.83, 0.85},
	{"passenger", [][2]uint8{{60, 69}}, 0.60, 0.30},
	{"high_speed", [][2]uint8{{40, 49}}, 0.45, 0.25},
	{"fishing", [][2]uint8{{30, 30}}, 0.55, 0.40},
	{"tug", [][2]uint8{{31, 32}, {52, 52}}, 0.55, 0.35},
	{"special", [][2]uint8{{33, 35}, {50, 51}, {53, 59}}, 0.60, 0.40},
	{"pleasure", [][2]uint8{{36, 37}}, 0.45, 0.20},
	{"wing_in_ground", [][2]uint8{{20, 29}}, 0.45, 0.20},
	{"other", [][2]uint8{{1, 19}, {38, 39}, {90, 99}}, 0.65, 0.50},
}

// CategoryOf returns the category of a ship type code; ok is false for
// 0 (not available) and codes of no category.
func CategoryOf(code uint8) (Category, bool) {
	for _, c := range Categories {
		for _, r := range c.Codes {
			if code >= r[0] && code <= r[1] {
				return c, true
			}
		}
	}
	return Category{}, false
}

// CategoryNamed returns the category with the name.
func CategoryNamed(name string) (Category, bool) {
	for _, c := range Categories {
		if c.Name == name {
			return c, true
		}
	}
	return Category{}, false
}

// CategoryNames lists the category names.
func CategoryNames() []string {
	out := make([]string, len(Categories))
	for i, c := range Categories {
		out[i] = c.Name
	}
	return out
}

// SeawaterDensity is the density used for displacement, t/m³.
const SeawaterDensity = 1.025

// EstimateDWT estimates deadweight tonnage from AIS dimensions: displacement
// = LBP × beam × draught × Cb × seawater density, with the length between
// perpendiculars taken as 97 % of the length overall that AIS reports, and
// DWT = displacement × the category's deadweight/displacement ratio. The
// draught should be the design (summer load) draught: the deepest draught
// the vessel has reported. Checks: a Capesize of 292 × 45 × 18.2 m gives
// about 167,800 t (real ships: 170,000–180,000), a Panamax of 225 × 32.2 ×
// 14.1 m about 71,700 t (real: 74,000–76,000), a VLCC of 330 × 60 × 22.5 m
// about 300,000 t. ok is false without all three dimensions.
func EstimateDWT(shipType uint8, lengthM, beamM, draughtM float64) (float64, bool) {
	if lengthM <= 0 || beamM <= 0 || draughtM <= 0 {
		return 0, false
	}
	c, ok := CategoryOf(shipType)
	if !ok {
		c = Categories[len(Categories)-1]
	}
	dwt := 0.97 * lengthM * beamM * draughtM * c.Cb * SeawaterDensity * c.DWTRatio
	return math.Round(dwt/100) * 100, true
}
