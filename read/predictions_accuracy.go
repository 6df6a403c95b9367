package read

import (
	"context"
	"time"

	"overwatch/maritime/predict"

	"github.com/gofiber/fiber/v2"
)

// PredictionAccuracy is the body's accuracy of GET /v1/predictions/accuracy:
// the service's own backtest on its stored history. As of each instant
// (3, 5 and 7 days before the newest position, those 14 days or more after
// the oldest) every vessel under way is predicted from the data before it
// and compared with its next port call; the predictor's top-1 rate and ETA
// error by horizon stand next to the two baselines' (the declared
// destination and ETA as broadcast; the vessel's most frequent next port).
type PredictionAccuracy struct {
	Instants  []string      `json:"instants"`
	DataEnd   *string       `json:"data_end"`
	Predictor predict.Score `json:"predictor"`
	Declared  predict.Score `json:"declared_baseline"`
	Frequent  predict.Score `json:"frequent_baseline"`
}

// predictionAccuracy runs the backtest over the stored history.
func predictionAccuracy(ctx context.Context, s PredictionStore) (PredictionAccuracy, error) {
	out := PredictionAccuracy{Instants: []string{}}
	first, last, err := s.PredictionSpan(ctx)
	if err != nil || last.IsZero() {
		out.Predictor.Horizons, out.Declared.Horizons, out.Frequent.Horizons = emptyHorizons(), emptyHorizons(), emptyHorizons()
		return out, err
	}
	end := rfc(last)
	out.DataEnd = &end
	instants := predict.Instants(first, last)
	for _, t := range instants {
		out.Instants = append(out.Instants, rfc(t))
	}
	acc, _, err := predict.Evaluate(ctx, s, instants, last.Add(time.Second))
	if err != nil {
		return out, err
	}
	out.Predictor, out.Declared, out.Frequent = acc.Predictor, acc.Declared, acc.Frequent
	return out, nil
}

func emptyHorizons() []predict.HorizonScore {
	return predict.Backtest(nil).Predictor.Horizons
}

// PredictionAccuracyHandler serves GET /v1/predictions/accuracy.
func PredictionAccuracyHandler(acc Query[struct{}, PredictionAccuracy]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		a, err := acc(c.UserContext(), struct{}{})
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"accuracy": a})
	}
}
