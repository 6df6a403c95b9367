package clickhouse

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"overwatch"

	"overwatch/maritime/risk"
	"overwatch/maritime/vessel"
)

// The risk tables (migrations/006_risk.sql): what the risk job writes and
// reads back. risk_events is written per day (the day each event started);
// vessel_risk, risk_hotspots and risk_baselines as one window (day
// 1970-01-01) replaced whole by each run.

// riskWindow is the one window of the single-window risk tables.
var riskWindow = time.Unix(0, 0).UTC()

// riskEventColumns are the columns of risk_events after day and gen.
const riskEventColumns = `type, subtype, imo, other, started_at, ended_at, ongoing, lat, lon, end_lat, end_lon, has_position, has_end_position, port, severity,
	detail, name, flag, ship_type, category, other_name, other_flag, other_ship_type, other_category`

// WriteRiskEvents writes the events stored under the days (UTC midnights)
// as generation gen, then records the generation for every day, so that
// the days' events are replaced whole: an event found by an earlier run on
// one of the days and not found again is gone. An event is stored under
// risk.EventDay: the day it ended, the day of dataEnd while it goes on
// (the sanctions matches under jobs.SanctionsDay); events of other days
// are not written (they belong to a window this run does not replace).
// Each row carries the identity of its vessel (and of the other vessel of
// a transfer) from identity, as of the write; Detail is stored as a JSON
// object, non-finite numbers as null.
func (db *DB) WriteRiskEvents(ctx context.Context, gen uint64, days []time.Time, events []risk.Event, identity map[overwatch.IMO]vessel.Profile, dataEnd time.Time) error {
	window := make([]time.Time, 0, len(days))
	inWindow := map[time.Time]bool{}
	for _, d := range days {
		d = d.UTC().Truncate(24 * time.Hour)
		if !inWindow[d] {
			inWindow[d] = true
			window = append(window, d)
		}
	}
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "risk_events", "day, gen, "+riskEventColumns, func(add func(...any) error) error {
		for i := range events {
			e := &events[i]
			day := risk.EventDay(e, dataEnd)
			if !inWindow[day] {
				continue
			}
			detail, err := detailJSON(e.Detail)
			if err != nil {
				return fmt.Errorf("event %s of %d at %s: %w", e.Type, e.IMO, e.Start, err)
			}
			var end *time.Time
			if e.End != nil {
				t := e.End.UTC()
				end = &t
			}
			v, o := identityOf(identity, e.IMO), identityOf(identity, e.Other)
			counts[day]++
			lat, lon, has := riskPosition(e.Lat, e.Lon, e.HasPosition)
			endLat, endLon, hasEnd := riskPosition(e.EndLat, e.EndLon, e.HasEndPosition)
			if err := add(day, gen, e.Type, e.Subtype, e.IMO, e.Other, e.Start.UTC(), end, b2u(e.End == nil),
				lat, lon, endLat, endLon, b2u(has), b2u(hasEnd), e.Port, e.Severity, detail,
				v.Name, v.Flag, v.ShipType, v.category, o.Name, o.Flag, o.ShipType, o.category); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "risk_events", gen, window, counts)
}

// riskPosition is a position as stored: its coordinates and whether it is
// known (a position with a non-finite coordinate is not); 0,0 when not.
func riskPosition(lat, lon float64, known bool) (float64, float64, bool) {
	if !known || math.IsNaN(lat) || math.IsInf(lat, 0) || math.IsNaN(lon) || math.IsInf(lon, 0) {
		return 0, 0, false
	}
	return lat, lon, true
}

// vesselIdentity is a vessel's identity as embedded in the risk rows.
type vesselIdentity struct {
	vessel.Profile
	category string
}

func identityOf(identity map[overwatch.IMO]vessel.Profile, imo overwatch.IMO) vesselIdentity {
	if imo == 0 {
		return vesselIdentity{}
	}
	p := identity[imo]
	out := vesselIdentity{Profile: p}
	if c, ok := vessel.CategoryOf(p.ShipType); ok {
		out.category = c.Name
	}
	return out
}

// WriteVesselRisk writes every vessel's score as generation gen, which
// replaces the previous run's whole. Factors are stored as a JSON array of
// {name, weight, value, contribution, reason}.
func (db *DB) WriteVesselRisk(ctx context.Context, gen uint64, rows []risk.VesselScore) error {
	err := db.derivedBatch(ctx, "vessel_risk", "day, gen, imo, name, flag, ship_type, category, score, tier, factors, computed_at",
		func(add func(...any) error) error {
			for _, r := range rows {
				factors, err := factorsJSON(r.Factors)
				if err != nil {
					return fmt.Errorf("vessel %d: %w", r.IMO, err)
				}
				if err := add(riskWindow, gen, r.IMO, r.Name, r.Flag, r.ShipType, r.Category, finite(r.Score), r.Tier, factors,
					r.ComputedAt.UTC()); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "vessel_risk", gen, []time.Time{riskWindow}, map[time.Time]uint64{riskWindow: uint64(len(rows))})
}

// WriteHotspots writes the hotspots as generation gen, which replaces the
// previous run's whole.
func (db *DB) WriteHotspots(ctx context.Context, gen uint64, rows []risk.Hotspot) error {
	err := db.derivedBatch(ctx, "risk_hotspots", `day, gen, id, lat, lon, cell_deg, events, vessels, by_type, first_event,
		last_event, active, severity`, func(add func(...any) error) error {
		for _, h := range rows {
			byType, err := json.Marshal(nonNilCounts(h.ByType))
			if err != nil {
				return err
			}
			if err := add(riskWindow, gen, h.ID, finite(h.Lat), finite(h.Lon), finite(h.CellDeg), uint32(max(h.Events, 0)),
				uint32(max(h.Vessels, 0)), string(byType), h.FirstEvent.UTC(), h.LastEvent.UTC(), b2u(h.Active), h.Severity); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "risk_hotspots", gen, []time.Time{riskWindow}, map[time.Time]uint64{riskWindow: uint64(len(rows))})
}

// WriteBaselines writes the baselines as generation gen, which replaces
// the previous run's whole.
func (db *DB) WriteBaselines(ctx context.Context, gen uint64, rows []risk.Baseline) error {
	err := db.derivedBatch(ctx, "risk_baselines", `day, gen, area, category, vessel_days, gaps_per_vessel_day,
		loiter_hours_per_day, transfers_per_day, from_ts, to_ts`, func(add func(...any) error) error {
		for _, b := range rows {
			if err := add(riskWindow, gen, b.Area, b.Category, finite(b.VesselDays), finite(b.GapsPerVesselDay),
				finite(b.LoiterHoursPerDay), finite(b.TransfersPerDay), b.From.UTC(), b.To.UTC()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "risk_baselines", gen, []time.Time{riskWindow}, map[time.Time]uint64{riskWindow: uint64(len(rows))})
}

// RiskEvents returns the current events that overlap [from, to): started
// before to and ended at or after from, or ongoing; oldest first. Detail
// comes back decoded from JSON (numbers as float64, times as RFC 3339
// strings).
func (db *DB) RiskEvents(ctx context.Context, from, to time.Time) ([]risk.Event, error) {
	return db.riskEventsWhere(ctx, "started_at < ? AND (ended_at IS NULL OR ended_at >= ?)", to.UTC(), from.UTC())
}

// OpenRiskEvents returns the current events that go on and started before
// the time, oldest first: the risk job re-reads their vessels from their
// start, so that the run that closes them sees them whole.
func (db *DB) OpenRiskEvents(ctx context.Context, before time.Time) ([]risk.Event, error) {
	return db.riskEventsWhere(ctx, "ended_at IS NULL AND started_at < ?", before.UTC())
}

func (db *DB) riskEventsWhere(ctx context.Context, cond string, args ...any) ([]risk.Event, error) {
	sql := `SELECT type, subtype, imo, other, started_at, ended_at, lat, lon, end_lat, end_lon, has_position, has_end_position,
	               port, severity, detail
	          FROM risk_events WHERE ` + current("risk_events") + ` AND ` + cond + `
	         ORDER BY started_at, imo, type, subtype, other`
	var out []risk.Event
	err := db.scanAll(ctx, "risk events", sql, args, func(rows interface{ Scan(...any) error }) error {
		var (
			e           risk.Event
			detail      string
			has, hasEnd uint8
		)
		if err := rows.Scan(&e.Type, &e.Subtype, &e.IMO, &e.Other, &e.Start, &e.End, &e.Lat, &e.Lon, &e.EndLat, &e.EndLon,
			&has, &hasEnd, &e.Port, &e.Severity, &detail); err != nil {
			return err
		}
		e.HasPosition, e.HasEndPosition = has != 0, hasEnd != 0
		e.Start = e.Start.UTC()
		if e.End != nil {
			*e.End = e.End.UTC()
		}
		if err := json.Unmarshal([]byte(detail), &e.Detail); err != nil {
			return fmt.Errorf("detail of %s %d: %w", e.Type, e.IMO, err)
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// detailJSON encodes an event's detail as a JSON object ({} for none),
// with NaN and the infinities as null.
func detailJSON(d map[string]any) (string, error) {
	if len(d) == 0 {
		return "{}", nil
	}
	b, err := json.Marshal(finiteValue(d))
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// finiteValue is v with every non-finite float (at any depth of maps and
// slices) replaced by nil, which JSON cannot encode.
func finiteValue(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = finiteValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = finiteValue(e)
		}
		return out
	case []float64:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = finiteValue(e)
		}
		return out
	}
	return v
}

// storedFactor is a risk factor as stored in vessel_risk.factors.
type storedFactor struct {
	Name         string  `json:"name"`
	Weight       float64 `json:"weight"`
	Value        float64 `json:"value"`
	Contribution float64 `json:"contribution"`
	Reason       string  `json:"reason"`
}

func factorsJSON(fs []risk.Factor) (string, error) {
	out := make([]storedFactor, len(fs))
	for i, f := range fs {
		out[i] = storedFactor{Name: f.Name, Weight: finite(f.Weight), Value: finite(f.Value), Contribution: finite(f.Contribution), Reason: f.Reason}
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func nonNilCounts(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// finite is v, or 0 when it is NaN or infinite.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// RiskEventsOfType returns the current events of a type, oldest first.
func (db *DB) RiskEventsOfType(ctx context.Context, typ string) ([]risk.Event, error) {
	return db.riskEventsWhere(ctx, "type = ?", typ)
}
