package read

import (
	"context"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/route"
)

// BerthWindow is the trailing window of GET /v1/berth-utilization.
const BerthWindow = 7 * 24 * time.Hour

// BerthUsageRow is a berth zone's use over a window, from the berth periods
// of the current port calls of confidence 2 or more: vessel-hours at
// berth within the window, distinct vessels, and the stays that ended in
// it with their mean length (nil when none did).
type BerthUsageRow struct {
	Port, ZoneID   string
	OccupiedHours  float64
	Vessels        uint64
	Stays          uint64
	MeanDwellHours *float64
}

// BerthUsageRequest selects the use of the berth zones of a port ("": of
// every port) over [From, To).
type BerthUsageRequest struct {
	Port     string
	From, To time.Time
}

// BerthWeeksRequest selects a port's weekly berth rows from the week of
// From on, of one zone ("" for all).
type BerthWeeksRequest struct {
	Port, ZoneID string
	From         time.Time
}

// BerthStore computes the use of berth zones from the port calls (zones
// without berth periods may have no row) and reads the weekly berth table
// (oldest week first, then by zone).
type BerthStore interface {
	BerthUsage(ctx context.Context, r BerthUsageRequest) ([]BerthUsageRow, error)
	BerthWeeks(ctx context.Context, r BerthWeeksRequest) ([]portstats.BerthWeek, error)
}

// berthRoutes mounts the berth utilisation endpoints.
func berthRoutes(r route.Router, s BerthStore, c *Cache, now func() time.Time) {
	usage := Cached(c, "berth_usage", []string{tablePortCalls}, s.BerthUsage)
	weeks := Cached(c, "berth_weeks", []string{tableBerths}, s.BerthWeeks)
	r.Handle(fiber.MethodGet, "/berth-utilization", overwatch.AccessKey, BerthUtilization(usage, now))
	r.Handle(fiber.MethodGet, "/berth-utilization/weekly", overwatch.AccessKey, BerthWeekly(weeks, now))
}

// ZoneUtilization is an item of GET /v1/berth-utilization.
type ZoneUtilization struct {
	Port           string   `json:"port"`
	PortName       string   `json:"port_name"`
	ZoneID         string   `json:"zone_id"`
	ZoneName       string   `json:"zone_name"`
	Capacity       int      `json:"capacity"`
	PeriodStart    string   `json:"period_start"`
	PeriodEnd      string   `json:"period_end"`
	OccupiedHours  float64  `json:"occupied_hours"`
	AvailableHours float64  `json:"available_hours"`
	Utilization    float64  `json:"utilization"`
	VesselsServed  uint64   `json:"vessels_served"`
	MeanDwellHours *float64 `json:"mean_dwell_hours"`
}

// BerthUtilization serves GET /v1/berth-utilization: port (slug;
// every port when absent). One item per berth zone of the reference ports,
// over the trailing 7 days: occupied vessel-hours over available hours
// (hours × the zone's capacity in berths), at most 1.
func BerthUtilization(usage Query[BerthUsageRequest, []BerthUsageRow], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		t := now().UTC().Truncate(time.Second)
		from := overwatch.CallerFrom(c.UserContext()).ClampSince(t.Add(-BerthWindow), t)
		ports := portsOrAll(port)
		rows, err := usage(c.UserContext(), BerthUsageRequest{Port: slugOf(port), From: Minute(from), To: Minute(t)})
		if err != nil {
			return err
		}
		by := map[[2]string]BerthUsageRow{}
		for _, r := range rows {
			by[[2]string{r.Port, r.ZoneID}] = r
		}
		hours := t.Sub(from).Hours()
		out := []ZoneUtilization{}
		for _, p := range ports {
			for _, z := range p.Berths {
				r := by[[2]string{p.Slug, z.ID}]
				capacity := max(1, z.Capacity)
				item := ZoneUtilization{
					Port: p.Slug, PortName: p.Name, ZoneID: z.ID, ZoneName: z.Name, Capacity: capacity,
					PeriodStart: from.Format(time.RFC3339), PeriodEnd: t.Format(time.RFC3339),
					OccupiedHours: roundTo(r.OccupiedHours, 1), AvailableHours: roundTo(hours*float64(capacity), 1),
					VesselsServed: r.Vessels, MeanDwellHours: roundPtr(finitePtr(r.MeanDwellHours), 1),
				}
				if avail := hours * float64(capacity); avail > 0 {
					item.Utilization = roundTo(math.Min(1, r.OccupiedHours/avail), 3)
				}
				out = append(out, item)
			}
		}
		return c.JSON(fiber.Map{"berth_utilization": out})
	}
}

// BerthWeek is an item of GET /v1/berth-utilization/weekly.
type BerthWeek struct {
	WeekStart      string   `json:"week_start"`
	ZoneID         string   `json:"zone_id"`
	ZoneName       string   `json:"zone_name"`
	Capacity       int      `json:"capacity"`
	OccupiedHours  float64  `json:"occupied_hours"`
	AvailableHours float64  `json:"available_hours"`
	Utilization    float64  `json:"utilization"`
	VesselsServed  int      `json:"vessels_served"`
	Stays          int      `json:"stays"`
	MeanDwellHours *float64 `json:"mean_dwell_hours"`
}

// BerthWeeklyBody is the body of GET /v1/berth-utilization/weekly.
type BerthWeeklyBody struct {
	Port        string      `json:"port"`
	PortName    string      `json:"port_name"`
	PortCountry string      `json:"port_country"`
	Weeks       int         `json:"weeks"`
	Weekly      []BerthWeek `json:"berth_utilization_weekly"`
}

// BerthWeekly serves GET /v1/berth-utilization/weekly: port (required),
// zone_id (one of the port's berth zones), weeks (default 12, 1 to 52: this
// ISO week and the ones before it). Weeks that start before the tier's
// history floor are left out.
func BerthWeekly(weeks Query[BerthWeeksRequest, []portstats.BerthWeek], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", true)
		if err != nil {
			return err
		}
		var zone string
		if raw := c.Query("zone_id"); raw != "" {
			for _, z := range port.Berths {
				if z.ID == raw {
					zone = z.ID
				}
			}
			if zone == "" {
				return overwatch.Errorf(overwatch.NotFound, "unknown berth zone '%s' at port '%s'", truncate(raw, 100), port.Slug).With("parameter", "zone_id")
			}
		}
		n, err := intParam(c, "weeks", 12, 1, 52)
		if err != nil {
			return err
		}
		t := now().UTC()
		from := laterDay(mondayOf(t).AddDate(0, 0, -7*(n-1)), overwatch.CallerFrom(c.UserContext()).HistoryFloor(t))
		rows, err := weeks(c.UserContext(), BerthWeeksRequest{Port: port.Slug, ZoneID: zone, From: from})
		if err != nil {
			return err
		}
		body := BerthWeeklyBody{Port: port.Slug, PortName: port.Name, PortCountry: port.Country, Weeks: n, Weekly: []BerthWeek{}}
		for _, r := range rows {
			w := BerthWeek{
				WeekStart: r.Week.UTC().Format(time.DateOnly), ZoneID: r.ZoneID, ZoneName: r.ZoneName, Capacity: r.Capacity,
				OccupiedHours: roundTo(r.OccupiedHours, 1), AvailableHours: roundTo(r.AvailableHours, 1),
				Utilization: roundTo(math.Min(1, r.Utilization), 3), VesselsServed: r.Vessels, Stays: r.Stays,
			}
			if r.Stays > 0 {
				w.MeanDwellHours = roundPtr(finitePtr(&r.MeanDwellHours), 1)
			}
			body.Weekly = append(body.Weekly, w)
		}
		return c.JSON(body)
	}
}
