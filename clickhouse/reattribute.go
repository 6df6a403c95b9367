package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/write/ingest"
)

// reattributeStatements copy the positions of an MMSI stored without an
// IMO in a time range under the IMO a later static report gave it, in the
// tables the derivations read, and record their days in position_days so
// that the derivations recompute them. The copies keep their dedup keys: a
// batch written twice collapses at merge.
var reattributeStatements = []string{
	`INSERT INTO positions (imo, mmsi, source, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, draft_m, destination, msg_type, received_at, dedup_key)
	 SELECT toUInt32(?), mmsi, source, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, draft_m, destination, msg_type, received_at, dedup_key
	   FROM positions WHERE imo = 0 AND mmsi = ? AND ts >= ? AND ts <= ?`,
	`INSERT INTO port_positions (port, ts, imo, mmsi, source, lat, lon, speed_kt, nav_status, draft_m, dedup_key)
	 SELECT port, ts, toUInt32(?), mmsi, source, lat, lon, speed_kt, nav_status, draft_m, dedup_key
	   FROM port_positions WHERE imo = 0 AND mmsi = ? AND ts >= ? AND ts <= ?`,
}

// writeReattributions copies the orphaned positions of each
// reattribution under its IMO.
func (db *DB) writeReattributions(ctx context.Context, b *ingest.Batch) error {
	now := time.Now().UTC().Truncate(time.Minute)
	for _, r := range b.Reattributions {
		from, to := r.From.UTC().Truncate(time.Second), r.To.UTC().Truncate(time.Second)
		for _, stmt := range reattributeStatements {
			if err := db.execRetrying(ctx, stmt, r.IMO, r.MMSI, from, to); err != nil {
				return fmt.Errorf("MMSI %d: %w", r.MMSI, err)
			}
		}
		if err := db.execRetrying(ctx, `INSERT INTO position_days (ingested_at, day, rows)
			SELECT toDateTime(?, 'UTC'), toDate(ts), count() FROM positions
			 WHERE imo = 0 AND mmsi = ? AND ts >= ? AND ts <= ? GROUP BY toDate(ts)`, now, r.MMSI, from, to); err != nil {
			return fmt.Errorf("MMSI %d: %w", r.MMSI, err)
		}
	}
	return nil
}
