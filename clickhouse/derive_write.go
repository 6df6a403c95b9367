package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/maritime/portstats"
)

// derivedTables are the tables written with generations.
var derivedTables = []string{"port_calls", "congestion_daily", "berth_weekly", "fleet_age_weekly", "estimates_weekly", "destination_reliability",
	"risk_events", "vessel_risk", "risk_hotspots", "risk_baselines",
	"voyage_emissions", "route_flows_weekly", "route_shifts", "route_deceptions",
	"forecasts", "forecast_accuracy", "anomalies", "forecast_maturity", "voyage_earnings", "port_revenue_weekly",
	"presence_hourly"}

// recordedAs are the tables written with the generations of another:
// their rows go with the other's.
var recordedAs = map[string]string{"presence_days": "presence_hourly"}

// derivedBatch writes rows to a derived table in one batch; fill appends
// them through add.
func (db *DB) derivedBatch(ctx context.Context, table, columns string, fill func(add func(...any) error) error) error {
	batch, err := db.prepareBatch(ctx, "INSERT INTO "+table+" ("+columns+")")
	if err != nil {
		return fmt.Errorf("clickhouse: %s: %w", table, err)
	}
	if err := fill(func(v ...any) error { return batch.Append(v...) }); err != nil {
		batch.Abort() //nolint:errcheck
		return fmt.Errorf("clickhouse: %s: %w", table, err)
	}
	if err := batch.Send(); err != nil {
		return fmt.Errorf("clickhouse: %s: %w", table, err)
	}
	return nil
}

// recordDerivation makes generation gen of the days (or weeks) the current
// one, once all its rows are written.
func (db *DB) recordDerivation(ctx context.Context, name string, gen uint64, days []time.Time, counts map[time.Time]uint64) error {
	now := time.Now().UTC()
	return db.derivedBatch(ctx, "derivation_days", "name, day, gen, rows, computed_at", func(add func(...any) error) error {
		for _, d := range days {
			if err := add(name, d.UTC(), gen, counts[d.UTC()], now); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteCongestion writes congestion_daily rows of the days as generation gen.
func (db *DB) WriteCongestion(ctx context.Context, gen uint64, days []time.Time, rows []portstats.CongestionDay) error {
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "congestion_daily", `day, gen, port, vessel_type, waiting, at_berth, in_port, arrivals, departures,
		waits, median_wait_hours, p90_wait_hours, median_port_hours`, func(add func(...any) error) error {
		for _, r := range rows {
			counts[r.Day]++
			if err := add(r.Day, gen, r.Port, r.VesselType, uint32(r.Waiting), uint32(r.AtBerth), uint32(r.InPort), uint32(r.Arrivals),
				uint32(r.Departures), uint32(r.Waits), r.MedianWaitHours, r.P90WaitHours, r.MedianPortHours); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "congestion_daily", gen, days, counts)
}

// WriteBerthWeeks writes berth_weekly rows of the weeks as generation gen.
func (db *DB) WriteBerthWeeks(ctx context.Context, gen uint64, weeks []time.Time, rows []portstats.BerthWeek) error {
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "berth_weekly", `day, gen, port, zone_id, zone_name, capacity, occupied_hours, available_hours,
		utilization, vessels, stays, mean_dwell_hours`, func(add func(...any) error) error {
		for _, r := range rows {
			counts[r.Week]++
			if err := add(r.Week, gen, r.Port, r.ZoneID, r.ZoneName, uint16(r.Capacity), r.OccupiedHours, r.AvailableHours,
				r.Utilization, uint32(r.Vessels), uint32(r.Stays), r.MeanDwellHours); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "berth_weekly", gen, weeks, counts)
}

// WriteFleetAgeWeeks writes fleet_age_weekly rows of the weeks as
// generation gen.
func (db *DB) WriteFleetAgeWeeks(ctx context.Context, gen uint64, weeks []time.Time, rows []portstats.FleetAgeWeek) error {
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "fleet_age_weekly", "day, gen, port, vessel_type, bucket, vessels, estimated, mean_age",
		func(add func(...any) error) error {
			for _, r := range rows {
				counts[r.Week]++
				if err := add(r.Week, gen, r.Port, r.VesselType, r.Bucket, uint32(r.Vessels), uint32(r.Estimated), r.MeanAge); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "fleet_age_weekly", gen, weeks, counts)
}

// WriteEstimateWeeks writes estimates_weekly rows of the weeks as
// generation gen.
func (db *DB) WriteEstimateWeeks(ctx context.Context, gen uint64, weeks []time.Time, rows []portstats.EstimateWeek) error {
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "estimates_weekly", `day, gen, port, iso_year, iso_week, vessels, calls, calls_with_draught,
		tonnage, confidence`, func(add func(...any) error) error {
		for _, r := range rows {
			counts[r.Week]++
			if err := add(r.Week, gen, r.Port, uint16(r.ISOYear), uint8(r.ISOWeek), uint32(r.Vessels), uint32(r.Calls),
				uint32(r.CallsWithDraught), r.Tonnage, r.Confidence); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "estimates_weekly", gen, weeks, counts)
}

// reliabilityDay is the one window of destination_reliability.
var reliabilityDay = time.Unix(0, 0).UTC()

// WriteReliability writes destination_reliability as generation gen.
func (db *DB) WriteReliability(ctx context.Context, gen uint64, rows []portstats.Reliability) error {
	err := db.derivedBatch(ctx, "destination_reliability", `day, gen, imo, name, flag, ship_type, category, calls, declared,
		matched, share, tier, last_call`, func(add func(...any) error) error {
		for _, r := range rows {
			if err := add(reliabilityDay, gen, r.IMO, r.Name, r.Flag, r.ShipType, r.Category, uint32(r.Calls), uint32(r.Declared),
				uint32(r.Matched), r.Share, r.Tier, r.LastCall.UTC()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "destination_reliability", gen, []time.Time{reliabilityDay},
		map[time.Time]uint64{reliabilityDay: uint64(len(rows))})
}

// CleanDerived deletes the rows of superseded generations from every
// derived table (ALTER ... DELETE, which ClickHouse applies in the
// background; readers never see them anyway), then their records,
// keeping the newest generation of each day. Generations younger than an
// hour are left alone: one of them may be a run still writing (a run
// times out after ten minutes); older unrecorded ones are failed runs.
func (db *DB) CleanDerived(ctx context.Context) (int, error) {
	var stale uint64
	err := db.conn.QueryRow(ctx, `SELECT count() FROM derivation_days
		WHERE (name, day, gen) NOT IN (SELECT name, day, max(gen) FROM derivation_days GROUP BY name, day)`).Scan(&stale)
	if err != nil || stale == 0 {
		return 0, err
	}
	cutoff := uint64(time.Now().Add(-time.Hour).UnixNano())
	clean := func(table, name string) error {
		if err := db.conn.Exec(ctx, "ALTER TABLE "+table+" DELETE WHERE gen < ? AND NOT "+current(name), cutoff); err != nil {
			return fmt.Errorf("clickhouse: clean %s: %w", table, err)
		}
		return nil
	}
	for _, t := range derivedTables {
		if err := clean(t, t); err != nil {
			return 0, err
		}
	}
	for t, name := range recordedAs {
		if err := clean(t, name); err != nil {
			return 0, err
		}
	}
	err = db.conn.Exec(ctx, `ALTER TABLE derivation_days DELETE
		WHERE gen < ? AND (name, day, gen) NOT IN (SELECT name, day, max(gen) FROM derivation_days GROUP BY name, day)`, cutoff)
	if err != nil {
		return 0, fmt.Errorf("clickhouse: clean derivation_days: %w", err)
	}
	return int(stale), nil
}
