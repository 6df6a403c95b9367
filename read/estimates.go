package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/calibration"
	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"
	"overwatch/route"
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
// cs (nil: none) are the calibration factors it applies.
func estimateRoutes(r route.Router, s EstimateStore, cs *Calibrations, c *Cache, now func() time.Time) {
	q := Cached(c, "estimates", []string{tableEstimates, tableActuals}, s.Estimates)
	r.Handle(fiber.MethodGet, "/estimates", overwatch.AccessKey, CalibratedEstimates(q, cs, now))
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
	// The factor in force for the port (docs/calibration.md), where it
	// comes from (self, manual or none: factor 1) and the tonnage times it.
	CalibratedTonnage float64 `json:"calibrated_tonnage"`
	CalibrationFactor float64 `json:"calibration_factor"`
	CalibrationSource string  `json:"calibration_source"`
}

// NewEstimate presents an estimate row: tonnes as integers, confidence to
// two decimals; uncalibrated (factor 1, source none).
func NewEstimate(r EstimateRow) Estimate {
	e := Estimate{
		Port: r.Port, ISOYear: r.ISOYear, ISOWeek: r.ISOWeek, WeekStart: r.Week.UTC().Format(time.DateOnly),
		Vessels: r.Vessels, Calls: r.Calls, CallsWithDraught: r.CallsWithDraught,
		Tonnage: roundTo(r.Tonnage, 0), Confidence: roundTo(r.Confidence, 2), USDAActuals: roundPtr(finitePtr(r.Actuals), 0),
		CalibrationFactor: 1, CalibrationSource: calibration.SourceNone,
	}
	e.CalibratedTonnage = e.Tonnage
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
// floor are left out. Uncalibrated: see CalibratedEstimates.
func Estimates(q Query[EstimatesRequest, []EstimateRow], now func() time.Time) fiber.Handler {
	return CalibratedEstimates(q, nil, now)
}

// CalibratedEstimates is Estimates with each port's calibration factor in
// force applied (calibrated_tonnage, calibration_factor,
// calibration_source); cs nil applies none.
func CalibratedEstimates(q Query[EstimatesRequest, []EstimateRow], cs *Calibrations, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false)
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
		var force []calibration.InForce
		if cs != nil {
			if _, _, force, err = cs.load(c.UserContext()); err != nil {
				return err
			}
		}
		out := make([]Estimate, len(rows))
		for i, r := range rows {
			out[i] = NewEstimate(r)
			if force != nil {
				out[i].calibrate(force)
			}
		}
		return c.JSON(fiber.Map{"estimates": out})
	}
}
