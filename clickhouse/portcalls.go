package clickhouse

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"overwatch"

	"overwatch/jobs"
	"overwatch/maritime/portcall"
	"overwatch/maritime/vessel"
	"overwatch/read"
)

var _ jobs.Store = (*DB)(nil)

// DataSpan is the time of the oldest and newest stored position.
func (db *DB) DataSpan(ctx context.Context) (time.Time, time.Time, error) {
	var n uint64
	var first, last time.Time
	if err := db.conn.QueryRow(ctx, "SELECT count(), min(ts), max(ts) FROM positions WHERE imo != 0").Scan(&n, &first, &last); err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("clickhouse: data span: %w", err)
	}
	if n == 0 {
		return time.Time{}, time.Time{}, nil
	}
	return first.UTC(), last.UTC(), nil
}

// Tracks streams each vessel's positions in [from, to], one per report time
// (the same report relayed by several providers counts once), vessel after
// vessel, in time order.
func (db *DB) Tracks(ctx context.Context, from, to time.Time, f jobs.TrackFilter, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error {
	filter := ""
	if f.Only != nil {
		if len(f.Only) == 0 {
			return nil
		}
		filter += " AND imo IN (" + uintList(f.Only) + ")"
	}
	if len(f.Except) > 0 {
		filter += " AND imo NOT IN (" + uintList(f.Except) + ")"
	}
	rows, err := db.conn.Query(spillToDisk(ctx), `
SELECT imo, ts, any(lat), any(lon), any(speed_kt), any(nav_status), any(draft_m), any(destination)
  FROM positions
 WHERE ts >= ? AND ts <= ? AND imo != 0`+filter+`
 GROUP BY imo, ts
 ORDER BY imo, ts`, from.UTC(), to.UTC())
	if err != nil {
		return fmt.Errorf("clickhouse: tracks: %w", err)
	}
	defer rows.Close()
	tracks := vesselTracks{fn: fn}
	for rows.Next() {
		var (
			imo     overwatch.IMO
			p       vessel.TrackPoint
			sog, dr *float32
			nav     uint8
		)
		if err := rows.Scan(&imo, &p.TS, &p.Lat, &p.Lon, &sog, &nav, &dr, &p.Destination); err != nil {
			return fmt.Errorf("clickhouse: tracks: %w", err)
		}
		p.TS, p.NavStatus, p.SOG = p.TS.UTC(), nav, math.NaN()
		if sog != nil {
			p.SOG = float64(*sog)
		}
		if dr != nil {
			p.Draft = math.Round(float64(*dr)*10) / 10
		}
		if err := tracks.add(imo, p); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("clickhouse: tracks: %w", err)
	}
	return tracks.done()
}

// VesselProfiles reads the registry, with each vessel's range of reported
// draughts from its static reports.
func (db *DB) VesselProfiles(ctx context.Context) (map[overwatch.IMO]vessel.Profile, error) {
	rows, err := db.conn.Query(ctx, `
SELECT v.imo, v.name, v.flag, v.ship_type, v.length_m, v.beam_m, d.lo, d.hi
  FROM (SELECT imo, name, flag, ship_type, length_m, beam_m FROM vessels FINAL WHERE imo != 0) AS v
  LEFT JOIN (SELECT imo, min(draft_m) AS lo, max(draft_m) AS hi FROM static_reports
              WHERE imo != 0 AND draft_m > 0 GROUP BY imo) AS d USING imo`)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: vessel profiles: %w", err)
	}
	defer rows.Close()
	out := map[overwatch.IMO]vessel.Profile{}
	for rows.Next() {
		var (
			v      vessel.Profile
			l, b   uint16
			lo, hi *float32
		)
		if err := rows.Scan(&v.IMO, &v.Name, &v.Flag, &v.ShipType, &l, &b, &lo, &hi); err != nil {
			return nil, fmt.Errorf("clickhouse: vessel profiles: %w", err)
		}
		v.LengthM, v.BeamM = float64(l), float64(b)
		if lo != nil && hi != nil {
			v.MinDraftM, v.MaxDraftM = math.Round(float64(*lo)*10)/10, math.Round(float64(*hi)*10)/10
		}
		out[v.IMO] = v
	}
	return out, rows.Err()
}

// CallsAcross returns, per vessel, the arrival of its current call that
// arrived before t and departed at or after it, or goes on.
func (db *DB) CallsAcross(ctx context.Context, t time.Time) (map[overwatch.IMO]time.Time, error) {
	rows, err := db.conn.Query(ctx, `SELECT imo, min(arrival) FROM port_calls
		WHERE `+current("port_calls")+` AND arrival < ? AND (departure IS NULL OR departure >= ?)
		GROUP BY imo`, t.UTC(), t.UTC())
	if err != nil {
		return nil, fmt.Errorf("clickhouse: calls across %s: %w", t, err)
	}
	defer rows.Close()
	out := map[overwatch.IMO]time.Time{}
	for rows.Next() {
		var imo overwatch.IMO
		var at time.Time
		if err := rows.Scan(&imo, &at); err != nil {
			return nil, fmt.Errorf("clickhouse: calls across: %w", err)
		}
		out[imo] = at.UTC()
	}
	return out, rows.Err()
}

// uintList is a SQL list of numbers.
func uintList(v []overwatch.IMO) string {
	b := make([]byte, 0, len(v)*8)
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(n), 10)
	}
	return string(b)
}

// portCallColumns are the columns of port_calls after day and gen.
const portCallColumns = `imo, port, arrival, departure, entry_seen, exit_seen, anchorage, anchor_start, anchor_end,
	berth_zone, berth_start, berth_end, wait_hours, berth_hours, port_hours, confidence, in_port_gaps, positions,
	draft_before, draft_after, operation, cargo_tonnes, cargo_quality, dwt_estimate, declared, declared_port,
	name, flag, ship_type, category, build_year, build_year_estimated`

// Calls returns the current calls that overlap [from, to).
func (db *DB) Calls(ctx context.Context, from, to time.Time) ([]portcall.Call, error) {
	var out []portcall.Call
	err := db.scanAll(ctx, "calls", `SELECT `+portCallColumns+` FROM port_calls
		WHERE `+current("port_calls")+` AND arrival < ? AND (departure IS NULL OR departure >= ?)
		ORDER BY imo, arrival`, []any{to.UTC(), from.UTC()}, func(rows interface{ Scan(...any) error }) error {
		c, err := scanCall(rows)
		out = append(out, c)
		return err
	})
	return out, err
}

// scanCall reads a row of portCallColumns (the stored wait, berth and port
// hours are the call's own WaitHours, BerthHours and PortHours).
func scanCall(rows interface{ Scan(...any) error }) (portcall.Call, error) {
	var (
		c                      portcall.Call
		entry, exit, conf, est uint8
		gaps, year             uint16
		positions              uint32
		waitH, berthH, portH   float64
		before, after          float32
	)
	if err := rows.Scan(&c.IMO, &c.Port, &c.Arrival, &c.Departure, &entry, &exit, &c.Anchorage, &c.AnchorStart, &c.AnchorEnd,
		&c.BerthZone, &c.BerthStart, &c.BerthEnd, &waitH, &berthH, &portH, &conf, &gaps, &positions,
		&before, &after, &c.Operation, &c.CargoTonnes, &c.CargoQuality, &c.DWTEstimate, &c.Declared, &c.DeclaredPort,
		&c.Name, &c.Flag, &c.ShipType, &c.Category, &year, &est); err != nil {
		return c, err
	}
	c.EntrySeen, c.ExitSeen, c.Confidence, c.BuildYearEstimated = entry == 1, exit == 1, conf, est == 1
	c.InPortGaps, c.Positions, c.BuildYear = int(gaps), int(positions), int(year)
	c.DraftBefore, c.DraftAfter = math.Round(float64(before)*10)/10, math.Round(float64(after)*10)/10
	c.Arrival = c.Arrival.UTC()
	for _, t := range []*time.Time{c.Departure, c.AnchorStart, c.AnchorEnd, c.BerthStart, c.BerthEnd} {
		if t != nil {
			*t = t.UTC()
		}
	}
	return c, nil
}

// ExportVisits implements read.ExportStore.
func (db *DB) ExportVisits(ctx context.Context, r read.ExportRequest) ([]portcall.Call, error) {
	q := (&query{}).add(publishedCalls).port(r.Port)
	if !r.Since.IsZero() {
		q.add("day >= toDate(?) AND arrival >= ?", date(r.Since), r.Since.UTC())
	}
	var out []portcall.Call
	err := db.scanAll(ctx, "export visits", `SELECT `+portCallColumns+` FROM port_calls WHERE `+q.String()+`
		ORDER BY arrival DESC, port, imo LIMIT ?`, append(q.args, uint64(r.Limit)), func(rows interface{ Scan(...any) error }) error {
		c, err := scanCall(rows)
		out = append(out, c)
		return err
	})
	return out, err
}

// WritePortCalls writes the calls of the days as generation gen.
func (db *DB) WritePortCalls(ctx context.Context, gen uint64, days []time.Time, calls []portcall.Call, dataEnd time.Time) error {
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "port_calls", "day, gen, "+portCallColumns, func(add func(...any) error) error {
		for i := range calls {
			c := &calls[i]
			d := portcall.Day(c, dataEnd)
			counts[d]++
			if err := add(d, gen, c.IMO, c.Port, c.Arrival, c.Departure, b2u(c.EntrySeen), b2u(c.ExitSeen), c.Anchorage, c.AnchorStart, c.AnchorEnd,
				c.BerthZone, c.BerthStart, c.BerthEnd, c.WaitHours(), c.BerthHours(), c.PortHours(), c.Confidence, uint16(min(c.InPortGaps, math.MaxUint16)), uint32(c.Positions),
				float32(c.DraftBefore), float32(c.DraftAfter), c.Operation, c.CargoTonnes, c.CargoQuality, c.DWTEstimate, c.Declared, c.DeclaredPort,
				c.Name, c.Flag, c.ShipType, c.Category, uint16(c.BuildYear), b2u(c.BuildYearEstimated)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "port_calls", gen, days, counts)
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
