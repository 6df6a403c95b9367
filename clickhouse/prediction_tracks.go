package clickhouse

import (
	"context"
	"fmt"
	"math"
	"time"

	"overwatch"
	"overwatch/maritime/vessel"
)

// predictionTracks reads the tracks of a predictions refresh: every
// vessel's fixes in [from, to) in time order, vessel after vessel, with
// only the columns the predictor uses (time, position, speed). The
// fixes are sorted, not grouped: where Tracks groups by (imo, ts) to
// collapse the providers' copies of a fix (a hash table of every fix of
// the window, and the destination's strings carried through it), this
// read sorts the window by the table's own key and skips a fix whose
// vessel and second are the previous one's, keeping the first, as any()
// would keep one of them. For a refresh of a whole fleet (48 hours of
// every vessel) that is the difference between a sort of four numeric
// columns and a grouping of eight.
func predictionTracks(ctx context.Context, db *DB, from, to time.Time, only []overwatch.IMO, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error {
	filter := ""
	if only != nil {
		if len(only) == 0 {
			return nil
		}
		filter = " AND imo IN (" + uintList(only) + ")"
	}
	rows, err := db.conn.Query(spillToDisk(ctx), `
SELECT imo, ts, lat, lon, speed_kt
  FROM positions
 WHERE ts >= ? AND ts < ? AND imo != 0`+filter+`
 ORDER BY imo, ts`, from.UTC(), to.UTC())
	if err != nil {
		return fmt.Errorf("clickhouse: prediction tracks: %w", err)
	}
	defer rows.Close()
	tracks := vesselTracks{fn: fn}
	for rows.Next() {
		var (
			imo overwatch.IMO
			p   vessel.TrackPoint
			sog *float32
		)
		if err := rows.Scan(&imo, &p.TS, &p.Lat, &p.Lon, &sog); err != nil {
			return fmt.Errorf("clickhouse: prediction tracks: %w", err)
		}
		if prev, ok := tracks.last(imo); ok && prev.TS.Equal(p.TS) {
			continue // another provider's copy of the same fix
		}
		p.TS, p.SOG = p.TS.UTC(), math.NaN()
		if sog != nil {
			p.SOG = float64(*sog)
		}
		if err := tracks.add(imo, p); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("clickhouse: prediction tracks: %w", err)
	}
	return tracks.done()
}
