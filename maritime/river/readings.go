package river

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Reading is one instantaneous value of a USGS site: a gauge height in
// feet (ParamGageHeight) or a discharge (ParamDischarge), at Time (UTC),
// with the source's qualifiers as sent ("P" provisional, "A" approved,
// "e" estimated, "Ice", "Eqp" ...).
type Reading struct {
	Site       string
	Parameter  string
	Time       time.Time
	Value      float64
	Qualifiers []string
	Source     string // "nwis-iv" or "usgs-ogc"
}

// Trends of a gauge over the last 24 hours.
const (
	TrendRising  = "rising"
	TrendFalling = "falling"
	TrendSteady  = "steady"
)

// trendBand is the 24-hour change (feet) within which a gauge is steady.
const trendBand = 0.2

// changeTolerance is how far from exactly 24 hours before the newest
// reading the earlier reading may be for a 24-hour change.
const changeTolerance = 3 * time.Hour

// Summary is a gauge's state at its newest gauge-height reading.
type Summary struct {
	Gauge      Gauge
	Latest     Reading
	Status     string
	Change24h  float64 // NaN: no reading about 24 hours before
	Trend      string  // "" when Change24h is NaN
	ReadingsIn int     // gauge-height readings considered
}

// Levels are the gauge-height readings of a site, oldest first, without
// no-data values (NoData, NaN, infinities).
func Levels(site string, all []Reading) []Reading {
	var out []Reading
	for _, r := range all {
		if r.Site == site && r.Parameter == ParamGageHeight && valid(r.Value) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}

func valid(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && v > NoData+1
}

// Summarize is the state of every gauge with at least one gauge-height
// reading among all, in table order.
func Summarize(all []Reading) []Summary {
	var out []Summary
	for _, g := range Gauges {
		levels := Levels(g.Site, all)
		if len(levels) == 0 {
			continue
		}
		latest := levels[len(levels)-1]
		s := Summary{Gauge: g, Latest: latest, Status: g.Status(latest.Value), Change24h: math.NaN(), ReadingsIn: len(levels)}
		if prev, ok := near(levels, latest.Time.Add(-24*time.Hour)); ok {
			s.Change24h = math.Round((latest.Value-prev.Value)*100) / 100
			switch {
			case s.Change24h > trendBand:
				s.Trend = TrendRising
			case s.Change24h < -trendBand:
				s.Trend = TrendFalling
			default:
				s.Trend = TrendSteady
			}
		}
		out = append(out, s)
	}
	return out
}

// near is the reading closest to t within changeTolerance.
func near(levels []Reading, t time.Time) (Reading, bool) {
	best, found := Reading{}, false
	for _, r := range levels {
		d := r.Time.Sub(t).Abs()
		if d <= changeTolerance && (!found || d < best.Time.Sub(t).Abs()) {
			best, found = r, true
		}
	}
	return best, found
}

// Episode is a run of a gauge's readings out of normal: it starts at the
// first reading out of normal and ends at the next normal reading (zero
// End: still under way). Worst is its worst status so far (critical over
// low; flood otherwise), Level the level of that worst reading.
type Episode struct {
	Gauge      Gauge
	Start, End time.Time
	Worst      string
	Level      float64
	Latest     Reading
}

// Key is the episode's alert event key: one alert per gauge and episode.
func (e Episode) Key() string {
	return fmt.Sprintf("river/%s/%s", e.Gauge.ID, e.Start.UTC().Format(time.RFC3339))
}

// Ongoing reports whether the episode has not ended.
func (e Episode) Ongoing() bool { return e.End.IsZero() }

// rank orders statuses by severity: a worse status escalates an episode.
func rank(status string) int {
	switch status {
	case StatusCritical:
		return 3
	case StatusLow, StatusFlood:
		return 2
	}
	return 0
}

// Episodes are the episodes of every gauge in the readings, oldest first
// per gauge, in table order. A change between low water and flood (which
// no real river makes between two readings) starts a new episode.
func Episodes(all []Reading) []Episode {
	var out []Episode
	for _, g := range Gauges {
		var cur *Episode
		for _, r := range Levels(g.Site, all) {
			st := g.Status(r.Value)
			if st == StatusNormal {
				if cur != nil {
					cur.End = r.Time
					out = append(out, *cur)
					cur = nil
				}
				continue
			}
			if cur != nil && (st == StatusFlood) != (cur.Worst == StatusFlood) {
				cur.End = r.Time
				out = append(out, *cur)
				cur = nil
			}
			if cur == nil {
				cur = &Episode{Gauge: g, Start: r.Time, Worst: st, Level: r.Value}
			} else if rank(st) > rank(cur.Worst) {
				cur.Worst, cur.Level = st, r.Value
			}
			cur.Latest = r
		}
		if cur != nil {
			out = append(out, *cur)
		}
	}
	return out
}

// Fetch is one fetch of the river job: OK with the readings stored, or
// its error (the readings stored before are kept).
type Fetch struct {
	At       time.Time
	URL      string
	OK       bool
	Readings int
	Error    string
}

// FetchLog is what the river job's fetches say of the source: the last
// fetch and the last that succeeded (zero At: none yet), and how many
// failed since that success.
type FetchLog struct {
	Last, LastOK  Fetch
	FailuresSince int
}
