package clickhouse

import (
	"context"
	"time"

	"overwatch/maritime/forecast"
	"overwatch/read"
)

// The forecasts and their backtest (migrations/010_forecasts.sql), and the
// inputs of the forecast and anomaly jobs.

var _ read.ForecastStore = (*DB)(nil)

// forecastWindow is the one window of the forecast and anomaly tables:
// each run rewrites them whole.
var forecastWindow = time.Unix(0, 0).UTC()

// ExportWeeks reads every port's weekly exports (the current rows of
// estimates_weekly: tonnage and loading vessels), by port, oldest week
// first.
func (db *DB) ExportWeeks(ctx context.Context) (map[string][]forecast.Week, error) {
	out := map[string][]forecast.Week{}
	err := db.scanAll(ctx, "export weeks", `SELECT port, day, tonnage, vessels FROM estimates_weekly
		WHERE `+current("estimates_weekly")+` ORDER BY port, day`, nil, func(rows interface{ Scan(...any) error }) error {
		var port string
		var w forecast.Week
		var vessels uint32
		if err := rows.Scan(&port, &w.Start, &w.Tonnes, &vessels); err != nil {
			return err
		}
		w.Start, w.Vessels = w.Start.UTC(), float64(vessels)
		out[port] = append(out[port], w)
		return nil
	})
	return out, err
}

// PipelineNow reads the pipeline's inputs at now (the end of the data):
// the published calls still going on (departure NULL), with their
// operation so far, arrival, deadweight estimate, berthing time and ship
// type; and every vessel's latest position (the newest of its
// sources) reported since now less forecast.PipelineStale, with its speed
// and declared destination, for the ones that declare one. The
// destinations are normalised, and the ETAs computed, by the caller
// (forecast.Pipelines).
func (db *DB) PipelineNow(ctx context.Context, now time.Time) ([]forecast.InPort, []forecast.Underway, error) {
	var calls []forecast.InPort
	err := db.scanAll(ctx, "pipeline calls", `SELECT imo, port, operation, arrival, dwt_estimate, berth_start, ship_type FROM port_calls
		WHERE `+publishedCalls+` AND departure IS NULL ORDER BY port, imo`, nil, func(rows interface{ Scan(...any) error }) error {
		var c forecast.InPort
		var berthed *time.Time
		if err := rows.Scan(&c.IMO, &c.Port, &c.Operation, &c.Arrival, &c.DWT, &berthed, &c.ShipType); err != nil {
			return err
		}
		c.Arrival = c.Arrival.UTC()
		if berthed != nil {
			c.Berthed = berthed.UTC()
		}
		calls = append(calls, c)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var moving []forecast.Underway
	err = db.scanAll(ctx, "pipeline positions", `SELECT imo, max(ts), argMax(ifNull(lat, 0), ts), argMax(ifNull(lon, 0), ts),
		argMax(ifNull(speed_kt, 0), ts), argMax(ifNull(destination, ''), ts)
		  FROM latest_positions
		 WHERE ts >= ? AND lat IS NOT NULL AND lon IS NOT NULL
		 GROUP BY imo
		HAVING argMax(ifNull(destination, ''), ts) != ''
		 ORDER BY imo`, []any{now.Add(-forecast.PipelineStale).UTC()}, func(rows interface{ Scan(...any) error }) error {
		var v forecast.Underway
		if err := rows.Scan(&v.IMO, &v.At, &v.Lat, &v.Lon, &v.SpeedKt, &v.Destination); err != nil {
			return err
		}
		v.At = v.At.UTC()
		moving = append(moving, v)
		return nil
	})
	return calls, moving, err
}

// WriteForecasts writes the forecasts and the backtest as generation gen.
func (db *DB) WriteForecasts(ctx context.Context, gen uint64, rows []forecast.Forecast, acc []forecast.Accuracy) error {
	err := db.derivedBatch(ctx, "forecasts", `day, gen, port, method, model, origin, week, horizon, tonnes, lower, upper,
		vessels, history_weeks`, func(add func(...any) error) error {
		for _, f := range rows {
			if err := add(forecastWindow, gen, f.Port, f.Method, f.Model, f.Origin.UTC(), f.Week.UTC(), uint8(f.Horizon), f.Tonnes,
				f.Lower, f.Upper, f.Vessels, uint32(f.HistoryWeeks)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = db.derivedBatch(ctx, "forecast_accuracy", `day, gen, port, method, horizon, forecasts, first_origin, mae, mape,
		directional, baseline_mae, baseline_mape, baseline_directional, beats_baseline`, func(add func(...any) error) error {
		for _, a := range acc {
			if err := add(forecastWindow, gen, a.Port, a.Method, uint8(a.Horizon), uint32(a.Forecasts), a.Origin.UTC(), a.MAE, a.MAPE,
				a.Directional, a.BaselineMAE, a.BaselineMAPE, a.BaselineDirectional, b2u(a.BeatsBaseline)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	days := []time.Time{forecastWindow}
	if err := db.recordDerivation(ctx, "forecasts", gen, days, map[time.Time]uint64{forecastWindow: uint64(len(rows))}); err != nil {
		return err
	}
	return db.recordDerivation(ctx, "forecast_accuracy", gen, days, map[time.Time]uint64{forecastWindow: uint64(len(acc))})
}

// methodOrder orders the methods as forecast.Methods lists them.
const methodOrder = `indexOf(['pipeline', 'statistical', 'ml'], method)`

// Forecasts implements read.ForecastStore.
func (db *DB) Forecasts(ctx context.Context, r read.ForecastsRequest) ([]forecast.Forecast, error) {
	q := (&query{}).add(current("forecasts")).port(r.Port)
	if r.Method != "" {
		q.add("method = ?", r.Method)
	}
	var out []forecast.Forecast
	err := db.scanAll(ctx, "forecasts", `SELECT port, method, model, origin, week, horizon, tonnes, lower, upper, vessels, history_weeks
		FROM forecasts WHERE `+q.String()+` ORDER BY port, `+methodOrder+`, week LIMIT ?`, append(q.args, uint64(r.Limit)),
		func(rows interface{ Scan(...any) error }) error {
			var f forecast.Forecast
			var h uint8
			var n uint32
			if err := rows.Scan(&f.Port, &f.Method, &f.Model, &f.Origin, &f.Week, &h, &f.Tonnes, &f.Lower, &f.Upper, &f.Vessels, &n); err != nil {
				return err
			}
			f.Origin, f.Week, f.Horizon, f.HistoryWeeks = f.Origin.UTC(), f.Week.UTC(), int(h), int(n)
			out = append(out, f)
			return nil
		})
	return out, err
}

// ForecastAccuracy implements read.ForecastStore.
func (db *DB) ForecastAccuracy(ctx context.Context, r read.AccuracyRequest) ([]forecast.Accuracy, error) {
	q := (&query{}).add(current("forecast_accuracy")).port(r.Port)
	if r.Method != "" {
		q.add("method = ?", r.Method)
	}
	var out []forecast.Accuracy
	err := db.scanAll(ctx, "forecast accuracy", `SELECT port, method, horizon, forecasts, first_origin, mae, mape, directional,
		baseline_mae, baseline_mape, baseline_directional, beats_baseline
		FROM forecast_accuracy WHERE `+q.String()+` ORDER BY port, `+methodOrder+`, horizon LIMIT ?`, append(q.args, uint64(r.Limit)),
		func(rows interface{ Scan(...any) error }) error {
			var a forecast.Accuracy
			var h, beats uint8
			var n uint32
			if err := rows.Scan(&a.Port, &a.Method, &h, &n, &a.Origin, &a.MAE, &a.MAPE, &a.Directional,
				&a.BaselineMAE, &a.BaselineMAPE, &a.BaselineDirectional, &beats); err != nil {
				return err
			}
			a.Horizon, a.Forecasts, a.Origin, a.BeatsBaseline = int(h), int(n), a.Origin.UTC(), beats == 1
			out = append(out, a)
			return nil
		})
	return out, err
}
