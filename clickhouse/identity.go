package clickhouse

import (
	"context"
	"fmt"

	"overwatch"

	"overwatch/maritime/vessel"
)

// IdentityHistory returns the identity history of the vessels (all of them
// when no IMO is given) from vessel_identity: one row per distinct
// identity and time (the same row relayed by several providers counts
// once), sorted by IMO and ValidFrom, as risk.IdentityChanges reads it.
func (db *DB) IdentityHistory(ctx context.Context, imos ...overwatch.IMO) ([]vessel.Identity, error) {
	filter := ""
	if len(imos) > 0 {
		filter = " AND imo IN (" + uintList(imos) + ")"
	}
	rows, err := db.conn.Query(ctx, `
SELECT DISTINCT imo, valid_from, mmsi, name, call_sign, flag, ship_type
  FROM vessel_identity
 WHERE imo != 0`+filter+`
 ORDER BY imo, valid_from, mmsi, name, call_sign, flag, ship_type`)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: identity history: %w", err)
	}
	defer rows.Close()
	var out []vessel.Identity
	for rows.Next() {
		var r vessel.Identity
		if err := rows.Scan(&r.IMO, &r.ValidFrom, &r.MMSI, &r.Name, &r.CallSign, &r.Flag, &r.ShipType); err != nil {
			return nil, fmt.Errorf("clickhouse: identity history: %w", err)
		}
		r.ValidFrom = r.ValidFrom.UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("clickhouse: identity history: %w", err)
	}
	return out, nil
}
