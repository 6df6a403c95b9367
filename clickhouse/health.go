package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/read"
)

var _ read.HealthStore = (*DB)(nil)

// HealthCounts counts stored positions, distinct vessels with a latest
// position, and positions reported in the hour before now (the service's
// clock, bound: ClickHouse's own clock may not be the service's).
func (db *DB) HealthCounts(ctx context.Context, now time.Time) (read.HealthCounts, error) {
	var h read.HealthCounts
	err := db.conn.QueryRow(ctx, `
SELECT
    (SELECT count() FROM positions),
    (SELECT uniqExact(imo) FROM latest_positions WHERE imo != 0),
    (SELECT count() FROM positions WHERE ts > ?)`, now.UTC().Add(-time.Hour)).Scan(&h.Positions, &h.Vessels, &h.PositionsLastHour)
	if err != nil {
		return h, fmt.Errorf("clickhouse: health counts: %w", err)
	}
	return h, nil
}

// DerivedAges returns when each derived table was last computed (its
// newest recorded generation); a table never computed has the zero time.
func (db *DB) DerivedAges(ctx context.Context) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	for _, t := range derivedTables {
		out[t] = time.Time{}
	}
	rows, err := db.conn.Query(ctx, "SELECT name, max(computed_at) FROM derivation_days GROUP BY name")
	if err != nil {
		return nil, fmt.Errorf("clickhouse: derived ages: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var at time.Time
		if err := rows.Scan(&name, &at); err != nil {
			return nil, err
		}
		out[name] = at.UTC()
	}
	return out, rows.Err()
}
