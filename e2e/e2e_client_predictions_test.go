package e2e

import (
	"context"
	"testing"

	"overwatch/client"
)

// callClientPredictions calls the prediction operations through the
// generated client: the fleet's predictions, one vessel's, the expected
// arrivals at its first predicted port and the backtest's accuracy.
func callClientPredictions(ctx context.Context, t *testing.T, c *client.ClientWithResponses) {
	list, err := c.ListPredictionsWithResponse(ctx, &client.ListPredictionsParams{})
	if !wantStatus(t, "predictions", list, err, 200) {
		return
	}
	var first *client.Prediction
	for i := range list.JSON200.Predictions {
		if len(list.JSON200.Predictions[i].NextPorts) > 0 {
			first = &list.JSON200.Predictions[i]
			break
		}
	}
	if first == nil {
		t.Errorf("no vessel under way with a predicted next port: %.300s", list.Body)
		return
	}
	one, err := c.GetVesselPredictionWithResponse(ctx, first.ImoNumber, &client.GetVesselPredictionParams{})
	if wantStatus(t, "vessel prediction", one, err, 200) && one.JSON200.Prediction.ImoNumber != first.ImoNumber {
		t.Errorf("prediction of %s: %.300s", first.ImoNumber, one.Body)
	}
	port := first.NextPorts[0].Port
	arrivals, err := c.ListPortArrivalsWithResponse(ctx, port, &client.ListPortArrivalsParams{})
	wantStatus(t, "port arrivals", arrivals, err, 200)
	accuracy, err := c.GetPredictionAccuracyWithResponse(ctx)
	wantStatus(t, "prediction accuracy", accuracy, err, 200)
}
