package clickhouse

import (
	"context"
	"fmt"

	"overwatch/read"
)

var _ read.HealthStore = (*DB)(nil)

// HealthCounts counts stored positions, distinct vessels with a latest
// position, and positions reported in the last hour.
func (db *DB) HealthCounts(ctx context.Context) (read.HealthCounts, error) {
	var h read.HealthCounts
	err := db.conn.QueryRow(ctx, `
SELECT
    (SELECT count() FROM positions),
    (SELECT uniqExact(imo) FROM latest_positions WHERE imo != 0),
    (SELECT count() FROM positions WHERE ts > now() - 3600)`).Scan(&h.Positions, &h.Vessels, &h.PositionsLastHour)
	if err != nil {
		return h, fmt.Errorf("clickhouse: health counts: %w", err)
	}
	return h, nil
}
