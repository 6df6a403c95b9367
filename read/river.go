package read

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/river"
	"overwatch/route"
)

// RiverHistory is how far back the river readings are read: the episodes
// out of normal (the alerts in force) start within it.
const RiverHistory = 120 * 24 * time.Hour

// riverStale is the age of the newest reading beyond which the source is
// stale (the job polls every 15 minutes; gauges report every 15-60).
const riverStale = 3 * time.Hour

// RiverAttribution is the credit of the river readings.
const RiverAttribution = "U.S. Geological Survey, National Water Information System / Water Data OGC API (public domain); flood stages: NOAA National Weather Service"

// RiverStore reads the river readings (gauge height, every site) since a
// time, oldest first, and the river job's fetch log.
type RiverStore interface {
	RiverLevels(ctx context.Context, since time.Time) ([]river.Reading, error)
	RiverFetchLog(ctx context.Context) (river.FetchLog, error)
}

// riverRoutes mounts GET /v1/river-levels.
func riverRoutes(r route.Router, s RiverStore, now func() time.Time) {
	r.Handle(fiber.MethodGet, "/river-levels", overwatch.AccessKey, RiverLevels(s, now))
}

// RiverReading is an item of GET /v1/river-levels: a gauge's newest
// gauge-height reading.
type RiverReading struct {
	Gauge         string   `json:"gauge"`
	Name          string   `json:"name"`
	River         string   `json:"river"`
	Location      string   `json:"location"`
	Port          string   `json:"port"`
	USGSSite      string   `json:"usgs_site"`
	NWSID         *string  `json:"nws_id"`
	Latitude      float64  `json:"latitude"`
	Longitude     float64  `json:"longitude"`
	LevelFt       float64  `json:"level_ft"`
	Status        string   `json:"status"`
	CriticalLowFt *float64 `json:"critical_low_ft"`
	LowFt         *float64 `json:"low_ft"`
	FloodStageFt  *float64 `json:"flood_stage_ft"`
	Time          string   `json:"time"`
	Change24hFt   *float64 `json:"change_24h_ft"`
	Trend         *string  `json:"trend"`
	Qualifiers    []string `json:"qualifiers"`
	Source        string   `json:"source"`
}

// RiverAlert is a gauge out of normal now: the river_level alert in
// force (raised for the watchers of its port by the alerts job).
type RiverAlert struct {
	Gauge       string  `json:"gauge"`
	Name        string  `json:"name"`
	Port        string  `json:"port"`
	Status      string  `json:"status"`
	Worst       string  `json:"worst_status"`
	Severity    string  `json:"severity"`
	Since       string  `json:"since"`
	LevelFt     float64 `json:"level_ft"`
	WorstLevel  float64 `json:"worst_level_ft"`
	Title       string  `json:"title"`
	EventKey    string  `json:"event_key"`
	LastReading string  `json:"last_reading"`
}

// RiverSource is the state of the source behind the readings.
type RiverSource struct {
	Status               string  `json:"status"` // live, stale, unavailable, no_data
	Message              string  `json:"message"`
	NewestReading        *string `json:"newest_reading"`
	LastFetchAt          *string `json:"last_fetch_at"`
	LastSuccessAt        *string `json:"last_success_at"`
	FailuresSinceSuccess int     `json:"failures_since_success"`
	LastError            *string `json:"last_error"`
	Attribution          string  `json:"attribution"`
}

// RiverLevels serves GET /v1/river-levels: the newest reading of every
// gauge that has one (level in feet, status from its thresholds, 24-hour
// change and trend, qualifiers), the alerts in force (gauges out of
// normal, from when), and the source's state. Nothing is invented: with
// no reading stored the readings are empty and source says why.
// format=csv (plans with CSV export) answers the readings as a CSV file
// (RiverCSVRow).
func RiverLevels(s RiverStore, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		csv, err := csvFormat(c)
		if err != nil {
			return err
		}
		t := now().UTC()
		levels, err := s.RiverLevels(c.UserContext(), t.Add(-RiverHistory))
		if err != nil {
			return err
		}
		log, err := s.RiverFetchLog(c.UserContext())
		if err != nil {
			return err
		}
		readings := []RiverReading{}
		var newest time.Time
		for _, sm := range river.Summarize(levels) {
			readings = append(readings, NewRiverReading(sm))
			if sm.Latest.Time.After(newest) {
				newest = sm.Latest.Time
			}
		}
		alerts := []RiverAlert{}
		for _, e := range river.Episodes(levels) {
			if e.Ongoing() {
				alerts = append(alerts, NewRiverAlert(e))
			}
		}
		if csv {
			return sendCSV(c, "river-levels", now(), readings, len(readings), newRiverCSVRow)
		}
		return c.JSON(fiber.Map{"readings": readings, "alerts": alerts, "count": len(readings),
			"source": riverSource(log, newest, len(readings), t)})
	}
}

// NewRiverReading presents a gauge's summary.
func NewRiverReading(sm river.Summary) RiverReading {
	g := sm.Gauge
	r := RiverReading{Gauge: g.ID, Name: g.Name, River: g.River, Location: g.Location, Port: g.Port, USGSSite: g.Site,
		Latitude: g.Lat, Longitude: g.Lon, LevelFt: sm.Latest.Value, Status: sm.Status,
		CriticalLowFt: nanNull(g.CriticalLowFt), LowFt: nanNull(g.LowFt), FloodStageFt: nanNull(g.FloodStageFt),
		Time: sm.Latest.Time.UTC().Format(time.RFC3339), Change24hFt: nanNull(sm.Change24h),
		Qualifiers: append([]string{}, sm.Latest.Qualifiers...), Source: sm.Latest.Source}
	if g.NWS != "" {
		r.NWSID = &g.NWS
	}
	if sm.Trend != "" {
		tr := sm.Trend
		r.Trend = &tr
	}
	return r
}

// NewRiverAlert presents an episode under way.
func NewRiverAlert(e river.Episode) RiverAlert {
	return RiverAlert{Gauge: e.Gauge.ID, Name: e.Gauge.Name, Port: e.Gauge.Port, Status: e.Gauge.Status(e.Latest.Value),
		Worst: e.Worst, Severity: river.Severity(e.Worst), Since: e.Start.UTC().Format(time.RFC3339), LevelFt: e.Latest.Value,
		WorstLevel: e.Level, Title: river.Title(e), EventKey: e.Key(), LastReading: e.Latest.Time.UTC().Format(time.RFC3339)}
}

func nanNull(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func rfc3339OrNull(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

// riverSource is the source's state: live when the newest reading is
// recent and the last fetch succeeded; stale when readings exist but are
// old or the last fetch failed; unavailable when fetches failed and no
// reading exists; no_data before any fetch.
func riverSource(l river.FetchLog, newest time.Time, gauges int, now time.Time) RiverSource {
	s := RiverSource{NewestReading: rfc3339OrNull(newest), LastFetchAt: rfc3339OrNull(l.Last.At),
		LastSuccessAt: rfc3339OrNull(l.LastOK.At), FailuresSinceSuccess: l.FailuresSince, Attribution: RiverAttribution}
	if !l.Last.At.IsZero() && !l.Last.OK {
		e := l.Last.Error
		s.LastError = &e
	}
	switch {
	case gauges == 0 && l.Last.At.IsZero():
		s.Status = "no_data"
		s.Message = "no gauge readings: the river job has not fetched the USGS service yet (or OVERWATCH_RIVER_URL is off), " +
			"and no recorded answer for these gauges exists to bundle; nothing is shown rather than invented readings"
	case gauges == 0:
		s.Status = "unavailable"
		s.Message = fmt.Sprintf("no gauge readings: the last %d fetch(es) of the USGS service failed or held no readings of these gauges", max(l.FailuresSince, 1))
	case !l.Last.OK || now.Sub(newest) > riverStale:
		s.Status = "stale"
		s.Message = fmt.Sprintf("the newest reading is from %s; the readings are the last good ones fetched", newest.UTC().Format(time.RFC3339))
	default:
		s.Status = "live"
		s.Message = "USGS instantaneous values, polled every 15 minutes; provisional values (qualifier P) may be revised"
	}
	return s
}
