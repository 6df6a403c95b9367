package clickhouse

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"overwatch/read"
)

// The read side of the derived tables (migrations/004_derived.sql). Every
// read of a derived table keeps only the current generation of each day
// (current), and of the port calls only those of confidence 2 or more.

var (
	_ read.CongestionQuery        = (*DB)(nil)
	_ read.CongestionHistoryQuery = (*DB)(nil)
	_ read.BerthUsageQuery        = (*DB)(nil)
	_ read.BerthWeeklyQuery       = (*DB)(nil)
	_ read.FleetAgeQuery          = (*DB)(nil)
	_ read.FleetAgeHistoryQuery   = (*DB)(nil)
	_ read.EstimateQuery          = (*DB)(nil)
	_ read.ReliabilityQuery       = (*DB)(nil)
	_ read.ExportQuery            = (*DB)(nil)
)

// publishedCalls is the filter of the port calls the analytics count.
var publishedCalls = current("port_calls") + " AND confidence >= 2"

// query builds a WHERE clause and its bound arguments.
type query struct {
	where []string
	args  []any
}

func (q *query) add(cond string, args ...any) *query {
	q.where = append(q.where, cond)
	q.args = append(q.args, args...)
	return q
}

// ports adds port IN (...) with one placeholder per slug.
func (q *query) ports(slugs []string) *query {
	if len(slugs) == 0 {
		return q.add("0")
	}
	ph := strings.TrimSuffix(strings.Repeat("?, ", len(slugs)), ", ")
	args := make([]any, len(slugs))
	for i, s := range slugs {
		args[i] = s
	}
	return q.add("port IN ("+ph+")", args...)
}

// String is the conditions joined with AND.
func (q *query) String() string { return strings.Join(q.where, " AND ") }

// date is a Date parameter, bound as text for toDate(?): comparing a Date
// column with a bound DateTime is not portable to 18.16.
func date(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// nanNil is v, or nil for NaN (what ClickHouse's -If aggregates return
// over no rows) and the infinities.
func nanNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// scanAll runs the query and calls scan for each row.
func (db *DB) scanAll(ctx context.Context, what, sql string, args []any, scan func(rows interface{ Scan(...any) error }) error) error {
	rows, err := db.conn.Query(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("clickhouse: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("clickhouse: %s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("clickhouse: %s: %w", what, err)
	}
	return nil
}

// congestionNow implements read.CongestionQuery.
func (db *DB) congestionNow(ctx context.Context, f read.CongestionFilter) ([]read.CongestionLiveRow, error) {
	now, since := f.Now.UTC(), f.Since.UTC()
	day := now.Add(-24 * time.Hour)
	if day.Before(since) {
		day = since
	}
	sql := `SELECT port,
	       countIf(departure IS NULL AND anchor_start IS NOT NULL AND berth_start IS NULL),
	       countIf(departure IS NULL AND berth_start IS NOT NULL),
	       countIf(departure IS NULL),
	       quantileIf(0.5)(wait_hours, ifNull(anchor_end >= ? AND anchor_end <= ?, 0) AND wait_hours > 0),
	       quantileIf(0.9)(wait_hours, ifNull(anchor_end >= ? AND anchor_end <= ?, 0) AND wait_hours > 0),
	       countIf(arrival >= ?), countIf(ifNull(departure >= ? AND departure <= ?, 0)),
	       countIf(arrival >= ?), countIf(ifNull(departure >= ? AND departure <= ?, 0))
	  FROM port_calls WHERE `
	args := []any{since, now, since, now, day, day, now, since, since, now}
	q := (&query{}).add(publishedCalls).ports(f.Ports).add("arrival <= ?", now).
		add("(departure IS NULL OR departure >= ? OR anchor_end >= ?)", since, since)
	if f.Category != "" {
		q.add("category = ?", f.Category)
	}
	var out []read.CongestionLiveRow
	err := db.scanAll(ctx, "congestion", sql+q.String()+" GROUP BY port ORDER BY port", append(args, q.args...), func(rows interface{ Scan(...any) error }) error {
		var r read.CongestionLiveRow
		var med, p90 float64
		if err := rows.Scan(&r.Port, &r.Waiting, &r.AtBerth, &r.InPort, &med, &p90,
			&r.Arrivals24h, &r.Departures24h, &r.Arrivals7d, &r.Departures7d); err != nil {
			return err
		}
		r.MedianWaitHours, r.P90WaitHours = nanNil(med), nanNil(p90)
		out = append(out, r)
		return nil
	})
	return out, err
}

// congestionBaseline implements read.CongestionQuery.
func (db *DB) congestionBaseline(ctx context.Context, ports []string, vesselType string, from, to time.Time) ([]read.CongestionBaselineRow, error) {
	q := (&query{}).add(current("congestion_daily")).ports(ports).add("vessel_type = ?", vesselType).
		add("day >= toDate(?) AND day < toDate(?)", date(from), date(to))
	sql := `SELECT port, count(), avg(waiting), avgIf(median_wait_hours, waits > 0), avg(arrivals)
	          FROM congestion_daily WHERE ` + q.String() + ` GROUP BY port ORDER BY port`
	var out []read.CongestionBaselineRow
	err := db.scanAll(ctx, "congestion baseline", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		var r read.CongestionBaselineRow
		var med float64
		if err := rows.Scan(&r.Port, &r.Days, &r.Waiting, &med, &r.Arrivals); err != nil {
			return err
		}
		r.MedianWaitHours = nanNil(med)
		out = append(out, r)
		return nil
	})
	return out, err
}

// congestionHistory implements read.CongestionHistoryQuery.
func (db *DB) congestionHistory(ctx context.Context, port, vesselType string, from, to time.Time) ([]read.CongestionDayRow, error) {
	q := (&query{}).add(current("congestion_daily")).add("port = ? AND vessel_type = ?", port, vesselType).
		add("day >= toDate(?) AND day < toDate(?)", date(from), date(to))
	sql := `SELECT day, waiting, at_berth, in_port, arrivals, departures, waits, median_wait_hours, p90_wait_hours, median_port_hours
	          FROM congestion_daily WHERE ` + q.String() + ` ORDER BY day`
	var out []read.CongestionDayRow
	err := db.scanAll(ctx, "congestion history", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		var r read.CongestionDayRow
		if err := rows.Scan(&r.Day, &r.Waiting, &r.AtBerth, &r.InPort, &r.Arrivals, &r.Departures, &r.Waits,
			&r.MedianWaitHours, &r.P90WaitHours, &r.MedianPortHours); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// berthUsage implements read.BerthUsageQuery. A berth period ends at
// berth_end, else at the departure, else it goes on (until to).
func (db *DB) berthUsage(ctx context.Context, ports []string, from, to time.Time) ([]read.BerthUsageRow, error) {
	from, to = from.UTC(), to.UTC()
	const end = "ifNull(berth_end, departure)"
	sql := `SELECT port, berth_zone,
	       sum(greatest(0, toUnixTimestamp(least(ifNull(` + end + `, ?), ?)) - toUnixTimestamp(greatest(assumeNotNull(berth_start), ?)))) / 3600,
	       uniqExact(imo),
	       countIf(ifNull(` + end + ` >= ? AND ` + end + ` <= ?, 0)),
	       avgIf(toUnixTimestamp(assumeNotNull(` + end + `)) - toUnixTimestamp(assumeNotNull(berth_start)), ifNull(` + end + ` >= ? AND ` + end + ` <= ?, 0)) / 3600
	  FROM port_calls WHERE `
	args := []any{to, to, from, from, to, from, to}
	q := (&query{}).add(publishedCalls).ports(ports).
		add("berth_zone != '' AND berth_start IS NOT NULL AND berth_start < ?", to).
		add("ifNull("+end+", ?) > ?", to, from)
	var out []read.BerthUsageRow
	err := db.scanAll(ctx, "berth usage", sql+q.String()+" GROUP BY port, berth_zone ORDER BY port, berth_zone", append(args, q.args...), func(rows interface{ Scan(...any) error }) error {
		var r read.BerthUsageRow
		var dwell float64
		if err := rows.Scan(&r.Port, &r.ZoneID, &r.OccupiedHours, &r.Vessels, &r.Stays, &dwell); err != nil {
			return err
		}
		r.MeanDwellHours = nanNil(dwell)
		out = append(out, r)
		return nil
	})
	return out, err
}

// berthWeeks implements read.BerthWeeklyQuery.
func (db *DB) berthWeeks(ctx context.Context, port, zoneID string, from time.Time) ([]read.BerthWeekRow, error) {
	q := (&query{}).add(current("berth_weekly")).add("port = ?", port).add("day >= toDate(?)", date(from))
	if zoneID != "" {
		q.add("zone_id = ?", zoneID)
	}
	sql := `SELECT day, zone_id, zone_name, capacity, occupied_hours, available_hours, utilization, vessels, stays, mean_dwell_hours
	          FROM berth_weekly WHERE ` + q.String() + ` ORDER BY day, zone_id`
	var out []read.BerthWeekRow
	err := db.scanAll(ctx, "berth weeks", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		var r read.BerthWeekRow
		if err := rows.Scan(&r.Week, &r.ZoneID, &r.ZoneName, &r.Capacity, &r.OccupiedHours, &r.AvailableHours,
			&r.Utilization, &r.Vessels, &r.Stays, &r.MeanDwellHours); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// ageBucket is the multiIf that names the bucket of the column age.
func ageBucket() string {
	var b strings.Builder
	b.WriteString("multiIf(")
	for _, k := range read.AgeBuckets {
		if k.Hi > 0 {
			b.WriteString("age < " + strconv.Itoa(k.Hi) + ", '" + k.Name + "', ")
		} else {
			b.WriteString("'" + k.Name + "')")
			return b.String()
		}
	}
	return b.String() + "'')"
}

// fleetAge implements read.FleetAgeQuery: each vessel counts once per
// port, with the build year of its newest call; vessels whose build year
// is unknown (0) are left out.
func (db *DB) fleetAge(ctx context.Context, f read.FleetAgeFilter) ([]read.FleetAgeBucketRow, error) {
	q := (&query{}).add(publishedCalls).ports(f.Ports).
		add("arrival <= ? AND ifNull(departure >= ?, 1)", f.To.UTC(), f.From.UTC())
	if f.Category != "" {
		q.add("category = ?", f.Category)
	}
	sql := `SELECT port, ` + ageBucket() + ` AS bucket, count(), sum(estimated), avg(age)
	  FROM (SELECT port, imo, argMax(build_year, arrival) AS built, argMax(build_year_estimated, arrival) AS estimated,
	               greatest(0, ? - toInt32(built)) AS age
	          FROM port_calls WHERE ` + q.String() + ` GROUP BY port, imo)
	 WHERE built > 0 GROUP BY port, bucket ORDER BY port, bucket`
	var out []read.FleetAgeBucketRow
	err := db.scanAll(ctx, "fleet age", sql, append([]any{int32(f.Year)}, q.args...), func(rows interface{ Scan(...any) error }) error {
		var r read.FleetAgeBucketRow
		var n, est uint64
		if err := rows.Scan(&r.Port, &r.Bucket, &n, &est, &r.MeanAge); err != nil {
			return err
		}
		r.Vessels, r.Estimated = uint32(n), uint32(est)
		out = append(out, r)
		return nil
	})
	return out, err
}

// fleetAgeHistory implements read.FleetAgeHistoryQuery.
func (db *DB) fleetAgeHistory(ctx context.Context, port, vesselType string, from time.Time) ([]read.FleetAgeBucketRow, error) {
	q := (&query{}).add(current("fleet_age_weekly")).add("port = ? AND vessel_type = ?", port, vesselType).
		add("day >= toDate(?)", date(from))
	sql := `SELECT day, bucket, vessels, estimated, mean_age FROM fleet_age_weekly WHERE ` + q.String() + ` ORDER BY day, bucket`
	var out []read.FleetAgeBucketRow
	err := db.scanAll(ctx, "fleet age history", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		r := read.FleetAgeBucketRow{Port: port}
		if err := rows.Scan(&r.Week, &r.Bucket, &r.Vessels, &r.Estimated, &r.MeanAge); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// estimatesSQL is the weekly estimates with the sum of the imported
// actuals of the same port and week (ANY LEFT JOIN: a week without
// actuals gets n = 0).
func estimatesSQL(f read.EstimateFilter) (string, []any) {
	q := (&query{}).add(current("estimates_weekly"))
	actuals := "1"
	var aargs []any
	if f.Port != "" {
		q.add("port = ?", f.Port)
		actuals, aargs = "port = ?", []any{f.Port}
	}
	if !f.From.IsZero() {
		q.add("day >= toDate(?)", date(f.From))
	}
	sql := `SELECT day, port, iso_year, iso_week, vessels, calls, calls_with_draught, tonnage, confidence, actual_tonnes, actual_rows
	  FROM (SELECT day, port, iso_year, iso_week, vessels, calls, calls_with_draught, tonnage, confidence
	          FROM estimates_weekly WHERE ` + q.String() + `)
	  ANY LEFT JOIN (SELECT port, day, sum(tonnes) AS actual_tonnes, count() AS actual_rows
	                   FROM export_actuals FINAL WHERE ` + actuals + ` GROUP BY port, day) USING (port, day)
	 ORDER BY day DESC, port`
	args := append(q.args, aargs...)
	if f.Limit > 0 {
		sql += " LIMIT ?"
		args = append(args, uint64(f.Limit))
	}
	return sql, args
}

// estimates implements read.EstimateQuery.
func (db *DB) estimates(ctx context.Context, f read.EstimateFilter) ([]read.EstimateRow, error) {
	rows, err := db.ExportEstimates(ctx, read.ExportFilter{Port: f.Port, Since: f.From, Limit: f.Limit})
	return slices.Clone(rows), err
}

// exportEstimates implements read.ExportQuery.
func (db *DB) exportEstimates(ctx context.Context, f read.ExportFilter, fn func(read.EstimateRow) error) error {
	sql, args := estimatesSQL(read.EstimateFilter{Port: f.Port, From: f.Since, Limit: f.Limit})
	return db.scanAll(ctx, "estimates", sql, args, func(rows interface{ Scan(...any) error }) error {
		var r read.EstimateRow
		var actual float64
		var n uint64
		if err := rows.Scan(&r.Week, &r.Port, &r.ISOYear, &r.ISOWeek, &r.Vessels, &r.Calls, &r.CallsWithDraught,
			&r.Tonnage, &r.Confidence, &actual, &n); err != nil {
			return err
		}
		if n > 0 {
			r.Actuals = &actual
		}
		return fn(r)
	})
}

// destinationReliability implements read.ReliabilityQuery.
func (db *DB) destinationReliability(ctx context.Context, f read.ReliabilityFilter) ([]read.ReliabilityRow, error) {
	q := (&query{}).add(current("destination_reliability"))
	if f.IMO != 0 {
		q.add("imo = ?", f.IMO)
	}
	if f.Tier != "" {
		q.add("tier = ?", f.Tier)
	}
	if !f.Since.IsZero() {
		q.add("last_call >= ?", f.Since.UTC())
	}
	sql := `SELECT imo, name, flag, ship_type, category, calls, declared, matched, share, tier, last_call
	          FROM destination_reliability WHERE ` + q.String() + ` ORDER BY calls DESC, imo LIMIT ?`
	var out []read.ReliabilityRow
	err := db.scanAll(ctx, "destination reliability", sql, append(q.args, uint64(f.Limit)), func(rows interface{ Scan(...any) error }) error {
		var r read.ReliabilityRow
		if err := rows.Scan(&r.IMO, &r.Name, &r.Flag, &r.ShipType, &r.Category, &r.Calls, &r.Declared, &r.Matched,
			&r.Share, &r.Tier, &r.LastCall); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// exportVisits implements read.ExportQuery.
func (db *DB) exportVisits(ctx context.Context, f read.ExportFilter, fn func(read.VisitRow) error) error {
	q := (&query{}).add(publishedCalls)
	if f.Port != "" {
		q.add("port = ?", f.Port)
	}
	if !f.Since.IsZero() {
		q.add("day >= toDate(?) AND arrival >= ?", date(f.Since), f.Since.UTC())
	}
	sql := `SELECT imo, name, flag, category, port, arrival, departure, anchorage, anchor_start, anchor_end, wait_hours,
	               berth_zone, berth_start, berth_end, berth_hours, port_hours, confidence, draft_before, draft_after,
	               operation, cargo_tonnes, cargo_quality, declared
	          FROM port_calls WHERE ` + q.String() + ` ORDER BY arrival DESC, port, imo LIMIT ?`
	return db.scanAll(ctx, "export visits", sql, append(q.args, uint64(f.Limit)), func(rows interface{ Scan(...any) error }) error {
		var r read.VisitRow
		if err := rows.Scan(&r.IMO, &r.Name, &r.Flag, &r.Category, &r.Port, &r.Arrival, &r.Departure, &r.Anchorage,
			&r.AnchorStart, &r.AnchorEnd, &r.WaitHours, &r.BerthZone, &r.BerthStart, &r.BerthEnd, &r.BerthHours,
			&r.PortHours, &r.Confidence, &r.DraftBefore, &r.DraftAfter, &r.Operation, &r.CargoTonnes,
			&r.CargoQuality, &r.Declared); err != nil {
			return err
		}
		return fn(r)
	})
}
