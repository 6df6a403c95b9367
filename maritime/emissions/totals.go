package emissions

import (
	"cmp"
	"slices"
)

// Totals sums voyages. Central values add up; Low and High are the
// sums of the voyages' lows and highs, as if every voyage erred the same way
// (conservative: wider than independent errors would give). Intensities are
// total emissions over total tonne-miles, ballast legs included; their low
// is the low emissions over the high tonne-miles, and the reverse.
type Totals struct {
	Voyages                 int     `json:"voyages"`
	DistanceNM              float64 `json:"distance_nm"`
	CargoTonnes             Bounds  `json:"cargo_tonnes"`
	TonneMiles              Bounds  `json:"tonne_miles"`
	FuelTonnes              Bounds  `json:"fuel_tonnes"`
	TTW                     Bounds  `json:"ttw_t_co2e"`
	WTW                     Bounds  `json:"wtw_t_co2e"`
	IntensityTTW            Bounds  `json:"intensity_ttw_g_per_tnm"`
	IntensityWTW            Bounds  `json:"intensity_wtw_g_per_tnm"`
	AISDistanceVoyages      int     `json:"ais_distance_voyages"`
	AISCargoVoyages         int     `json:"ais_cargo_voyages"`
	DefaultIntensityVoyages int     `json:"default_intensity_voyages"`
	NoEstimateVoyages       int     `json:"no_estimate_voyages"`
}

// Add adds a voyage to the totals.
func (t *Totals) Add(v *Voyage) {
	t.Voyages++
	t.DistanceNM += v.DistanceNM
	for _, p := range [...][2]*Bounds{{&t.CargoTonnes, &v.CargoTonnes}, {&t.TonneMiles, &v.TonneMiles},
		{&t.FuelTonnes, &v.FuelTonnes}, {&t.TTW, &v.TTW}, {&t.WTW, &v.WTW}} {
		p[0].Low, p[0].Central, p[0].High = p[0].Low+p[1].Low, p[0].Central+p[1].Central, p[0].High+p[1].High
	}
	t.AISDistanceVoyages += b2i(v.AISDistance)
	t.AISCargoVoyages += b2i(v.AISCargo)
	t.DefaultIntensityVoyages += b2i(v.Method == MethodDefaultIntensity)
	t.NoEstimateVoyages += b2i(v.Method == MethodNone)
	t.IntensityTTW, t.IntensityWTW = perTonneMile(t.TTW, t.TonneMiles), perTonneMile(t.WTW, t.TonneMiles)
}

// perTonneMile is grams per tonne-mile of tonnes e over tonne-miles tm.
func perTonneMile(e, tm Bounds) Bounds {
	if tm.Central <= 0 || tm.Low <= 0 {
		return Bounds{}
	}
	return Bounds{e.Low * 1e6 / tm.High, e.Central * 1e6 / tm.Central, e.High * 1e6 / tm.Low}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Sum returns the totals of the voyages.
func Sum(rows []Voyage) Totals {
	var t Totals
	for i := range rows {
		t.Add(&rows[i])
	}
	return t
}

// GroupBy is a dimension to total voyages by (the group_by
// parameter takes none, imo, port and commodity).
type GroupBy string

// Grouping dimensions. Port is the arrival (discharge) port of the leg, so
// that every voyage is in exactly one group; month is the arrival month
// (UTC), or the departure month when the arrival is unknown.
const (
	GroupNone        GroupBy = "none"
	GroupIMO         GroupBy = "imo"
	GroupPort        GroupBy = "port"
	GroupCommodity   GroupBy = "commodity"
	GroupMonth       GroupBy = "month"
	GroupVesselClass GroupBy = "vessel_class"
)

// ParseGroupBy returns the group_by value s; empty is none.
func ParseGroupBy(s string) (GroupBy, bool) {
	switch g := GroupBy(s); g {
	case "":
		return GroupNone, true
	case GroupNone, GroupIMO, GroupPort, GroupCommodity:
		return g, true
	}
	return "", false
}

// Key returns the group of a voyage; an unknown value is "unknown".
func (g GroupBy) Key(v *Voyage) string {
	var k string
	switch g {
	case GroupIMO:
		k = v.IMO.String()
	case GroupPort:
		k = v.To
	case GroupCommodity:
		k = v.Commodity
	case GroupVesselClass:
		k = string(v.Class)
	case GroupMonth:
		if t := v.Arrival; !t.IsZero() || !v.Departure.IsZero() {
			if t.IsZero() {
				t = v.Departure
			}
			k = t.UTC().Format("2006-01")
		}
	default:
		return "all"
	}
	return cmp.Or(k, "unknown")
}

// Group is the totals of one group.
type Group struct {
	Key string `json:"key"`
	Totals
}

// GroupVoyages totals the voyages by g, in key order; every voyage is in
// exactly one group, so the groups add up to SumEmissions. GroupNone gives
// no groups.
func GroupVoyages(rows []Voyage, g GroupBy) []Group {
	if g == GroupNone || g == "" {
		return nil
	}
	at := map[string]int{}
	var out []Group
	for i := range rows {
		k := g.Key(&rows[i])
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, Group{Key: k})
		}
		out[j].Add(&rows[i])
	}
	slices.SortFunc(out, func(a, b Group) int { return cmp.Compare(a.Key, b.Key) })
	return out
}
