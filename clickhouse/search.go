package clickhouse

import (
	"context"
	"fmt"

	"overwatch/read"
)

var _ read.SearchStore = (*DB)(nil)

// IdentityNames implements read.SearchStore: each distinct (name, call
// sign, MMSI) a vessel has broadcast, with the latest time it began to,
// ordered by vessel and time.
func (db *DB) IdentityNames(ctx context.Context, _ read.IdentityNames) ([]read.IdentityName, error) {
	rows, err := db.conn.Query(ctx, `SELECT imo, name, call_sign, mmsi, max(valid_from) AS since
	  FROM vessel_identity WHERE imo != 0
	 GROUP BY imo, name, call_sign, mmsi ORDER BY imo, since`)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: identity names: %w", err)
	}
	defer rows.Close()
	var out []read.IdentityName
	for rows.Next() {
		var n read.IdentityName
		if err := rows.Scan(&n.IMO, &n.Name, &n.CallSign, &n.MMSI, &n.Since); err != nil {
			return nil, fmt.Errorf("clickhouse: identity names: %w", err)
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
