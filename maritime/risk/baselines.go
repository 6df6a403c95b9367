package risk

import (
	"math"
	"sort"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Baseline areas: the region (ports.json's `region`) of the nearest
// reference port, or AreaOpenOcean farther than OpenOceanKM from every
// port. CategoryAll is the category of the baseline of every vessel.
const (
	AreaOpenOcean = "open_ocean"
	OpenOceanKM   = 500
	CategoryAll   = "all"
)

// BaselineArea is the area of a position for baselines: the region of the
// nearest reference port within OpenOceanKM, else AreaOpenOcean (also
// for an invalid position).
func BaselineArea(lat, lon float64) string {
	if !scoreValidPosition(lat, lon) {
		return AreaOpenOcean
	}
	best, area := math.Inf(1), AreaOpenOcean
	for _, p := range seaport.All() {
		if d := geo.DistanceKM(lat, lon, p.Lat, p.Lon); d < best && d <= OpenOceanKM {
			best, area = d, p.Region
		}
	}
	return area
}

// AddVesselDays adds one vessel's vessel-days between from and to to into,
// keyed by [area, category] and [area, CategoryAll]: each UTC day the
// vessel reported is one vessel-day, shared equally among the areas
// (BaselineArea) of its positions that day, read at most once an hour.
func AddVesselDays(into map[[2]string]float64, track []vessel.TrackPoint, category string, from, to time.Time) {
	type dayArea struct {
		day  int64
		area string
	}
	seen := map[dayArea]bool{}
	areas := map[int64]int{}
	var lastHour int64 = math.MinInt64
	for i := range track {
		p := &track[i]
		if p.TS.Before(from) || !p.TS.Before(to) {
			continue
		}
		hour := p.TS.Unix() / 3600
		if hour == lastHour {
			continue
		}
		lastHour = hour
		k := dayArea{hour / 24, BaselineArea(p.Lat, p.Lon)}
		if !seen[k] {
			seen[k] = true
			areas[k.day]++
		}
	}
	for k := range seen {
		share := 1 / float64(areas[k.day])
		into[[2]string{k.area, CategoryAll}] += share
		if category != "" && category != CategoryAll {
			into[[2]string{k.area, category}] += share
		}
	}
}

// Baselines computes the normal rates of risk events per area and vessel
// category between from and to, for comparison with a vessel's or a
// place's events: gaps per vessel-day (AIS gaps that started in the
// period, over the vessel-days observed in the area: AddVesselDays),
// loitering hours per day and transfers per day (over the days of the
// period). An event belongs to the area where it started (BaselineArea)
// and to its vessel's category, read from Detail["category"] (a ship
// category name), besides CategoryAll; see BaselinesByVessel to give the
// categories instead. A baseline is returned for each [area, category] of
// vesselDays with vessel-days (the CategoryAll ones summed from the
// categories when vesselDays has none), ordered by area, then category
// (CategoryAll first).
func Baselines(events []Event, vesselDays map[[2]string]float64, from, to time.Time) []Baseline {
	return BaselinesByVessel(events, nil, vesselDays, from, to)
}

// BaselinesByVessel is Baselines with the vessels' categories given by
// IMO; an event of a vessel not in categories falls back on its
// Detail["category"].
func BaselinesByVessel(events []Event, categories map[overwatch.IMO]string, vesselDays map[[2]string]float64, from, to time.Time) []Baseline {
	if !to.After(from) {
		return nil
	}
	days := to.Sub(from).Hours() / 24
	type counts struct{ gaps, loiter, transfers float64 }
	byKey := map[[2]string]*counts{}
	add := func(area, cat string, f func(c *counts)) {
		keys := [][2]string{{area, CategoryAll}}
		if cat != "" && cat != CategoryAll {
			keys = append(keys, [2]string{area, cat})
		}
		for _, k := range keys {
			if byKey[k] == nil {
				byKey[k] = &counts{}
			}
			f(byKey[k])
		}
	}
	for i := range events {
		e := &events[i]
		cat, ok := categories[e.IMO]
		if !ok {
			cat, _ = e.Detail["category"].(string)
		}
		area := BaselineArea(e.Lat, e.Lon)
		started := !e.Start.Before(from) && e.Start.Before(to)
		switch e.Type {
		case EventGap:
			if started {
				add(area, cat, func(c *counts) { c.gaps++ })
			}
		case EventSTS:
			if started {
				add(area, cat, func(c *counts) { c.transfers++ })
			}
		case EventLoitering:
			end := to
			if e.End != nil && e.End.Before(to) {
				end = *e.End
			}
			start := e.Start
			if start.Before(from) {
				start = from
			}
			if h := end.Sub(start).Hours(); h > 0 {
				add(area, cat, func(c *counts) { c.loiter += h })
			}
		}
	}
	vd := map[[2]string]float64{}
	hasAll := map[string]bool{}
	for k := range vesselDays {
		if k[1] == CategoryAll {
			hasAll[k[0]] = true
		}
	}
	for k, v := range vesselDays {
		if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		vd[k] += v
		if k[1] != CategoryAll && !hasAll[k[0]] {
			vd[[2]string{k[0], CategoryAll}] += v
		}
	}
	var out []Baseline
	for k, v := range vd {
		b := Baseline{Area: k[0], Category: k[1], VesselDays: baselineRound(v), From: from, To: to}
		if c := byKey[k]; c != nil {
			b.GapsPerVesselDay = baselineRound(c.gaps / v)
			b.LoiterHoursPerDay = baselineRound(c.loiter / days)
			b.TransfersPerDay = baselineRound(c.transfers / days)
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Area != b.Area {
			return a.Area < b.Area
		}
		if (a.Category == CategoryAll) != (b.Category == CategoryAll) {
			return a.Category == CategoryAll
		}
		return a.Category < b.Category
	})
	return out
}

// baselineRound rounds a rate to six decimals.
func baselineRound(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// BaselineWindow is the period the baselines are computed over: the 30
// days to the end of the data.
const BaselineWindow = 30 * day
