package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch"

	"overwatch/maritime/vessel"
)

// HourlyTracks streams each vessel's first position of every hour in
// [from, to], vessel after vessel, in time order: what the baselines'
// vessel-days read (risk.AddVesselDays takes one position an hour), at a
// fraction of the rows of Tracks. Only TS, Lat and Lon are set.
func (db *DB) HourlyTracks(ctx context.Context, from, to time.Time, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error {
	rows, err := db.conn.Query(ctx, `
SELECT imo, min(ts) AS first, argMin(lat, ts), argMin(lon, ts)
  FROM positions
 WHERE ts >= ? AND ts <= ? AND imo != 0
 GROUP BY imo, toStartOfHour(ts)
 ORDER BY imo, first`, from.UTC(), to.UTC())
	if err != nil {
		return fmt.Errorf("clickhouse: hourly tracks: %w", err)
	}
	defer rows.Close()
	tracks := vesselTracks{fn: fn}
	for rows.Next() {
		var (
			imo overwatch.IMO
			p   vessel.TrackPoint
		)
		if err := rows.Scan(&imo, &p.TS, &p.Lat, &p.Lon); err != nil {
			return fmt.Errorf("clickhouse: hourly tracks: %w", err)
		}
		p.TS = p.TS.UTC()
		if err := tracks.add(imo, p); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("clickhouse: hourly tracks: %w", err)
	}
	return tracks.done()
}
