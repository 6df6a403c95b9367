package sim

import (
	"math"
	"time"

	"overwatch"

	"overwatch/maritime/geo"
)

// GapMinimum is the shortest silence recorded as an AIS gap (GFW analyses
// gaps of 12 hours and more); GapOffOn the shortest recorded at all, as an
// off/on event (GFW: consecutive positions more than 6 hours apart).
const (
	GapMinimum = 12 * time.Hour
	GapOffOn   = 6 * time.Hour
)

// The causes of a silence (the detail "cause" of ais_gap and ais_off_on
// truth), the first that applies: the vessel switched its AIS off for some
// of it; it crossed a coverage hole; it was out of terrestrial range
// between satellite passes (or the satellites missed its reports); or
// coastal receivers missed it.
const (
	CauseTransponderOff   = "transponder_off"
	CauseCoverageHole     = "coverage_hole"
	CauseSatelliteRevisit = "satellite_revisit"
	CauseReception        = "reception"
)

// gapTracker derives a vessel's silences from the positions actually
// received (by any provider): two consecutive received positions at least
// GapOffOn apart make an off/on event (truth type ais_off_on), at least
// GapMinimum apart an AIS gap (ais_gap), each with its cause. A gap is
// intentional when the vessel switched its AIS off during it and both ends
// lie more than 50 nm from shore (what METHODS.md's criterion can see: the
// truth does not depend on how well the vessel was received before). The
// detail records besides whether reception was dense before (at least 20
// positions per 12 hours over the 48 hours before, that is 80), and
// injected (the vessel switched off) for the truths of before the causes.
type gapTracker struct {
	p        *Planner
	t        *track
	last     time.Time
	lat, lon float64
	reported float64
	recent   []time.Time
	causes   map[string]bool // why reports went unheard since the last position received
}

// causeOrder is the order in which the causes of a silence apply.
var causeOrder = []string{CauseTransponderOff, CauseCoverageHole, CauseSatelliteRevisit}

// darkCall is a port call made with AIS off.
type darkCall struct {
	Port     string    `json:"port"`
	Arrival  time.Time `json:"arrival"`
	Departed time.Time `json:"departure"`
}

func (g *gapTracker) init(p *Planner, t *track) { g.p, g.t, g.causes = p, t, map[string]bool{} }

func (g *gapTracker) dark(s *Segment) { g.causes[CauseTransponderOff] = true }

// lost records why a report went unheard.
func (g *gapTracker) lost(cause string) { g.causes[cause] = true }

// cause is the cause of the silence so far.
func (g *gapTracker) cause() string {
	for _, c := range causeOrder {
		if g.causes[c] {
			return c
		}
	}
	return CauseReception
}

func (g *gapTracker) received(at time.Time, s *Segment, lat, lon float64) {
	if !g.last.IsZero() && at.Sub(g.last) >= GapOffOn {
		g.write(at, &Position{Lat: lat, Lon: lon}, s.Reported)
	}
	g.last, g.lat, g.lon, g.reported = at, lat, lon, s.Reported
	g.recent = append(g.recent, at)
	cut := 0
	for cut < len(g.recent) && at.Sub(g.recent[cut]) > 48*time.Hour {
		cut++
	}
	g.recent = g.recent[cut:]
	for c := range g.causes {
		delete(g.causes, c)
	}
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
	cause := g.cause()
	detail := map[string]any{
		"start_position":          Position{Lat: g.lat, Lon: g.lon},
		"start_distance_shore_nm": math.Round(startShore),
		"dense_before":            dense,
		"positions_48h_before":    len(g.recent),
		"cause":                   cause,
		"injected":                cause == CauseTransponderOff,
		"draught_before":          g.reported,
	}
	tr := Truth{Type: "ais_gap", Vessels: []overwatch.IMO{g.t.v.IMO}, Start: tp(g.last), Position: &Position{Lat: g.lat, Lon: g.lon}, Detail: detail}
	if end.Sub(g.last) < GapMinimum && at != nil {
		tr.Type = "ais_off_on"
	}
	intentional := false
	if at != nil {
		endShore := geo.DistanceToShoreKM(at.Lat, at.Lon) / kmPerNM
		hours := end.Sub(g.last).Hours()
		km := geo.DistanceKM(g.lat, g.lon, at.Lat, at.Lon)
		intentional = cause == CauseTransponderOff && startShore > 50 && endShore > 50 && tr.Type == "ais_gap"
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
