package read

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/forecast"
)

// MaturityMaxPorts is how many ports an answer of GET
// /v1/anomalies/maturity holds at most, further clamped by the plan's
// results per call.
const MaturityMaxPorts = 500

// Readiness is whether a port's history is enough for an anomaly type or
// a forecast method, and how many weeks it still needs.
type Readiness struct {
	Name         string `json:"name"`
	WeeksNeeded  int    `json:"weeks_needed"`
	Ready        bool   `json:"ready"`
	WeeksMissing int    `json:"weeks_missing"`
	// Model is what a forecast method runs on the history held (its
	// fallback until it is ready); absent for the anomaly types.
	Model string `json:"model,omitempty"`
}

// MaturityItem is an item of GET /v1/anomalies/maturity.
type MaturityItem struct {
	Port            string      `json:"port"`
	PortName        string      `json:"port_name"`
	WeeksHeld       int         `json:"weeks_held"`
	FirstWeek       *string     `json:"first_week"`
	LastWeek        *string     `json:"last_week"`
	AnomalyTypes    []Readiness `json:"anomaly_types"`
	ForecastMethods []Readiness `json:"forecast_methods"`
}

// NewMaturityItem presents a port's maturity.
func NewMaturityItem(m forecast.Maturity) MaturityItem {
	out := MaturityItem{Port: m.Port, PortName: portName(m.Port), WeeksHeld: m.Weeks,
		AnomalyTypes: readiness(m.Anomalies), ForecastMethods: readiness(m.Forecasts)}
	if m.Weeks > 0 {
		first, last := m.First.UTC().Format(time.DateOnly), m.Last.UTC().Format(time.DateOnly)
		out.FirstWeek, out.LastWeek = &first, &last
	}
	return out
}

func readiness(rs []forecast.Requirement) []Readiness {
	out := make([]Readiness, len(rs))
	for i, r := range rs {
		out[i] = Readiness{Name: r.Name, WeeksNeeded: r.Needed, Ready: r.Ready, WeeksMissing: r.Missing, Model: r.Model}
	}
	return out
}

// AnomalyMaturity serves GET /v1/anomalies/maturity (no parameters): per
// port, the weeks of export history held (complete weeks) and, for each
// anomaly type and forecast method (and the seasonal-naive baseline), the
// weeks it needs, whether the history is enough and how many weeks are
// missing (docs/forecasts.md). Ports by slug, as many as the plan's
// results per call.
func AnomalyMaturity(q Query[int, []forecast.Maturity]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		limit := overwatch.CallerFrom(c.UserContext()).ClampLimit(MaturityMaxPorts, MaturityMaxPorts)
		rows, err := q(c.UserContext(), limit)
		if err != nil {
			return err
		}
		out := make([]MaturityItem, len(rows))
		for i, r := range rows {
			out[i] = NewMaturityItem(r)
		}
		return c.JSON(fiber.Map{"maturity": out})
	}
}
