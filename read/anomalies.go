package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/forecast"
	"overwatch/maritime/seaport"
	"overwatch/reports"
	"overwatch/route"
)

// Anomaly limits of GET /v1/anomalies.
const (
	AnomaliesDefaultLimit = 100
	AnomaliesMaxLimit     = 500
)

// AnomaliesRequest selects anomalies: of a port ("" for all), a type and a
// severity ("" for all), of the weeks that start on or after From, at
// most Limit.
type AnomaliesRequest struct {
	Port, Type, Severity string
	From                 time.Time
	Limit                int
}

// AnomalyStore returns the current anomalies, newest week first, then by
// port and type; and the maturity of every port's history.
type AnomalyStore interface {
	Anomalies(ctx context.Context, r AnomaliesRequest) ([]forecast.Anomaly, error)
	AnomalyMaturity(ctx context.Context, limit int) ([]forecast.Maturity, error)
}

// anomalyRoutes mounts the anomaly endpoints.
func anomalyRoutes(r route.Router, s AnomalyStore, c *Cache, now func() time.Time) {
	a := Cached(c, "anomalies", []string{tableAnomalies}, s.Anomalies)
	m := Cached(c, "anomaly_maturity", []string{tableMaturity}, s.AnomalyMaturity)
	r.Handle(fiber.MethodGet, "/anomalies", overwatch.AccessKey, Anomalies(a, now))
	r.Handle(fiber.MethodGet, "/anomalies/maturity", overwatch.AccessKey, AnomalyMaturity(m))
}

// AnomalyItem is an item of GET /v1/anomalies.
type AnomalyItem struct {
	Port           string   `json:"port"`
	PortID         string   `json:"port_id"`
	PortName       string   `json:"port_name"`
	WeekStart      string   `json:"week_start"`
	ISOYear        int      `json:"iso_year"`
	ISOWeek        int      `json:"iso_week"`
	Type           string   `json:"type"`
	Expected       float64  `json:"expected"`
	Observed       float64  `json:"observed"`
	DeviationPct   float64  `json:"deviation_pct"`
	Z              *float64 `json:"z"`
	RangeLower     *float64 `json:"range_lower"`
	RangeUpper     *float64 `json:"range_upper"`
	Direction      string   `json:"direction"`
	Severity       string   `json:"severity"`
	ReferenceWeeks int      `json:"reference_weeks"`
}

// NewAnomalyItem presents an anomaly: tonnes as integers, the deviation
// in percent to one decimal, z to two decimals.
func NewAnomalyItem(a forecast.Anomaly) AnomalyItem {
	y, w := a.Week.UTC().ISOWeek()
	out := AnomalyItem{
		Port: a.Port, PortName: portName(a.Port), WeekStart: a.Week.UTC().Format(time.DateOnly), ISOYear: y, ISOWeek: w,
		Type: a.Type, Expected: roundTo(finite0(a.Expected), 0), Observed: roundTo(finite0(a.Observed), 0),
		DeviationPct: roundTo(finite0(a.DeviationPct), 1), Z: nullable(a.Z, 2),
		RangeLower: nullable(a.Lower, 0), RangeUpper: nullable(a.Upper, 0),
		Direction: a.Direction, Severity: a.Severity, ReferenceWeeks: a.References,
	}
	if p, ok := seaport.BySlug(a.Port); ok {
		out.PortID = p.ID
	}
	return out
}

// AnomalyRecord is a row of the anomalies CSV: an item of /v1/anomalies,
// what does not apply as an empty cell.
type AnomalyRecord struct {
	Port           string             `csv:"port"`
	WeekStart      string             `csv:"week_start"`
	ISOYear        int                `csv:"iso_year"`
	ISOWeek        int                `csv:"iso_week"`
	Type           string             `csv:"type"`
	Expected       reports.Decimals0  `csv:"expected"`
	Observed       reports.Decimals0  `csv:"observed"`
	DeviationPct   reports.Decimals1  `csv:"deviation_pct"`
	Z              *reports.Decimals2 `csv:"z"`
	RangeLower     *reports.Decimals0 `csv:"range_lower"`
	RangeUpper     *reports.Decimals0 `csv:"range_upper"`
	Direction      string             `csv:"direction"`
	Severity       string             `csv:"severity"`
	ReferenceWeeks int                `csv:"reference_weeks"`
}

// newAnomalyRecord presents an anomaly as a CSV row.
func newAnomalyRecord(a forecast.Anomaly) AnomalyRecord {
	i := NewAnomalyItem(a)
	r := AnomalyRecord{Port: i.Port, WeekStart: i.WeekStart, ISOYear: i.ISOYear, ISOWeek: i.ISOWeek, Type: i.Type,
		Expected: reports.Decimals0(i.Expected), Observed: reports.Decimals0(i.Observed), DeviationPct: reports.Decimals1(i.DeviationPct),
		Direction: i.Direction, Severity: i.Severity, ReferenceWeeks: i.ReferenceWeeks}
	if i.Z != nil {
		z := reports.Decimals2(*i.Z)
		r.Z = &z
	}
	if i.RangeLower != nil && i.RangeUpper != nil {
		lo, hi := reports.Decimals0(*i.RangeLower), reports.Decimals0(*i.RangeUpper)
		r.RangeLower, r.RangeUpper = &lo, &hi
	}
	return r
}

// Anomalies serves GET /v1/anomalies: port (slug, or the port's UUID:
// legacy references), type (trailing, yoy, seasonal_avg, seasonal_range),
// severity (moderate, high, critical), format (json, csv: plans with CSV
// export), limit (default 100, max 500, clamped by the plan). Weeks whose
// exports deviate from a reference by the documented thresholds
// (docs/forecasts.md), newest week first; weeks that ended before the
// plan's history floor are left out.
func Anomalies(q Query[AnomaliesRequest, []forecast.Anomaly], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		typ, err := enumParam(c, "type", forecast.Types...)
		if err != nil {
			return err
		}
		sev, err := enumParam(c, "severity", forecast.Severities...)
		if err != nil {
			return err
		}
		csv, err := csvFormat(c)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, AnomaliesDefaultLimit, AnomaliesMaxLimit)
		if err != nil {
			return err
		}
		// A week is within the plan's history when it ends after the floor.
		floor := overwatch.CallerFrom(c.UserContext()).HistoryFloor(now().UTC())
		from := time.Time{}
		if !floor.IsZero() {
			from = laterDay(time.Time{}, floor.Add(-7*24*time.Hour))
		}
		f := AnomaliesRequest{Port: slugOf(port), Type: typ, Severity: sev, From: from, Limit: limit}
		rows, err := q(c.UserContext(), f)
		if err != nil {
			return err
		}
		if csv {
			return sendCSV(c, "anomalies", now(), rows, limit, newAnomalyRecord)
		}
		out := make([]AnomalyItem, len(rows))
		for i, r := range rows {
			out[i] = NewAnomalyItem(r)
		}
		return c.JSON(fiber.Map{"anomalies": out})
	}
}
