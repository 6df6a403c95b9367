package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/maritime/calibration"
)

// The self-calibrated factors (calibration_factors, migration 011): the
// calibration job's input (estimates beside actuals) and output.

// calibrationDay is the one window of calibration_factors.
var calibrationDay = time.Unix(0, 0).UTC()

// CalibrationWeeks returns every port and ISO week that has both a current
// estimate (estimates_weekly) and imported actuals (export_actuals, newest
// import of each key), with the actuals by commodity.
func (db *DB) CalibrationWeeks(ctx context.Context) ([]calibration.Week, error) {
	sql := `SELECT port, day, tonnage, commodity, tonnes
	  FROM (SELECT port, day, tonnage FROM estimates_weekly WHERE ` + current("estimates_weekly") + `)
	  ALL INNER JOIN (SELECT port, day, commodity, tonnes FROM export_actuals FINAL) USING (port, day)
	 ORDER BY port, day, commodity`
	var out []calibration.Week
	err := db.scanAll(ctx, "calibration weeks", sql, nil, func(rows interface{ Scan(...any) error }) error {
		var port, commodity string
		var day time.Time
		var est, act float64
		if err := rows.Scan(&port, &day, &est, &commodity, &act); err != nil {
			return err
		}
		day = day.UTC()
		if n := len(out); n == 0 || out[n-1].Port != port || !out[n-1].Week.Equal(day) {
			out = append(out, calibration.Week{Port: port, Week: day, Estimate: est, Actuals: map[string]float64{}})
		}
		out[len(out)-1].Actuals[commodity] += act
		return nil
	})
	return out, err
}

// WriteCalibration writes the self-calibrated factors as generation gen
// (the whole table: one window), then deletes the rows of generations
// older than an hour that are no longer current.
func (db *DB) WriteCalibration(ctx context.Context, gen uint64, factors []calibration.Factor) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "calibration_factors", `day, gen, port, commodity, factor, weeks, first_week, last_week,
		estimate_tonnes, actual_tonnes, mape_before, mape_after, computed_at`, func(add func(...any) error) error {
		for _, f := range factors {
			if err := add(calibrationDay, gen, f.Port, f.Commodity, f.Factor, uint32(f.Weeks), f.From.UTC(), f.To.UTC(),
				f.EstimateTonnes, f.ActualTonnes, f.MAPEBefore, f.MAPEAfter, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := db.recordDerivation(ctx, "calibration_factors", gen, []time.Time{calibrationDay},
		map[time.Time]uint64{calibrationDay: uint64(len(factors))}); err != nil {
		return err
	}
	cutoff := uint64(now.Add(-time.Hour).UnixNano())
	if err := db.conn.Exec(ctx, "ALTER TABLE calibration_factors DELETE WHERE gen < ? AND NOT "+current("calibration_factors"), cutoff); err != nil {
		return fmt.Errorf("clickhouse: clean calibration_factors: %w", err)
	}
	return nil
}

// SelfCalibration returns the current self-calibrated factors, by port
// and commodity, with when they were computed (zero when never).
func (db *DB) SelfCalibration(ctx context.Context) ([]calibration.Factor, time.Time, error) {
	sql := `SELECT port, commodity, factor, weeks, first_week, last_week, estimate_tonnes, actual_tonnes, mape_before, mape_after, computed_at
	          FROM calibration_factors WHERE ` + current("calibration_factors") + ` ORDER BY port, commodity`
	var out []calibration.Factor
	var computed time.Time
	err := db.scanAll(ctx, "self calibration", sql, nil, func(rows interface{ Scan(...any) error }) error {
		var f calibration.Factor
		var weeks uint32
		var at time.Time
		if err := rows.Scan(&f.Port, &f.Commodity, &f.Factor, &weeks, &f.From, &f.To, &f.EstimateTonnes, &f.ActualTonnes,
			&f.MAPEBefore, &f.MAPEAfter, &at); err != nil {
			return err
		}
		f.Weeks, f.From, f.To = int(weeks), f.From.UTC(), f.To.UTC()
		if at.After(computed) {
			computed = at.UTC()
		}
		out = append(out, f)
		return nil
	})
	return out, computed, err
}
