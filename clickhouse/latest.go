package clickhouse

import (
	"context"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"overwatch"
	"overwatch/read"
)

var _ read.LatestFeed = (*DB)(nil)

const latestColumns = "imo, source, ts, mmsi, vessel_name, vessel_type, flag, lat, lon, speed_kt, course_deg, draft_m, destination, nav_status"

// clusterLatestLag is how far before since LatestChanges reads in cluster
// mode: the replication delay it tolerates between the replicas of a shard.
const clusterLatestLag = 30 * time.Second

// LatestChanges streams the rows of the latest-position store that the
// server received at or after since (every row for the zero time), and
// returns the server's clock read just before the query.
func (db *DB) LatestChanges(ctx context.Context, since time.Time, fn func(overwatch.LatestRow) error) (time.Time, error) {
	var asOf time.Time
	if err := db.conn.QueryRow(ctx, "SELECT now()").Scan(&asOf); err != nil {
		return asOf, fmt.Errorf("clickhouse: latest changes: %w", err)
	}
	if db.cluster != "" && !since.IsZero() {
		// Through the Distributed table a pass reads one replica of each
		// shard, which may be the one that has just fetched the parts
		// another replica took while it was away: their rows keep the
		// time the first replica received them. Reading back further
		// takes them in (the replica keeps the freshest of each vessel).
		since = since.Add(-clusterLatestLag)
	}
	rows, err := db.conn.Query(ctx, "SELECT "+latestColumns+", ingested_at FROM latest_positions WHERE ingested_at >= ?", since.UTC())
	if err != nil {
		return asOf, fmt.Errorf("clickhouse: latest changes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r overwatch.LatestRow
		var source string
		if err := rows.Scan(&r.IMO, &source, &r.TS, &r.MMSI, &r.VesselName, &r.VesselType, &r.Flag,
			&r.Lat, &r.Lon, &r.SpeedKt, &r.CourseDeg, &r.DraftM, &r.Destination, &r.NavStatus, &r.IngestedAt); err != nil {
			return asOf, fmt.Errorf("clickhouse: latest changes: %w", err)
		}
		r.Source = sourceOf(source)
		if err := fn(r); err != nil {
			return asOf, err
		}
	}
	if err := rows.Err(); err != nil {
		return asOf, fmt.Errorf("clickhouse: latest changes: %w", err)
	}
	return asOf, nil
}

// InsertLatest appends rows to the latest-position store in one batch (in
// cluster mode, one batch per shard: shard_writer.go).
func (db *DB) InsertLatest(ctx context.Context, rows []overwatch.LatestRow) error {
	add := func(batch driver.Batch, r *overwatch.LatestRow) error {
		return batch.Append(r.IMO, sourceName(r.Source), r.TS.UTC(), r.MMSI, r.VesselName, r.VesselType, r.Flag,
			r.Lat, r.Lon, r.SpeedKt, r.CourseDeg, r.DraftM, r.Destination, r.NavStatus, receivedAt(*r))
	}
	var err error
	if db.shards != nil {
		err = db.shards.send(ctx, "latest_positions", latestColumns+", received_at", len(rows),
			func(i int) uint32 { return uint32(rows[i].IMO) },
			func(batch driver.Batch, idx []int) error {
				for _, i := range idx {
					if err := add(batch, &rows[i]); err != nil {
						return err
					}
				}
				return nil
			})
	} else {
		err = db.sendRetrying(ctx, "INSERT INTO latest_positions ("+latestColumns+", received_at)", func(batch sendBatch) error {
			for i := range rows {
				if err := add(batch, &rows[i]); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		return fmt.Errorf("clickhouse: insert latest: %w", err)
	}
	return nil
}

func receivedAt(r overwatch.LatestRow) time.Time {
	if r.ReceivedAt.IsZero() {
		return r.TS.UTC()
	}
	return r.ReceivedAt.UTC()
}

// LastPositionTime is the report time of the newest stored position, or the
// zero time when none is stored.
func (db *DB) LastPositionTime(ctx context.Context) (time.Time, error) {
	var n uint64
	var t time.Time
	if err := db.conn.QueryRow(ctx, "SELECT count(), max(ts) FROM positions").Scan(&n, &t); err != nil {
		return time.Time{}, fmt.Errorf("clickhouse: last position: %w", err)
	}
	if n == 0 {
		return time.Time{}, nil
	}
	return t, nil
}

// FreshestIMO is the vessel with the newest latest position.
func (db *DB) FreshestIMO(ctx context.Context) (overwatch.IMO, error) {
	var imo overwatch.IMO
	err := db.conn.QueryRow(ctx, "SELECT imo FROM latest_positions WHERE imo != 0 AND lat IS NOT NULL ORDER BY ts DESC LIMIT 1").Scan(&imo)
	return imo, err
}
