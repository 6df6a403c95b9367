package read

import (
	"context"
	"time"

	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// EstimateFilter selects weekly export estimates: of a port ("" for all),
// of the weeks that start on or after From, at most Limit (0: no limit).
type EstimateFilter struct {
	Port  string
	From  time.Time
	Limit int
}

// EstimateRow is a row of estimates_weekly with the official figures
// imported for the same port and week (Actuals nil when none were).
type EstimateRow struct {
	Week             time.Time // its Monday
	Port             string
	ISOYear          uint16
	ISOWeek          uint8
	Vessels          uint32
	Calls            uint32
	CallsWithDraught uint32
	Tonnage          float64
	Confidence       float64 // 0 to 1
	Actuals          *float64
}

// EstimateQuery returns weekly export estimates, newest week first, then
// by port.
type EstimateQuery interface {
	Estimates(ctx context.Context, f EstimateFilter) ([]EstimateRow, error)
}

// Estimate is an item of GET /v1/estimates.
type Estimate struct {
	Port             string   `json:"port"`
	PortName         string   `json:"port_name"`
	ISOYear          uint16   `json:"iso_year"`
	ISOWeek          uint8    `json:"iso_week"`
	WeekStart        string   `json:"week_start"`
	Vessels          uint32   `json:"vessels"`
	Calls            uint32   `json:"calls"`
	CallsWithDraught uint32   `json:"calls_with_draught"`
	Tonnage          float64  `json:"tonnage"`
	Confidence       float64  `json:"confidence"`
	USDAActuals      *float64 `json:"usda_actuals"`
}

// NewEstimate presents an estimate row: tonnes as integers, confidence to
// two decimals.
func NewEstimate(r EstimateRow) Estimate {
	e := Estimate{
		Port: r.Port, ISOYear: r.ISOYear, ISOWeek: r.ISOWeek, WeekStart: r.Week.UTC().Format(time.DateOnly),
		Vessels: r.Vessels, Calls: r.Calls, CallsWithDraught: r.CallsWithDraught,
		Tonnage: roundTo(r.Tonnage, 0), Confidence: roundTo(r.Confidence, 2), USDAActuals: roundPtr(finitePtr(r.Actuals), 0),
	}
	if p, ok := seaport.BySlug(r.Port); ok {
		e.PortName = p.Name
	}
	return e
}

// Estimates serves GET /v1/estimates: port (slug), limit (default 52, max
// 200, clamped by the tier). Weekly export estimates from the draught
// changes of the calls that departed in the week, newest week first, then
// by port, with the imported official figures (USDA export inspections)
// of the same port and week. Weeks that start before the tier's history
// floor are left out.
func Estimates(store EstimateQuery, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false, false)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, 52, 200)
		if err != nil {
			return err
		}
		t := now().UTC()
		f := EstimateFilter{From: laterDay(time.Time{}, overwatch.CallerFrom(c.UserContext()).HistoryFloor(t)), Limit: limit}
		if port != nil {
			f.Port = port.Slug
		}
		rows, err := store.Estimates(c.UserContext(), f)
		if err != nil {
			return err
		}
		out := make([]Estimate, len(rows))
		for i, r := range rows {
			out[i] = NewEstimate(r)
		}
		return c.JSON(fiber.Map{"estimates": out})
	}
}
