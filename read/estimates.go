package read

import (
	"context"
	"time"

	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// EstimatesRequest selects weekly export estimates: of a port ("" for
// all), of the weeks that start on or after From, at most Limit (0: no
// limit).
type EstimatesRequest struct {
	Port  string
	From  time.Time
	Limit int
}

// EstimateRow is a week of estimates_weekly with the official figures
// imported for the same port and week (Actuals nil when none were).
type EstimateRow struct {
	portstats.EstimateWeek
	Actuals *float64
}

// EstimateStore returns weekly export estimates, newest week first, then
// by port.
type EstimateStore interface {
	Estimates(ctx context.Context, r EstimatesRequest) ([]EstimateRow, error)
}

// estimateRoutes mounts the export-estimates endpoint.
func estimateRoutes(r Router, s EstimateStore, c *Cache, now func() time.Time) {
	q := Cached(c, "estimates", []string{tableEstimates, tableActuals}, s.Estimates)
	r.Handle(fiber.MethodGet, "/estimates", overwatch.AccessKey, Estimates(q, now))
}

// Estimate is an item of GET /v1/estimates.
type Estimate struct {
	Port             string   `json:"port"`
	PortName         string   `json:"port_name"`
	ISOYear          int      `json:"iso_year"`
	ISOWeek          int      `json:"iso_week"`
	WeekStart        string   `json:"week_start"`
	Vessels          int      `json:"vessels"`
	Calls            int      `json:"calls"`
	CallsWithDraught int      `json:"calls_with_draught"`
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
func Estimates(q Query[EstimatesRequest, []EstimateRow], now func() time.Time) fiber.Handler {
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
		f := EstimatesRequest{Port: slugOf(port), From: laterDay(time.Time{}, overwatch.CallerFrom(c.UserContext()).HistoryFloor(t)), Limit: limit}
		rows, err := q(c.UserContext(), f)
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
