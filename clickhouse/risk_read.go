package clickhouse

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"overwatch"

	"overwatch/maritime/risk"
	"overwatch/maritime/vessel"
	"overwatch/read"
)

// The read side of the risk tables (migrations/006_risk.sql), for the
// /risk endpoints; every read keeps only the current generation of each
// day (current).

var _ read.RiskStore = (*DB)(nil)

// visible is the filter of the events a caller may see: started at or
// after the history floor, or ongoing.
func visible(q *query, since time.Time) {
	if !since.IsZero() {
		q.add("(started_at >= ? OR ended_at IS NULL)", since.UTC())
	}
}

// RiskEventRows implements read.RiskStore.
func (db *DB) RiskEventRows(ctx context.Context, f read.RiskEventsRequest) ([]read.RiskEventRow, error) {
	q := (&query{}).add(current("risk_events"))
	if f.Type != "" {
		q.add("type = ?", f.Type)
	}
	if f.Subtype != "" {
		q.add("subtype = ?", f.Subtype)
	}
	if f.Severity != "" {
		q.add("severity = ?", f.Severity)
	}
	if f.IMO != 0 {
		if f.EitherVessel {
			q.add("(imo = ? OR other = ?)", f.IMO, f.IMO)
		} else {
			q.add("imo = ?", f.IMO)
		}
	}
	if f.OngoingOnly {
		q.add("ended_at IS NULL")
	}
	if f.Port != "" {
		q.add("port = ?", f.Port)
	}
	if f.Confidence != "" {
		q.add("visitParamExtractString(detail, 'confidence') = ?", f.Confidence)
	}
	if f.Context != "" {
		q.add("visitParamExtractString(detail, 'context') = ?", f.Context)
	}
	visible(q, f.Since)
	if !f.From.IsZero() {
		q.add("(ended_at IS NULL OR ended_at >= ?)", f.From.UTC())
	}
	if !f.To.IsZero() {
		q.add("started_at <= ?", f.To.UTC())
	}
	sql := `SELECT type, subtype, imo, other, started_at, ended_at, lat, lon, end_lat, end_lon, has_position, has_end_position,
	               port, severity, detail,
	               name, flag, ship_type, category, other_name, other_flag, other_ship_type, other_category
	          FROM risk_events WHERE ` + q.String() + `
	         ORDER BY started_at DESC, imo, type, subtype, other LIMIT ?`
	var out []read.RiskEventRow
	err := db.scanAll(ctx, "risk events", sql, append(q.args, uint64(max(f.Limit, 0))), func(rows interface{ Scan(...any) error }) error {
		var (
			r           read.RiskEventRow
			has, hasEnd uint8
		)
		if err := rows.Scan(&r.Type, &r.Subtype, &r.Vessel.IMO, &r.Other.IMO, &r.Start, &r.End, &r.Lat, &r.Lon, &r.EndLat, &r.EndLon,
			&has, &hasEnd, &r.Port, &r.Severity, &r.Detail, &r.Vessel.Name, &r.Vessel.Flag, &r.Vessel.ShipType, &r.Vessel.Category,
			&r.Other.Name, &r.Other.Flag, &r.Other.ShipType, &r.Other.Category); err != nil {
			return err
		}
		r.HasPosition, r.HasEndPosition = has != 0, hasEnd != 0
		r.Start = r.Start.UTC()
		if r.End != nil {
			*r.End = r.End.UTC()
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// RiskStats implements read.RiskStore.
func (db *DB) RiskStats(ctx context.Context, f read.RiskStatsRequest) (read.RiskStatsRow, error) {
	now, since := f.Now, f.Since
	r := read.RiskStatsRow{ByTier: map[string]uint64{}}
	events := current("risk_events")
	err := db.conn.QueryRow(ctx, `SELECT
	    (SELECT count() FROM risk_events WHERE `+events+` AND type = 'ais_gap' AND ended_at IS NULL),
	    (SELECT count() FROM vessel_risk WHERE `+current("vessel_risk")+` AND tier = 'critical'),
	    (SELECT count() FROM risk_hotspots WHERE `+current("risk_hotspots")+` AND active = 1),
	    (SELECT count() FROM risk_events WHERE `+events+` AND started_at >= ? AND started_at <= ?)`,
		now.UTC().Add(-24*time.Hour), now.UTC()).Scan(&r.ActiveGaps, &r.CriticalVessels, &r.ActiveHotspots, &r.NewEvents24h)
	if err != nil {
		return r, fmt.Errorf("clickhouse: risk stats: %w", err)
	}
	err = db.scanAll(ctx, "risk stats by tier", `SELECT severity, count() FROM risk_events
		WHERE `+events+` AND (started_at >= ? OR ended_at IS NULL) GROUP BY severity`, []any{since.UTC()},
		func(rows interface{ Scan(...any) error }) error {
			var tier string
			var n uint64
			if err := rows.Scan(&tier, &n); err != nil {
				return err
			}
			r.ByTier[tier] = n
			return nil
		})
	return r, err
}

// STSStats implements read.RiskStore.
func (db *DB) STSStats(ctx context.Context, f read.STSStatsRequest) (read.STSStatsRow, error) {
	q := (&query{}).add(current("risk_events")).add("type = 'sts_transfer'")
	visible(q, f.Since)
	r := read.STSStatsRow{ByConfidence: map[string]uint64{}}
	var high, medium, low uint64
	err := db.conn.QueryRow(ctx, `SELECT count(),
	       countIf(visitParamExtractString(detail, 'confidence') = 'high'),
	       countIf(visitParamExtractString(detail, 'confidence') = 'medium'),
	       countIf(visitParamExtractString(detail, 'confidence') = 'low'),
	       sum(visitParamExtractFloat(detail, 'tonnes')),
	       countIf(ended_at IS NULL)
	  FROM risk_events WHERE `+q.String(), q.args...).Scan(&r.Total, &high, &medium, &low, &r.Tonnes, &r.Active)
	if err != nil {
		return r, fmt.Errorf("clickhouse: sts stats: %w", err)
	}
	r.ByConfidence["high"], r.ByConfidence["medium"], r.ByConfidence["low"] = high, medium, low
	return r, nil
}

// VesselRisks implements read.RiskStore.
func (db *DB) VesselRisks(ctx context.Context, f read.VesselRisksRequest) ([]risk.VesselScore, error) {
	q := (&query{}).add(current("vessel_risk"))
	if f.IMO != 0 {
		q.add("imo = ?", f.IMO)
	}
	if f.Tier != "" {
		q.add("tier = ?", f.Tier)
	}
	if f.Category != "" {
		q.add("category = ?", f.Category)
	}
	if f.Flag != "" {
		q.add("flag = ?", f.Flag)
	}
	sql := `SELECT imo, name, flag, ship_type, category, score, tier, factors, computed_at
	          FROM vessel_risk WHERE ` + q.String() + ` ORDER BY score DESC, imo LIMIT ?`
	var out []risk.VesselScore
	err := db.scanAll(ctx, "vessel risk", sql, append(q.args, uint64(max(f.Limit, 0))), func(rows interface{ Scan(...any) error }) error {
		var r risk.VesselScore
		var factors string
		if err := rows.Scan(&r.IMO, &r.Name, &r.Flag, &r.ShipType, &r.Category, &r.Score, &r.Tier, &factors, &r.ComputedAt); err != nil {
			return err
		}
		var stored []storedFactor
		if err := json.Unmarshal([]byte(factors), &stored); err != nil {
			return fmt.Errorf("factors of %d: %w", r.IMO, err)
		}
		r.Factors = make([]risk.Factor, len(stored))
		for i, s := range stored {
			r.Factors[i] = risk.Factor(s)
		}
		r.ComputedAt = r.ComputedAt.UTC()
		out = append(out, r)
		return nil
	})
	return out, err
}

// RiskHotspots implements read.RiskStore.
func (db *DB) RiskHotspots(ctx context.Context, f read.HotspotsRequest) ([]risk.Hotspot, error) {
	q := (&query{}).add(current("risk_hotspots"))
	if f.ActiveOnly {
		q.add("active = 1")
	}
	if !f.Since.IsZero() {
		q.add("last_event >= ?", f.Since.UTC())
	}
	sql := `SELECT id, lat, lon, cell_deg, events, vessels, by_type, first_event, last_event, active, severity
	          FROM risk_hotspots WHERE ` + q.String() + ` ORDER BY events DESC, id LIMIT ?`
	var out []risk.Hotspot
	err := db.scanAll(ctx, "risk hotspots", sql, append(q.args, uint64(max(f.Limit, 0))), func(rows interface{ Scan(...any) error }) error {
		var r risk.Hotspot
		var byType string
		var active uint8
		var events, vessels uint32
		if err := rows.Scan(&r.ID, &r.Lat, &r.Lon, &r.CellDeg, &events, &vessels, &byType, &r.FirstEvent, &r.LastEvent,
			&active, &r.Severity); err != nil {
			return err
		}
		r.Events, r.Vessels = int(events), int(vessels)
		if err := json.Unmarshal([]byte(byType), &r.ByType); err != nil {
			return fmt.Errorf("by_type of %s: %w", r.ID, err)
		}
		r.Active, r.FirstEvent, r.LastEvent = active == 1, r.FirstEvent.UTC(), r.LastEvent.UTC()
		out = append(out, r)
		return nil
	})
	return out, err
}

// RiskBaselines implements read.RiskStore.
func (db *DB) RiskBaselines(ctx context.Context, _ read.BaselinesRequest) ([]risk.Baseline, error) {
	sql := `SELECT area, category, vessel_days, gaps_per_vessel_day, loiter_hours_per_day, transfers_per_day, from_ts, to_ts
	          FROM risk_baselines WHERE ` + current("risk_baselines") + ` ORDER BY area, category`
	var out []risk.Baseline
	err := db.scanAll(ctx, "risk baselines", sql, nil, func(rows interface{ Scan(...any) error }) error {
		var r risk.Baseline
		if err := rows.Scan(&r.Area, &r.Category, &r.VesselDays, &r.GapsPerVesselDay, &r.LoiterHoursPerDay, &r.TransfersPerDay,
			&r.From, &r.To); err != nil {
			return err
		}
		r.From, r.To = r.From.UTC(), r.To.UTC()
		out = append(out, r)
		return nil
	})
	return out, err
}

// IdentityTimeline implements read.RiskStore: the distinct identity rows
// of the vessel (the same values reported by several sources count once),
// oldest first.
func (db *DB) IdentityTimeline(ctx context.Context, imo overwatch.IMO) ([]vessel.Identity, error) {
	sql := `SELECT DISTINCT valid_from, mmsi, name, call_sign, flag, ship_type FROM vessel_identity
	         WHERE imo = ? ORDER BY valid_from, mmsi, name, call_sign, flag, ship_type`
	var out []vessel.Identity
	err := db.scanAll(ctx, "identity timeline", sql, []any{imo}, func(rows interface{ Scan(...any) error }) error {
		r := vessel.Identity{IMO: imo}
		if err := rows.Scan(&r.ValidFrom, &r.MMSI, &r.Name, &r.CallSign, &r.Flag, &r.ShipType); err != nil {
			return err
		}
		r.ValidFrom = r.ValidFrom.UTC()
		out = append(out, r)
		return nil
	})
	return out, err
}
