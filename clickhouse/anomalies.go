package clickhouse

import (
	"context"
	"time"

	"overwatch/maritime/forecast"
	"overwatch/read"
)

// The weekly export anomalies and the maturity of each port's history
// (migrations/010_forecasts.sql).

var _ read.AnomalyStore = (*DB)(nil)

// WriteAnomalies writes the anomalies and the ports' maturity as
// generation gen.
func (db *DB) WriteAnomalies(ctx context.Context, gen uint64, rows []forecast.Anomaly, maturity []forecast.Maturity) error {
	err := db.derivedBatch(ctx, "anomalies", `day, gen, port, week, type, expected, observed, deviation_pct, z, range_lower,
		range_upper, direction, severity, refs`, func(add func(...any) error) error {
		for _, a := range rows {
			if err := add(forecastWindow, gen, a.Port, a.Week.UTC(), a.Type, a.Expected, a.Observed, a.DeviationPct, a.Z, a.Lower,
				a.Upper, a.Direction, a.Severity, uint16(min(a.References, 65535))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	n := 0
	err = db.derivedBatch(ctx, "forecast_maturity", `day, gen, port, weeks, first_week, last_week, kind, name, needed, ready,
		missing, model`, func(add func(...any) error) error {
		for _, m := range maturity {
			for kind, reqs := range map[string][]forecast.Requirement{"anomaly": m.Anomalies, "forecast": m.Forecasts} {
				for _, r := range reqs {
					n++
					if err := add(forecastWindow, gen, m.Port, uint32(m.Weeks), m.First.UTC(), m.Last.UTC(), kind, r.Name,
						uint32(r.Needed), b2u(r.Ready), uint32(r.Missing), r.Model); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	days := []time.Time{forecastWindow}
	if err := db.recordDerivation(ctx, "anomalies", gen, days, map[time.Time]uint64{forecastWindow: uint64(len(rows))}); err != nil {
		return err
	}
	return db.recordDerivation(ctx, "forecast_maturity", gen, days, map[time.Time]uint64{forecastWindow: uint64(n)})
}

// typeOrder orders the anomaly types as forecast.Types lists them.
const typeOrder = `indexOf(['trailing', 'yoy', 'seasonal_avg', 'seasonal_range'], type)`

// Anomalies implements read.AnomalyStore.
func (db *DB) Anomalies(ctx context.Context, r read.AnomaliesRequest) ([]forecast.Anomaly, error) {
	q := (&query{}).add(current("anomalies")).port(r.Port)
	if r.Type != "" {
		q.add("type = ?", r.Type)
	}
	if r.Severity != "" {
		q.add("severity = ?", r.Severity)
	}
	if !r.From.IsZero() {
		q.add("week >= toDate(?)", date(r.From))
	}
	var out []forecast.Anomaly
	err := db.scanAll(ctx, "anomalies", `SELECT port, week, type, expected, observed, deviation_pct, z, range_lower, range_upper,
		direction, severity, refs FROM anomalies WHERE `+q.String()+` ORDER BY week DESC, port, `+typeOrder+` LIMIT ?`,
		append(q.args, uint64(r.Limit)), func(rows interface{ Scan(...any) error }) error {
			var a forecast.Anomaly
			var refs uint16
			if err := rows.Scan(&a.Port, &a.Week, &a.Type, &a.Expected, &a.Observed, &a.DeviationPct, &a.Z, &a.Lower, &a.Upper,
				&a.Direction, &a.Severity, &refs); err != nil {
				return err
			}
			a.Week, a.References = a.Week.UTC(), int(refs)
			out = append(out, a)
			return nil
		})
	return out, err
}

// requirementOrder orders the types and methods as forecast.Types and
// forecast.Methods list them (the baseline last).
const requirementOrder = `indexOf(['trailing', 'yoy', 'seasonal_avg', 'seasonal_range', 'pipeline', 'statistical', 'ml', 'seasonal_naive'], name)`

// AnomalyMaturity implements read.AnomalyStore: the maturity of at most
// limit ports, by slug.
func (db *DB) AnomalyMaturity(ctx context.Context, limit int) ([]forecast.Maturity, error) {
	var out []forecast.Maturity
	err := db.scanAll(ctx, "forecast maturity", `SELECT port, weeks, first_week, last_week, kind, name, needed, ready, missing, model
		FROM forecast_maturity
		WHERE `+current("forecast_maturity")+` AND port IN (SELECT DISTINCT port FROM forecast_maturity
		          WHERE `+current("forecast_maturity")+` ORDER BY port LIMIT ?)
		ORDER BY port, kind, `+requirementOrder, []any{uint64(limit)}, func(rows interface{ Scan(...any) error }) error {
		var port, kind string
		var weeks, needed, missing uint32
		var ready uint8
		var first, last time.Time
		var r forecast.Requirement
		if err := rows.Scan(&port, &weeks, &first, &last, &kind, &r.Name, &needed, &ready, &missing, &r.Model); err != nil {
			return err
		}
		r.Needed, r.Ready, r.Missing = int(needed), ready == 1, int(missing)
		if len(out) == 0 || out[len(out)-1].Port != port {
			out = append(out, forecast.Maturity{Port: port, Weeks: int(weeks), First: first.UTC(), Last: last.UTC()})
		}
		m := &out[len(out)-1]
		if kind == "anomaly" {
			m.Anomalies = append(m.Anomalies, r)
		} else {
			m.Forecasts = append(m.Forecasts, r)
		}
		return nil
	})
	return out, err
}
