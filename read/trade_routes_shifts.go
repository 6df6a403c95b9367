package read

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/trade"
)

// ShiftSeverities are the values of the severity parameter of
// /v1/routes/shifts, mildest first.
var ShiftSeverities = []string{trade.SeverityModerate, trade.SeverityHigh, trade.SeverityCritical}

// ShiftsRequest selects route shifts: of a severity, an origin and a
// commodity ("" for any; trade.AllCommodities for the shifts of every
// commodity together), computed as of a week not before From, at most
// Limit.
type ShiftsRequest struct {
	Severity, Origin, Commodity string
	From                        time.Time
	Limit                       int
}

// ShiftMover is a destination whose share of the origin's flows moved.
type ShiftMover struct {
	Port   string  `json:"port"`
	Name   string  `json:"name"`
	Change float64 `json:"change"`
}

// Shift is an item of GET /v1/routes/shifts.
type Shift struct {
	Origin          string       `json:"origin"`
	OriginName      string       `json:"origin_name"`
	Commodity       string       `json:"commodity"`
	Destination     string       `json:"destination"`
	DestinationName string       `json:"destination_name"`
	Direction       string       `json:"direction"`
	BaselineShare   float64      `json:"baseline_share"`
	CurrentShare    float64      `json:"current_share"`
	Change          float64      `json:"change"`
	Severity        string       `json:"severity"`
	BaselineWeeks   int          `json:"baseline_weeks"`
	CurrentWeeks    int          `json:"current_weeks"`
	BaselineVoyages int          `json:"baseline_voyages"`
	CurrentVoyages  int          `json:"current_voyages"`
	BaselineTonnes  float64      `json:"baseline_tonnes"`
	CurrentTonnes   float64      `json:"current_tonnes"`
	Started         string       `json:"started"`
	AsOf            string       `json:"as_of"`
	Gaining         []ShiftMover `json:"gaining"`
	Losing          []ShiftMover `json:"losing"`
}

// NewShift presents a shift row: shares and changes to three decimals.
func NewShift(s trade.Shift) Shift {
	movers := func(m []trade.Mover) []ShiftMover {
		out := make([]ShiftMover, len(m))
		for i, x := range m {
			out[i] = ShiftMover{Port: x.Port, Name: routePortName(x.Port), Change: roundTo(x.Change, 3)}
		}
		return out
	}
	dir := "gaining"
	if s.Change < 0 {
		dir = "losing"
	}
	return Shift{Origin: s.Origin, OriginName: routePortName(s.Origin), Commodity: s.Commodity, Destination: s.Destination,
		DestinationName: routePortName(s.Destination), Direction: dir, BaselineShare: roundTo(s.BaselineShare, 3),
		CurrentShare: roundTo(s.CurrentShare, 3), Change: roundTo(s.Change, 3), Severity: s.Severity,
		BaselineWeeks: trade.BaselineWeeks, CurrentWeeks: trade.CurrentWeeks,
		BaselineVoyages: s.BaselineVoyages, CurrentVoyages: s.CurrentVoyages,
		BaselineTonnes: roundTo(s.BaselineTonnes, 0), CurrentTonnes: roundTo(s.CurrentTonnes, 0),
		Started: s.Started.UTC().Format(time.DateOnly), AsOf: s.AsOf.UTC().Format(time.DateOnly),
		Gaining: movers(s.Gaining), Losing: movers(s.Losing)}
}

// RouteShifts serves GET /v1/routes/shifts: severity (moderate, high,
// critical), origin (port slug or id), commodity (one of RouteCommodities,
// or "all" for the shifts of every commodity together), limit (default
// 100, max 500, clamped by the tier). Destinations whose share of an
// origin's voyages in the last 4 complete weeks moved from the 12 before
// (trade.Shifts), by severity, then the size of the change. Shifts
// computed as of a week older than the tier's history floor are left out.
func RouteShifts(q Query[ShiftsRequest, []trade.Shift], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var f ShiftsRequest
		var err error
		if f.Severity, err = enumParam(c, "severity", ShiftSeverities...); err != nil {
			return err
		}
		origin, err := portParam(c, "origin", false)
		if err != nil {
			return err
		}
		f.Origin = slugOf(origin)
		if f.Commodity, err = enumParam(c, "commodity", append([]string{trade.AllCommodities}, RouteCommodities...)...); err != nil {
			return err
		}
		if f.Limit, err = limitParam(c, 100, 500); err != nil {
			return err
		}
		// The as-of week covers the 7 days after its Monday.
		if floor := overwatch.CallerFrom(c.UserContext()).HistoryFloor(now().UTC()); !floor.IsZero() {
			f.From = mondayOf(floor.AddDate(0, 0, -6))
		}
		rows, err := q(c.UserContext(), f)
		if err != nil {
			return err
		}
		out := make([]Shift, len(rows))
		for i, r := range rows {
			out[i] = NewShift(r)
		}
		return c.JSON(fiber.Map{"shifts": out})
	}
}
