package postgres

import (
	"context"

	"overwatch/maritime/calibration"
)

// SetCalibrationOverride sets the manual factor of a port and commodity
// (table calibration_overrides, migration 012), replacing any earlier one,
// and returns what is stored.
func (db *DB) SetCalibrationOverride(ctx context.Context, m calibration.Manual) (calibration.Manual, error) {
	err := db.pool.QueryRow(ctx, `INSERT INTO calibration_overrides (port, commodity, factor, reason, set_by, set_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (port, commodity) DO UPDATE SET factor = $3, reason = $4, set_by = $5, set_at = $6
		RETURNING port, commodity, factor, reason, set_by, set_at`,
		m.Port, m.Commodity, m.Factor, m.Reason, m.By, m.At.UTC()).Scan(&m.Port, &m.Commodity, &m.Factor, &m.Reason, &m.By, &m.At)
	m.At = m.At.UTC()
	return m, pgErr(err, "set calibration override")
}

// CalibrationOverrides returns every manual factor, by port and commodity.
func (db *DB) CalibrationOverrides(ctx context.Context) ([]calibration.Manual, error) {
	rows, err := db.pool.Query(ctx, `SELECT port, commodity, factor, reason, set_by, set_at
		FROM calibration_overrides ORDER BY port, commodity`)
	if err != nil {
		return nil, pgErr(err, "calibration overrides")
	}
	defer rows.Close()
	out := []calibration.Manual{}
	for rows.Next() {
		var m calibration.Manual
		if err := rows.Scan(&m.Port, &m.Commodity, &m.Factor, &m.Reason, &m.By, &m.At); err != nil {
			return nil, pgErr(err, "calibration overrides")
		}
		m.At = m.At.UTC()
		out = append(out, m)
	}
	return out, pgErr(rows.Err(), "calibration overrides")
}

// ClearCalibrationOverride deletes the manual factor of a port and
// commodity; it reports whether there was one.
func (db *DB) ClearCalibrationOverride(ctx context.Context, port, commodity string) (bool, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM calibration_overrides WHERE port = $1 AND commodity = $2`, port, commodity)
	if err != nil {
		return false, pgErr(err, "clear calibration override")
	}
	return tag.RowsAffected() > 0, nil
}
