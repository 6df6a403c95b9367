package clickhouse

import (
	"context"
	"fmt"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"overwatch"
	"overwatch/read"
)

var _ read.TrackStore = (*DB)(nil)

// Fixes implements read.TrackStore: the positions the filter selects,
// ordered by vessel, time and stored report (so that a report written
// twice before a merge comes in adjacent rows), streamed block by block.
func (db *DB) Fixes(ctx context.Context, f read.PositionFilter) (read.FixRows, error) {
	q := positionFilter(f)
	q.add("imo != 0")
	rows, err := db.conn.Query(ctx, `SELECT imo, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, source, station, received_at, dedup_key
	  FROM positions WHERE `+q.String()+` ORDER BY imo, ts, dedup_key`, q.args...)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: fixes: %w", err)
	}
	return &fixRows{rows: rows}, nil
}

// fixRows reads the fixes of a query.
type fixRows struct {
	rows   driver.Rows
	imo    uint32
	source string
	err    error
}

// Next implements read.FixRows.
func (r *fixRows) Next(f *read.Fix) bool {
	if r.err != nil || !r.rows.Next() {
		return false
	}
	// The optional columns are scanned into fresh pointers each row: the
	// caller may keep the fix.
	f.SpeedKt, f.CourseDeg, f.Heading = nil, nil, nil
	if err := r.rows.Scan(&r.imo, &f.TS, &f.Lat, &f.Lon, &f.SpeedKt, &f.CourseDeg, &f.Heading, &f.NavStatus,
		&r.source, &f.Station, &f.ReceivedAt, &f.DedupKey); err != nil {
		r.err = fmt.Errorf("clickhouse: fixes: %w", err)
		return false
	}
	f.IMO = overwatch.IMO(r.imo)
	f.Source = overwatch.SourceNone
	if r.source != "none" {
		f.Source = overwatch.Source(r.source)
	}
	return true
}

// Err implements read.FixRows.
func (r *fixRows) Err() error {
	if r.err != nil {
		return r.err
	}
	if err := r.rows.Err(); err != nil {
		return fmt.Errorf("clickhouse: fixes: %w", err)
	}
	return nil
}

// Close implements read.FixRows.
func (r *fixRows) Close() error { return r.rows.Close() }
