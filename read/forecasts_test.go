package read

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/forecast"
	"overwatch/route"
	"overwatch/testclock"
)

// fakeForecasts is a ForecastStore and an AnomalyStore: it records the
// requests and returns the rows it was given.
type fakeForecasts struct {
	forecasts []forecast.Forecast
	accuracy  []forecast.Accuracy
	anomalies []forecast.Anomaly
	maturity  []forecast.Maturity
	fr        recorder[ForecastsRequest]
	ar        recorder[AccuracyRequest]
	nr        recorder[AnomaliesRequest]
	mr        recorder[int]
}

func (f *fakeForecasts) Forecasts(_ context.Context, r ForecastsRequest) ([]forecast.Forecast, error) {
	f.fr.add(r)
	return f.forecasts, nil
}

func (f *fakeForecasts) ForecastAccuracy(_ context.Context, r AccuracyRequest) ([]forecast.Accuracy, error) {
	f.ar.add(r)
	return f.accuracy, nil
}

func (f *fakeForecasts) Anomalies(_ context.Context, r AnomaliesRequest) ([]forecast.Anomaly, error) {
	f.nr.add(r)
	return f.anomalies, nil
}

func (f *fakeForecasts) AnomalyMaturity(_ context.Context, limit int) ([]forecast.Maturity, error) {
	f.mr.add(limit)
	return f.maturity, nil
}

func forecastsOf(t *testing.T, s *fakeForecasts) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) {
		forecastRoutes(r, s, nil, testclock.Now)
		anomalyRoutes(r, s, nil, fixedNow)
	})
}

func TestForecastRoutes(t *testing.T) {
	t.Parallel()
	got := forecastsOf(t, &fakeForecasts{}).keys()
	want := []string{"GET /anomalies", "GET /anomalies/maturity", "GET /forecasts", "GET /forecasts/accuracy"}
	if !slices.Equal(got, want) {
		t.Errorf("mounts %v, want %v", got, want)
	}
}

func TestForecastParams(t *testing.T) {
	t.Parallel()
	store := &fakeForecasts{}
	routes := forecastsOf(t, store)
	expectErrors(t, routes.get("/forecasts"), "/v1/forecasts", map[string]errCase{
		"method=arima":  {400, "method must be one of pipeline, statistical, ml"},
		"port=atlantis": {400, "unknown port 'atlantis' in port"},
		"limit=0":       {400, "limit must be a positive integer (at most"},
		"format=xml":    {400, "format must be one of json, csv"},
	})
	expectErrors(t, routes.get("/forecasts/accuracy"), "/v1/forecasts/accuracy", map[string]errCase{
		"method=x": {400, "method must be one of"},
		"port=x":   {400, "unknown port 'x' in port"},
	})
	expectErrors(t, routes.get("/anomalies"), "/v1/anomalies", map[string]errCase{
		"type=weekly":  {400, "type must be one of trailing, yoy, seasonal_avg, seasonal_range"},
		"severity=low": {400, "severity must be one of moderate, high, critical"},
		"limit=-1":     {400, "limit must be a positive integer (at most"},
	})
	if store.fr.count()+store.ar.count()+store.nr.count() != 0 {
		t.Error("a bad request reached the store")
	}
	santos := mustPort("santos")
	serve(t, overwatch.PlanPro, routes.get("/forecasts"), "/v1/forecasts?port="+santos.ID+"&method=ml&limit=200")
	if r, want := store.fr.last(t), (ForecastsRequest{Port: "santos", Method: "ml", Limit: ForecastsMaxLimit}); r != want {
		t.Errorf("Pro request %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanStarter, routes.get("/forecasts"), "/v1/forecasts")
	if r := store.fr.last(t); r.Limit != ForecastsDefaultLimit {
		t.Errorf("default %+v", r)
	}
	serve(t, overwatch.PlanFree, routes.get("/forecasts/accuracy"), "/v1/forecasts/accuracy?port=santos")
	if r := store.ar.last(t); r != (AccuracyRequest{Port: "santos", Limit: 20}) {
		t.Errorf("Free accuracy %+v", r)
	}
	serve(t, overwatch.PlanPro, routes.get("/anomalies"), "/v1/anomalies?port="+santos.ID+"&type=yoy&severity=high")
	if r := store.nr.last(t); r != (AnomaliesRequest{Port: "santos", Type: "yoy", Severity: "high", Limit: AnomaliesDefaultLimit}) {
		t.Errorf("Pro anomalies %+v", r)
	}
	// Free: 20 rows, the weeks that ended after its floor (Wednesday 11
	// March 15:30, 7 days before now): the weeks starting from Thursday 5
	// March on, i.e. the week of 9 March on.
	serve(t, overwatch.PlanFree, routes.get("/anomalies"), "/v1/anomalies?limit=500")
	if r := store.nr.last(t); r.Limit != 20 || !r.From.Equal(time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Free anomalies %+v", r)
	}
	serve(t, overwatch.PlanFree, routes.get("/anomalies/maturity"), "/v1/anomalies/maturity")
	if n := store.mr.last(t); n != 20 {
		t.Errorf("Free maturity limit %d", n)
	}
	for _, path := range []string{"/forecasts", "/anomalies"} {
		if status, body, _ := serve(t, overwatch.PlanFree, routes.get(path), "/v1"+path+"?format=csv"); status != 403 || !strings.Contains(body, "plan") {
			t.Errorf("Free CSV of %s: %d %s", path, status, body)
		}
	}
}

func TestForecastBodies(t *testing.T) {
	t.Parallel()
	w := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)
	store := &fakeForecasts{
		forecasts: []forecast.Forecast{{Port: "santos", Method: "statistical", Model: "holt_winters", Origin: w, Week: w.AddDate(0, 0, 7),
			Horizon: 1, Tonnes: 1234.56, Lower: 1000.4, Upper: 1500.6, Vessels: 2.345, HistoryWeeks: 104}},
		accuracy: []forecast.Accuracy{{Port: "santos", Method: "ml", Horizon: 2, Forecasts: 40, Origin: w, MAE: 99.6, MAPE: math.NaN(),
			Directional: 0.66666, BaselineMAE: 120, BaselineMAPE: 12.345, BaselineDirectional: 0.5, BeatsBaseline: true}},
		anomalies: []forecast.Anomaly{{Port: "santos", Type: "seasonal_range", Week: w, Expected: 5000, Observed: 2000.4, DeviationPct: -59.99,
			Z: math.NaN(), Lower: 5000, Upper: 9000.2, Direction: "drop", Severity: "high", References: 3}},
		maturity: []forecast.Maturity{{Port: "santos", Weeks: 30, First: w.AddDate(0, 0, -29*7), Last: w,
			Anomalies: []forecast.Requirement{{Name: "yoy", Needed: 53, Missing: 23}},
			Forecasts: []forecast.Requirement{{Name: "statistical", Needed: 65, Missing: 35, Model: "holt_linear"}}}},
	}
	routes := forecastsOf(t, store)
	id := mustPort("santos").ID
	for path, want := range map[string]string{
		"/forecasts": `{"forecasts":[{"port":"santos","port_name":"Santos","method":"statistical","model":"holt_winters","origin":"2026-03-09",` +
			`"week_start":"2026-03-16","horizon":1,"tonnes":1235,"lower":1000,"upper":1501,"vessels":2.3,"history_weeks":104}]}`,
		"/forecasts/accuracy": `{"accuracy":[{"port":"santos","port_name":"Santos","method":"ml","horizon":2,"forecasts":40,"first_origin":"2026-03-09",` +
			`"mae":100,"mape":null,"directional_accuracy":0.667,"baseline":{"method":"seasonal_naive","mae":120,"mape":12.35,"directional_accuracy":0.5},"beats_baseline":true}]}`,
		"/anomalies": `{"anomalies":[{"port":"santos","port_id":"` + id + `","port_name":"Santos","week_start":"2026-03-09","iso_year":2026,"iso_week":11,` +
			`"type":"seasonal_range","expected":5000,"observed":2000,"deviation_pct":-60,"z":null,"range_lower":5000,"range_upper":9000,` +
			`"direction":"drop","severity":"high","reference_weeks":3}]}`,
		"/anomalies/maturity": `{"maturity":[{"port":"santos","port_name":"Santos","weeks_held":30,"first_week":"2025-08-18","last_week":"2026-03-09",` +
			`"anomaly_types":[{"name":"yoy","weeks_needed":53,"ready":false,"weeks_missing":23}],` +
			`"forecast_methods":[{"name":"statistical","weeks_needed":65,"ready":false,"weeks_missing":35,"model":"holt_linear"}]}]}`,
	} {
		if status, body, _ := serve(t, overwatch.PlanPro, routes.get(path), "/v1"+path); status != 200 || body != want {
			t.Errorf("%s: %d\n got %s\nwant %s", path, status, body, want)
		}
	}
	status, body, h := serve(t, overwatch.PlanStarter, routes.get("/anomalies"), "/v1/anomalies?format=csv")
	want := "port,week_start,iso_year,iso_week,type,expected,observed,deviation_pct,z,range_lower,range_upper,direction,severity,reference_weeks\r\n" +
		"santos,2026-03-09,2026,11,seasonal_range,5000,2000,-60.0,,5000,9000,drop,high,3\r\n"
	if status != 200 || body != want || !strings.HasPrefix(h.Get(fiber.HeaderContentType), "text/csv") {
		t.Errorf("anomalies CSV: %d %q\nwant %q", status, body, want)
	}
}
