package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/jobs"
	"overwatch/write/ingest"
)

var _ jobs.ChangeLog = (*DB)(nil)

// writePositionDays records the days of the batch's positions, under the
// minute they are written (position_days).
func (db *DB) writePositionDays(ctx context.Context, b *ingest.Batch) error {
	counts := map[time.Time]uint64{}
	for i := range b.Positions {
		counts[b.Positions[i].TS.UTC().Truncate(24*time.Hour)]++
	}
	now := time.Now().UTC().Truncate(time.Minute)
	at, days, rows := make([]time.Time, 0, len(counts)), make([]time.Time, 0, len(counts)), make([]uint64, 0, len(counts))
	for d, n := range counts {
		at, days, rows = append(at, now), append(days, d), append(rows, n)
	}
	return db.columns(ctx, "INSERT INTO position_days (ingested_at, day, rows)", at, days, rows)
}

// PositionDaysSince is the earliest day of the positions written at or
// after the minute holding since.
func (db *DB) PositionDaysSince(ctx context.Context, since time.Time) (time.Time, bool, error) {
	return db.earliestDay(ctx, "SELECT count(), min(day) FROM position_days WHERE ingested_at >= ?",
		since.UTC().Truncate(time.Minute))
}

// DerivedDaysSince is the earliest day of a derived table rewritten at or
// after since.
func (db *DB) DerivedDaysSince(ctx context.Context, table string, since time.Time) (time.Time, bool, error) {
	return db.earliestDay(ctx, "SELECT count(), min(day) FROM derivation_days WHERE name = ? AND computed_at >= ?",
		table, since.UTC().Truncate(time.Second))
}

func (db *DB) earliestDay(ctx context.Context, query string, args ...any) (time.Time, bool, error) {
	var n uint64
	var day time.Time
	if err := db.conn.QueryRow(ctx, query, args...).Scan(&n, &day); err != nil {
		return time.Time{}, false, fmt.Errorf("clickhouse: changed days: %w", err)
	}
	return day.UTC(), n > 0, nil
}
