package postgres

import (
	"context"
	"fmt"
	"time"

	"overwatch"
)

// TakeRate draws one request from every bucket, or from none when any is
// exhausted, in one round trip and one transaction (see rate_take in
// migration 002). It returns each bucket's state in argument order and
// whether the request is admitted. Every API instance sharing the database
// sees the same counts.
func (db *DB) TakeRate(ctx context.Context, now time.Time, buckets []overwatch.RateBucket) ([]overwatch.RateCount, bool, error) {
	keys := make([]string, len(buckets))
	limits := make([]int32, len(buckets))
	periods := make([]string, len(buckets))
	for i, b := range buckets {
		keys[i], limits[i], periods[i] = b.Key, int32(b.Limit), string(b.Period)
	}
	rows, err := db.pool.Query(ctx, "SELECT r_used, r_end, r_allowed FROM rate_take($1, $2, $3, $4)", keys, limits, periods, now)
	if err != nil {
		return nil, false, fmt.Errorf("postgres: rate_take: %w", err)
	}
	defer rows.Close()
	counts := make([]overwatch.RateCount, 0, len(buckets))
	allowed := true
	for rows.Next() {
		var c overwatch.RateCount
		var ok bool
		if err := rows.Scan(&c.Used, &c.Reset, &ok); err != nil {
			return nil, false, err
		}
		allowed = allowed && ok
		counts = append(counts, c)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("postgres: rate_take: %w", err)
	}
	if len(counts) != len(buckets) {
		return nil, false, fmt.Errorf("postgres: rate_take returned %d rows for %d buckets", len(counts), len(buckets))
	}
	return counts, allowed, nil
}

// PurgeRateWindows deletes windows that ended before the time given and
// returns how many it deleted.
func (db *DB) PurgeRateWindows(ctx context.Context, before time.Time) (int64, error) {
	tag, err := db.pool.Exec(ctx, "DELETE FROM rate_windows WHERE window_end < $1", before)
	if err != nil {
		return 0, fmt.Errorf("postgres: purge rate windows: %w", err)
	}
	return tag.RowsAffected(), nil
}
