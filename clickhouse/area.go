package clickhouse

import (
	"context"
	"fmt"

	"overwatch/read"
)

var _ read.AreaStore = (*DB)(nil)

// AreaPresence implements read.AreaStore: per vessel, its fixes the
// filter selects, counted once per stored report (a retried write is not
// counted twice before the merge), and the first and the last of them.
// A report is told by a 64-bit hash of its time and dedup key: a set of
// UInt64 is several times cheaper than one of (ts, dedup_key) pairs,
// which ClickHouse keys by a 128-bit hash (a world's day of a 20,000-vessel
// fleet, 3.4 million fixes: 2.8 s → 0.6 s), and two of a vessel's
// 100,000 fixes in a year share a hash with a chance of about 3·10⁻¹⁰.
func (db *DB) AreaPresence(ctx context.Context, f read.PositionFilter) ([]read.AreaPresence, error) {
	q := positionFilter(f)
	q.add("imo != 0")
	rows, err := db.conn.Query(ctx, `SELECT imo, uniqExact(cityHash64(ts, dedup_key)),
	       min(ts), argMin(lat, ts), argMin(lon, ts), max(ts), argMax(lat, ts), argMax(lon, ts)
	  FROM positions WHERE `+q.String()+` GROUP BY imo ORDER BY imo`, q.args...)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: area presence: %w", err)
	}
	defer rows.Close()
	var out []read.AreaPresence
	for rows.Next() {
		var p read.AreaPresence
		if err := rows.Scan(&p.IMO, &p.Fixes, &p.First.TS, &p.First.Lat, &p.First.Lon, &p.Last.TS, &p.Last.Lat, &p.Last.Lon); err != nil {
			return nil, fmt.Errorf("clickhouse: area presence: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
