package read

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/forecast"
)

// AccuracyMaxRows is how many accuracy rows an answer holds at most (every
// port × method × horizon fits), further clamped by the plan's results
// per call.
const AccuracyMaxRows = 1000

// AccuracyRequest selects backtest rows: of a port ("" for all) and a
// method ("" for all), at most Limit.
type AccuracyRequest struct {
	Port, Method string
	Limit        int
}

// BaselineAccuracy is the seasonal-naive baseline's accuracy on the same
// weeks as the method's.
type BaselineAccuracy struct {
	Method              string   `json:"method"`
	MAE                 float64  `json:"mae"`
	MAPE                *float64 `json:"mape"`
	DirectionalAccuracy float64  `json:"directional_accuracy"`
}

// AccuracyItem is an item of GET /v1/forecasts/accuracy.
type AccuracyItem struct {
	Port                string           `json:"port"`
	PortName            string           `json:"port_name"`
	Method              string           `json:"method"`
	Horizon             int              `json:"horizon"`
	Forecasts           int              `json:"forecasts"`
	FirstOrigin         string           `json:"first_origin"`
	MAE                 float64          `json:"mae"`
	MAPE                *float64         `json:"mape"`
	DirectionalAccuracy float64          `json:"directional_accuracy"`
	Baseline            BaselineAccuracy `json:"baseline"`
	BeatsBaseline       bool             `json:"beats_baseline"`
}

// NewAccuracyItem presents a backtest row: MAE in tonnes, MAPE in percent
// to two decimals (null when no week scored exported enough for a
// percentage), directional accuracy 0 to 1 to three decimals.
func NewAccuracyItem(a forecast.Accuracy) AccuracyItem {
	return AccuracyItem{
		Port: a.Port, PortName: portName(a.Port), Method: a.Method, Horizon: a.Horizon, Forecasts: a.Forecasts,
		FirstOrigin: a.Origin.UTC().Format(time.DateOnly),
		MAE:         roundTo(finite0(a.MAE), 0), MAPE: nullable(a.MAPE, 2), DirectionalAccuracy: roundTo(finite0(a.Directional), 3),
		Baseline: BaselineAccuracy{Method: forecast.MethodBaseline, MAE: roundTo(finite0(a.BaselineMAE), 0), MAPE: nullable(a.BaselineMAPE, 2),
			DirectionalAccuracy: roundTo(finite0(a.BaselineDirectional), 3)},
		BeatsBaseline: a.BeatsBaseline,
	}
}

// ForecastAccuracy serves GET /v1/forecasts/accuracy: port (slug or id),
// method (pipeline, statistical, ml). The rolling-origin backtest of each
// method per port and horizon (weeks ahead) with the seasonal-naive
// baseline on the same weeks, and whether the method beats it; a method
// that does not is listed all the same. Rows by port, method and horizon,
// as many as the plan's results per call.
func ForecastAccuracy(q Query[AccuracyRequest, []forecast.Accuracy]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		method, err := enumParam(c, "method", forecast.Methods...)
		if err != nil {
			return err
		}
		limit := overwatch.CallerFrom(c.UserContext()).ClampLimit(AccuracyMaxRows, AccuracyMaxRows)
		rows, err := q(c.UserContext(), AccuracyRequest{Port: slugOf(port), Method: method, Limit: limit})
		if err != nil {
			return err
		}
		out := make([]AccuracyItem, len(rows))
		for i, r := range rows {
			out[i] = NewAccuracyItem(r)
		}
		return c.JSON(fiber.Map{"accuracy": out})
	}
}
