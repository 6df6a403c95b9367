package read

import (
	"time"

	"overwatch/maritime/risk"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// GET /v1/risk/hotspots and GET /v1/risk/baselines, from risk_hotspots and
// risk_baselines (one generation per run of the risk job).

// HotspotsRequest selects hotspots: only active ones when ActiveOnly;
// those whose last event is at or after Since (zero: any); at most Limit;
// by events, descending, then id.
type HotspotsRequest struct {
	ActiveOnly bool
	Since      time.Time
	Limit      int
}

// Hotspot is an item of GET /v1/risk/hotspots.
type Hotspot struct {
	ID         string         `json:"id"`
	Lat        float64        `json:"lat"`
	Lon        float64        `json:"lon"`
	CellDeg    float64        `json:"cell_deg"`
	Events     int            `json:"events"`
	Vessels    int            `json:"vessels"`
	ByType     map[string]int `json:"by_type"`
	FirstEvent string         `json:"first_event"`
	LastEvent  string         `json:"last_event"`
	Active     bool           `json:"active"`
	Severity   string         `json:"severity"`
}

// RiskHotspots serves GET /v1/risk/hotspots: active (default 'true';
// 'false' returns every hotspot), limit (default 200, max 500). Grid cells
// where recent risk events cluster, most events first; lat/lon is the
// cell's centre (a grid cell, not a vessel's position: shown to every
// plan). Hotspots whose last event is before the plan's history are left
// out.
func RiskHotspots(hotspots Query[HotspotsRequest, []risk.Hotspot], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var f HotspotsRequest
		var err error
		if f.ActiveOnly, err = boolParam(c, "active", true); err != nil {
			return err
		}
		if f.Limit, err = limitParam(c, 200, 500); err != nil {
			return err
		}
		f.Since = Minute(overwatch.CallerFrom(c.UserContext()).HistoryFloor(now()))
		rows, err := hotspots(c.UserContext(), f)
		if err != nil {
			return err
		}
		out := make([]Hotspot, len(rows))
		for i, r := range rows {
			byType := r.ByType
			if byType == nil {
				byType = map[string]int{}
			}
			out[i] = Hotspot{
				ID: r.ID, Lat: roundTo(r.Lat, 4), Lon: roundTo(r.Lon, 4), CellDeg: r.CellDeg, Events: r.Events, Vessels: r.Vessels,
				ByType: byType, FirstEvent: r.FirstEvent.UTC().Format(time.RFC3339), LastEvent: r.LastEvent.UTC().Format(time.RFC3339),
				Active: r.Active, Severity: r.Severity,
			}
		}
		return c.JSON(fiber.Map{"hotspots": out})
	}
}

// BaselinesRequest asks for every baseline, by area, then category: the
// endpoint has no parameters.
type BaselinesRequest struct{}

// Baseline is an item of GET /v1/risk/baselines.
type Baseline struct {
	Area                 string  `json:"area"`
	VesselType           string  `json:"vessel_type"`
	VesselDays           float64 `json:"vessel_days"`
	GapsPerVesselDay     float64 `json:"gaps_per_vessel_day"`
	LoiteringHoursPerDay float64 `json:"loitering_hours_per_day"`
	TransfersPerDay      float64 `json:"transfers_per_day"`
	From                 string  `json:"from"`
	To                   string  `json:"to"`
}

// RiskBaselines serves GET /v1/risk/baselines: per area (a region of the
// reference ports, or open_ocean) and vessel category, the normal rates
// of risk events over the period [from, to) that events are compared
// with.
func RiskBaselines(baselines Query[BaselinesRequest, []risk.Baseline]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		rows, err := baselines(c.UserContext(), BaselinesRequest{})
		if err != nil {
			return err
		}
		out := make([]Baseline, len(rows))
		for i, r := range rows {
			out[i] = Baseline{
				Area: r.Area, VesselType: r.Category, VesselDays: roundTo(r.VesselDays, 1), GapsPerVesselDay: roundTo(r.GapsPerVesselDay, 4),
				LoiteringHoursPerDay: roundTo(r.LoiterHoursPerDay, 4), TransfersPerDay: roundTo(r.TransfersPerDay, 4),
				From: r.From.UTC().Format(time.RFC3339), To: r.To.UTC().Format(time.RFC3339),
			}
		}
		return c.JSON(fiber.Map{"baselines": out})
	}
}
