package clickhouse

import (
	"context"
	"time"

	"overwatch"
)

// StaticIntervals implements jobs.RiskStore: per vessel, the median
// interval between the times its static reports were received in [from,
// to] (a report relayed by several providers counts once), of the vessels
// with two or more.
func (db *DB) StaticIntervals(ctx context.Context, from, to time.Time) (map[overwatch.IMO]time.Duration, error) {
	sql := `SELECT imo, toUInt32(quantileExact(0.5)(d))
	          FROM (SELECT imo, arrayJoin(arrayDifference(arraySort(groupUniqArray(toUInt32(ts))))) AS d
	                  FROM static_reports
	                 WHERE imo != 0 AND ts >= ? AND ts <= ?
	                 GROUP BY imo)
	         WHERE d > 0
	         GROUP BY imo`
	out := map[overwatch.IMO]time.Duration{}
	err := db.scanAll(ctx, "static intervals", sql, []any{from.UTC(), to.UTC()}, func(rows interface{ Scan(...any) error }) error {
		var (
			imo overwatch.IMO
			s   uint32
		)
		if err := rows.Scan(&imo, &s); err != nil {
			return err
		}
		out[imo] = time.Duration(s) * time.Second
		return nil
	})
	return out, err
}
