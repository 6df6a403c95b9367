package sim

import (
	"math"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
)

// GapMinimum is the shortest silence recorded as an AIS gap (GFW analyses
// gaps of 12 hours and more).
const GapMinimum = 12 * time.Hour

// gapTracker derives a vessel's AIS gaps from the positions actually
// received (by any provider): two consecutive received positions at least
// GapMinimum apart make a gap. A gap is suspected intentional by the
// criteria of METHODS.md: both ends more than 50 nm from shore and dense
// reception before (at least 20 positions per 12 hours over the 48 hours
// before, that is 80). Injected is true when the vessel switched its AIS
// off during the gap (the rest are reception outages).
type gapTracker struct {
	p        *Planner
	t        *track
	last     time.Time
	lat, lon float64
	reported float64
	recent   []time.Time
	sawDark  bool
}

// darkCall is a port call made with AIS off.
type darkCall struct {
	Port     string    `json:"port"`
	Arrival  time.Time `json:"arrival"`
	Departed time.Time `json:"departure"`
}

func (g *gapTracker) init(p *Planner, t *track) { g.p, g.t = p, t }

func (g *gapTracker) dark(s *Segment) { g.sawDark = true }

func (g *gapTracker) received(at time.Time, s *Segment, lat, lon float64) {
	if !g.last.IsZero() && at.Sub(g.last) >= GapMinimum {
		g.write(at, &Position{Lat: lat, Lon: lon}, s.Reported)
	}
	g.last, g.lat, g.lon, g.reported = at, lat, lon, s.Reported
	g.recent = append(g.recent, at)
	cut := 0
	for cut < len(g.recent) && at.Sub(g.recent[cut]) > 48*time.Hour {
		cut++
	}
	g.recent = g.recent[cut:]
	g.sawDark = false
}

// finish records a gap still open at the end of the simulation.
func (g *gapTracker) finish(end time.Time) {
	if !g.last.IsZero() && end.Sub(g.last) >= GapMinimum {
		g.write(time.Time{}, nil, 0)
	}
}

func (g *gapTracker) write(end time.Time, at *Position, reported float64) {
	startShore := geo.DistanceToShoreKM(g.lat, g.lon) / kmPerNM
	dense := len(g.recent) >= 80
	detail := map[string]any{
		"start_position":          Position{Lat: g.lat, Lon: g.lon},
		"start_distance_shore_nm": math.Round(startShore),
		"dense_before":            dense,
		"positions_48h_before":    len(g.recent),
		"injected":                g.sawDark,
		"draught_before":          g.reported,
	}
	tr := Truth{Type: "ais_gap", Vessels: []overwatch.IMO{g.t.v.IMO}, Start: tp(g.last), Position: &Position{Lat: g.lat, Lon: g.lon}, Detail: detail}
	intentional := false
	if at != nil {
		endShore := geo.DistanceToShoreKM(at.Lat, at.Lon) / kmPerNM
		hours := end.Sub(g.last).Hours()
		km := geo.DistanceKM(g.lat, g.lon, at.Lat, at.Lon)
		intentional = startShore > 50 && endShore > 50 && dense
		tr.End = tp(end)
		detail["end_position"] = *at
		detail["end_distance_shore_nm"] = math.Round(endShore)
		detail["hours"] = math.Round(hours*10) / 10
		detail["distance_nm"] = math.Round(km / kmPerNM)
		detail["implied_speed_kn"] = math.Round(km/kmPerNM/hours*10) / 10
		detail["draught_after"] = reported
		detail["draught_change"] = round1(reported - g.reported)
		var calls []darkCall
		for _, c := range g.t.darkCalls {
			if c.Arrival.After(g.last) && c.Departed.Before(end) {
				calls = append(calls, c)
			}
		}
		if len(calls) > 0 {
			detail["dark_port_calls"] = calls
		}
	} else {
		detail["ongoing"] = true
	}
	detail["intentional"] = intentional
	if intentional {
		tr.Subtype = "intentional"
	}
	g.p.truth.write(tr)
}
