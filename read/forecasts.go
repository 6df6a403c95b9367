package read

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/forecast"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// The tables of the forecasts and anomalies (clickhouse/migrations/010_forecasts.sql).
const (
	tableForecasts        = "forecasts"
	tableForecastAccuracy = "forecast_accuracy"
	tableAnomalies        = "anomalies"
	tableMaturity         = "forecast_maturity"
)

// Forecast limits of GET /v1/forecasts.
const (
	ForecastsDefaultLimit = 50
	ForecastsMaxLimit     = 200
)

// ForecastsRequest selects forecasts: of a port ("" for all) and a method
// ("" for all), at most Limit.
type ForecastsRequest struct {
	Port, Method string
	Limit        int
}

// ForecastStore returns the current forecasts, by port, method (pipeline,
// statistical, ml) and week; and the backtest accuracy, by port, method
// and horizon.
type ForecastStore interface {
	Forecasts(ctx context.Context, r ForecastsRequest) ([]forecast.Forecast, error)
	ForecastAccuracy(ctx context.Context, r AccuracyRequest) ([]forecast.Accuracy, error)
}

// forecastRoutes mounts the forecast endpoints.
func forecastRoutes(r route.Router, s ForecastStore, c *Cache, now func() time.Time) {
	f := Cached(c, "forecasts", []string{tableForecasts}, s.Forecasts)
	a := Cached(c, "forecast_accuracy", []string{tableForecastAccuracy}, s.ForecastAccuracy)
	r.Handle(fiber.MethodGet, "/forecasts", overwatch.AccessKey, Forecasts(f, now))
	r.Handle(fiber.MethodGet, "/forecasts/accuracy", overwatch.AccessKey, ForecastAccuracy(a))
}

// ForecastItem is an item of GET /v1/forecasts.
type ForecastItem struct {
	Port         string  `json:"port" csv:"port"`
	PortName     string  `json:"port_name" csv:"port_name"`
	Method       string  `json:"method" csv:"method"`
	Model        string  `json:"model" csv:"model"`
	Origin       string  `json:"origin" csv:"origin"`
	WeekStart    string  `json:"week_start" csv:"week_start"`
	Horizon      int     `json:"horizon" csv:"horizon"`
	Tonnes       float64 `json:"tonnes" csv:"tonnes"`
	Lower        float64 `json:"lower" csv:"lower"`
	Upper        float64 `json:"upper" csv:"upper"`
	Vessels      float64 `json:"vessels" csv:"vessels"`
	HistoryWeeks int     `json:"history_weeks" csv:"history_weeks"`
}

// NewForecastItem presents a forecast: tonnes as integers, vessels to one
// decimal, weeks as their Monday.
func NewForecastItem(f forecast.Forecast) ForecastItem {
	return ForecastItem{
		Port: f.Port, PortName: portName(f.Port), Method: f.Method, Model: f.Model,
		Origin: f.Origin.UTC().Format(time.DateOnly), WeekStart: f.Week.UTC().Format(time.DateOnly), Horizon: f.Horizon,
		Tonnes: roundTo(finite0(f.Tonnes), 0), Lower: roundTo(finite0(f.Lower), 0), Upper: roundTo(finite0(f.Upper), 0),
		Vessels: roundTo(finite0(f.Vessels), 1), HistoryWeeks: f.HistoryWeeks,
	}
}

// Forecasts serves GET /v1/forecasts: port (slug or id), method
// (pipeline, statistical, ml), format (json, csv: plans with CSV export),
// limit (default 50, max 200, clamped by the plan). The forecast weekly
// exports of the weeks after the last complete one, each with its 95%
// prediction interval (docs/forecasts.md), by port, method and week.
func Forecasts(q Query[ForecastsRequest, []forecast.Forecast], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		method, err := enumParam(c, "method", forecast.Methods...)
		if err != nil {
			return err
		}
		csv, err := csvFormat(c)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, ForecastsDefaultLimit, ForecastsMaxLimit)
		if err != nil {
			return err
		}
		rows, err := q(c.UserContext(), ForecastsRequest{Port: slugOf(port), Method: method, Limit: limit})
		if err != nil {
			return err
		}
		if csv {
			return sendCSV(c, "forecasts", now(), rows, limit, NewForecastItem)
		}
		out := make([]ForecastItem, len(rows))
		for i, r := range rows {
			out[i] = NewForecastItem(r)
		}
		return c.JSON(fiber.Map{"forecasts": out})
	}
}

// csvFormat reads format (json, the default, or csv); csv needs a plan
// with CSV export.
func csvFormat(c *fiber.Ctx) (bool, error) {
	format, err := enumParam(c, "format", "json", "csv")
	if err != nil || format != "csv" {
		return false, err
	}
	return true, overwatch.CallerFrom(c.UserContext()).Require(overwatch.FeatureCSVExport)
}

// sendCSV answers with the CSV file of rows presented as records (at most
// limit and the plan's CSV rows), named with the day of now (the
// service's clock).
func sendCSV[T, R any](c *fiber.Ctx, name string, now time.Time, rows []T, limit int, record func(T) R) error {
	body, err := csvFile(rows, csvRows(overwatch.CallerFrom(c.UserContext()), limit), record)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="overwatch-%s-%s.csv"`, name, now.UTC().Format("20060102")))
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Send(body)
}

// portName is the name of a port slug ("" when unknown).
func portName(slug string) string {
	if p, ok := seaport.BySlug(slug); ok {
		return p.Name
	}
	return ""
}

// finite0 is v, or 0 when it is NaN or infinite.
func finite0(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// nullable is v rounded, or nil when it is NaN or infinite.
func nullable(v float64, digits int) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	r := roundTo(v, digits)
	return &r
}
