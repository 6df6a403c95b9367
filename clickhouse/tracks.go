package clickhouse

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"overwatch"
	"overwatch/read"
)

var _ read.TrackStore = (*DB)(nil)

// Fixes implements read.TrackStore: the positions the filter selects,
// ordered by vessel, time and stored report (so that a report written
// twice before a merge comes in adjacent rows), streamed block by block.
// Every column is read as a plain number (times as Unix seconds, nulls as
// NaN or 65535, the source as its enum code): a year of a vessel's fixes
// is 100,000 rows, and scanning times and nullable pointers would take
// most of the answer's time.
func (db *DB) Fixes(ctx context.Context, f read.PositionFilter) (read.FixRows, error) {
	q := positionFilter(f)
	q.add("imo != 0")
	rows, err := db.conn.Query(ctx, `SELECT imo, toUInt32(ts), lat, lon, ifNull(speed_kt, nan), ifNull(course_deg, nan),
	       ifNull(heading_deg, 65535), nav_status, toInt8(source), station, toUInt32(received_at), dedup_key
	  FROM positions WHERE `+q.String()+` ORDER BY imo, ts, dedup_key`, q.args...)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: fixes: %w", err)
	}
	r := &fixRows{rows: rows}
	r.dest = []any{&r.imo, &r.ts, &r.fix.Lat, &r.fix.Lon, &r.fix.SpeedKt, &r.fix.CourseDeg, &r.heading, &r.fix.NavStatus,
		&r.source, &r.fix.Station, &r.recv, &r.fix.DedupKey}
	return r, nil
}

// fixRows reads the fixes of a query.
type fixRows struct {
	rows          driver.Rows
	imo, ts, recv uint32
	heading       uint16
	source        int8
	fix           read.Fix // scanned into through dest, made once: a row allocates nothing
	dest          []any
	err           error
}

// Next implements read.FixRows.
func (r *fixRows) Next(f *read.Fix) bool {
	if r.err != nil || !r.rows.Next() {
		return false
	}
	if err := r.rows.Scan(r.dest...); err != nil {
		r.err = fmt.Errorf("clickhouse: fixes: %w", err)
		return false
	}
	*f = r.fix
	f.IMO = overwatch.IMO(r.imo)
	f.TS, f.ReceivedAt = time.Unix(int64(r.ts), 0).UTC(), time.Unix(int64(r.recv), 0).UTC()
	f.Heading = int32(r.heading)
	if r.heading == math.MaxUint16 {
		f.Heading = -1
	}
	f.Source = overwatch.SourceNone
	if r.source >= 1 && int(r.source) <= len(overwatch.Sources) {
		f.Source = overwatch.Sources[r.source-1] // the enum's codes follow overwatch.Sources
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
