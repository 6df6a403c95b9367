package clickhouse

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/read"
)

var (
	_ read.VesselSearch      = (*DB)(nil)
	_ read.PortPositionQuery = (*DB)(nil)
)

// freshestLatest is, per IMO, the newest row of the latest-position store
// across sources that has a position: the subquery both port queries
// start from.
const freshestLatest = `
SELECT imo,
       argMax(lat, ts) AS la, argMax(lon, ts) AS lo,
       argMax(speed_kt, ts) AS sp, argMax(course_deg, ts) AS co, argMax(draft_m, ts) AS dr,
       argMax(nav_status, ts) AS ns, argMax(vessel_name, ts) AS nm, argMax(vessel_type, ts) AS vt,
       max(ts) AS t
  FROM latest_positions
 WHERE imo != 0 AND lat IS NOT NULL AND lon IS NOT NULL AND ts >= ?
 GROUP BY imo`

// inArea is the condition that the freshest position lies in the area:
// a bounding box the primary filter, then the great-circle distance.
func inArea(z seaport.Zone) (string, []any) {
	dLat := z.RadiusKM / 111.0
	dLon := z.RadiusKM / (111.0 * math.Max(0.01, math.Cos(z.Lat*math.Pi/180)))
	return "la BETWEEN ? AND ? AND lo BETWEEN ? AND ? AND greatCircleDistance(lo, la, ?, ?) <= ?",
		[]any{z.Lat - dLat, z.Lat + dLat, z.Lon - dLon, z.Lon + dLon, z.Lon, z.Lat, z.RadiusKM * 1000}
}

// PortPositions implements read.PortPositionQuery.
func (db *DB) PortPositions(ctx context.Context, port seaport.Port, since time.Time, limit int) ([]overwatch.LatestRow, error) {
	cond, args := inArea(port.Area)
	q := "SELECT imo, la, lo, sp, co, dr, ns, nm, vt, t FROM (" + freshestLatest + ") WHERE " + cond + " ORDER BY imo LIMIT ?"
	rows, err := db.conn.Query(ctx, q, append(append([]any{since.UTC()}, args...), uint64(limit))...)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: port positions: %w", err)
	}
	defer rows.Close()
	var out []overwatch.LatestRow
	for rows.Next() {
		var r overwatch.LatestRow
		if err := rows.Scan(&r.IMO, &r.Lat, &r.Lon, &r.SpeedKt, &r.CourseDeg, &r.DraftM, &r.NavStatus, &r.VesselName, &r.VesselType, &r.TS); err != nil {
			return nil, fmt.Errorf("clickhouse: port positions: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Vessels implements read.VesselSearch.
func (db *DB) Vessels(ctx context.Context, f read.VesselFilter) ([]read.VesselRow, error) {
	var where []string
	var args []any
	where = append(where, "last_seen >= ?")
	args = append(args, f.SeenSince.UTC())
	if f.Category != nil {
		var ors []string
		for _, r := range f.Category.Codes {
			ors = append(ors, "ship_type BETWEEN ? AND ?")
			args = append(args, r[0], r[1])
		}
		where = append(where, "("+strings.Join(ors, " OR ")+")")
	}
	if f.Port != nil {
		cond, cargs := inArea(f.Port.Area)
		where = append(where, "imo IN (SELECT imo FROM ("+freshestLatest+") WHERE "+cond+")")
		args = append(append(args, f.PortSince.UTC()), cargs...)
	}
	q := `SELECT imo, mmsi, name, call_sign, ship_type, ship_type_text, flag, length_m, beam_m, draft_m, max_draft_m, destination, last_seen
	        FROM vessels FINAL WHERE ` + strings.Join(where, " AND ") + ` ORDER BY name, imo LIMIT ?`
	rows, err := db.conn.Query(ctx, q, append(args, uint64(f.Limit))...)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: vessels: %w", err)
	}
	defer rows.Close()
	var out []read.VesselRow
	for rows.Next() {
		var v read.VesselRow
		if err := rows.Scan(&v.IMO, &v.MMSI, &v.Name, &v.CallSign, &v.ShipType, &v.ShipTypeText, &v.Flag, &v.LengthM, &v.BeamM,
			&v.DraftM, &v.MaxDraftM, &v.Destination, &v.LastSeen); err != nil {
			return nil, fmt.Errorf("clickhouse: vessels: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
