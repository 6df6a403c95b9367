package clickhouse

import (
	"context"

	"overwatch/maritime/portstats"
)

// Reliabilities returns the current destination reliability of every
// vessel (what the risk score's destination factor reads).
func (db *DB) Reliabilities(ctx context.Context) ([]portstats.Reliability, error) {
	sql := `SELECT imo, name, flag, ship_type, category, calls, declared, matched, share, tier, last_call
	          FROM destination_reliability WHERE ` + current("destination_reliability") + ` ORDER BY imo`
	var out []portstats.Reliability
	err := db.scanAll(ctx, "reliabilities", sql, nil, func(rows interface{ Scan(...any) error }) error {
		var (
			r                        portstats.Reliability
			calls, declared, matched uint32
		)
		if err := rows.Scan(&r.IMO, &r.Name, &r.Flag, &r.ShipType, &r.Category, &calls, &declared, &matched,
			&r.Share, &r.Tier, &r.LastCall); err != nil {
			return err
		}
		r.Calls, r.Declared, r.Matched = int(calls), int(declared), int(matched)
		r.LastCall = r.LastCall.UTC()
		out = append(out, r)
		return nil
	})
	return out, err
}
