package sar

import (
	"math"
	"sort"
	"time"
)

// Pass is an acquisition over a point: a catalogue product's, or one
// predicted from a relative orbit's known pass and the 12-day cycle.
type Pass struct {
	Time          time.Time
	Platform      string
	RelativeOrbit int
	Direction     string
	Predicted     bool
	From          string // the product the pass is known from or predicted from
}

// Potential is how well the closest pass could verify something at the
// point and time: high, medium, low or none.
type Potential string

// The verification potentials and their thresholds on the closest pass
// (documented in docs/sar-coverage.md): within HighHours high, within
// MediumHours medium, within LowHours low, else (or no pass) none.
const (
	High   Potential = "high"
	Medium Potential = "medium"
	Low    Potential = "low"
	None   Potential = "none"

	HighHours   = 6
	MediumHours = 24
	LowHours    = 72
)

// PotentialOf is the potential of a closest pass hours away (negative:
// no pass).
func PotentialOf(hours float64) Potential {
	switch {
	case hours < 0 || math.IsNaN(hours):
		return None
	case hours <= HighHours:
		return High
	case hours <= MediumHours:
		return Medium
	case hours <= LowHours:
		return Low
	}
	return None
}

// Coverage is what the catalogue says of a point and time.
type Coverage struct {
	Products  []Product // within the radius and Window of the time, nearest in time first
	Closest   *Pass     // nil: none known or predicted
	Hours     float64   // |Closest.Time - t| in hours; -1 when Closest is nil
	Potential Potential
}

// Near reports whether a product's footprint comes within radiusKm of
// the point.
func Near(p Product, lat, lng, radiusKm float64) bool {
	return p.Footprint.Valid() && p.Footprint.DistanceKm(lat, lng) <= radiusKm
}

// CoverageAt is the coverage of the point (lat, lng) within radiusKm at
// t, from the products known around it (any time: each relative orbit's
// known passes predict its passes at t): the products within Window of t
// are listed; the closest pass is the nearest in time of those and of
// the predicted ones.
func CoverageAt(known []Product, lat, lng, radiusKm float64, t time.Time) Coverage {
	var near []Product
	for _, p := range known {
		if Near(p, lat, lng, radiusKm) {
			near = append(near, p)
		}
	}
	cov := Coverage{Hours: -1, Potential: None}
	for _, p := range near {
		if absDur(p.Start.Sub(t)) <= Window {
			cov.Products = append(cov.Products, p)
		}
	}
	sort.SliceStable(cov.Products, func(i, j int) bool {
		di, dj := absDur(cov.Products[i].Start.Sub(t)), absDur(cov.Products[j].Start.Sub(t))
		if di != dj {
			return di < dj
		}
		return cov.Products[i].Name < cov.Products[j].Name
	})
	var best *Pass
	consider := func(p Pass) {
		if best == nil || absDur(p.Time.Sub(t)) < absDur(best.Time.Sub(t)) ||
			(absDur(p.Time.Sub(t)) == absDur(best.Time.Sub(t)) && !p.Predicted && best.Predicted) {
			q := p
			best = &q
		}
	}
	for _, p := range cov.Products {
		consider(Pass{Time: p.Start, Platform: p.Platform, RelativeOrbit: p.RelativeOrbit, Direction: p.Direction, From: p.Name})
	}
	for _, p := range Predict(near, t) {
		consider(p)
	}
	if best != nil {
		cov.Closest = best
		cov.Hours = math.Round(absDur(best.Time.Sub(t)).Hours()*100) / 100
		cov.Potential = PotentialOf(cov.Hours)
	}
	return cov
}

// Predict is, for each platform and relative orbit among the known
// products, the pass nearest t that the 12-day cycle predicts from the
// orbit's known pass nearest t: a satellite passes over the same ground
// track every 175 orbits. No pass is predicted outside the platform's
// operating window (S1B after 2021-12-23).
func Predict(known []Product, t time.Time) []Pass {
	type orbit struct {
		platform string
		rel      int
	}
	nearest := map[orbit]Product{}
	for _, p := range known {
		if p.RelativeOrbit <= 0 || p.Start.IsZero() {
			continue
		}
		k := orbit{p.Platform, p.RelativeOrbit}
		if q, ok := nearest[k]; !ok || absDur(p.Start.Sub(t)) < absDur(q.Start.Sub(t)) ||
			(absDur(p.Start.Sub(t)) == absDur(q.Start.Sub(t)) && p.Name < q.Name) {
			nearest[k] = p
		}
	}
	var out []Pass
	for k, p := range nearest {
		n := math.Round(float64(t.Sub(p.Start)) / float64(Cycle))
		if math.Abs(n) > 1e5 {
			continue
		}
		at := p.Start.Add(time.Duration(n) * Cycle)
		if !Operating(k.platform, at) {
			continue
		}
		out = append(out, Pass{Time: at, Platform: k.platform, RelativeOrbit: k.rel, Direction: p.Direction, Predicted: n != 0, From: p.Name})
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.Before(out[j].Time)
		}
		return out[i].From < out[j].From
	})
	return out
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
