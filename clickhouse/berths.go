package clickhouse

import (
	"context"

	"overwatch/maritime/portstats"
	"overwatch/read"
)

var _ read.BerthStore = (*DB)(nil)

// BerthUsage implements read.BerthStore. A berth period ends at
// berth_end, else at the departure, else it goes on (until to).
func (db *DB) BerthUsage(ctx context.Context, r read.BerthUsageRequest) ([]read.BerthUsageRow, error) {
	from, to := r.From.UTC(), r.To.UTC()
	const end = "ifNull(berth_end, departure)"
	sql := `SELECT port, berth_zone,
	       sum(greatest(0, toUnixTimestamp(least(ifNull(` + end + `, ?), ?)) - toUnixTimestamp(greatest(assumeNotNull(berth_start), ?)))) / 3600,
	       uniqExact(imo),
	       countIf(ifNull(` + end + ` >= ? AND ` + end + ` <= ?, 0)),
	       avgIf(toUnixTimestamp(assumeNotNull(` + end + `)) - toUnixTimestamp(assumeNotNull(berth_start)), ifNull(` + end + ` >= ? AND ` + end + ` <= ?, 0)) / 3600
	  FROM port_calls WHERE `
	args := []any{to, to, from, from, to, from, to}
	q := (&query{}).add(publishedCalls).port(r.Port).
		add("berth_zone != '' AND berth_start IS NOT NULL AND berth_start < ?", to).
		add("ifNull("+end+", ?) > ?", to, from)
	var out []read.BerthUsageRow
	err := db.scanAll(ctx, "berth usage", sql+q.String()+" GROUP BY port, berth_zone ORDER BY port, berth_zone", append(args, q.args...), func(rows interface{ Scan(...any) error }) error {
		var u read.BerthUsageRow
		var dwell float64
		if err := rows.Scan(&u.Port, &u.ZoneID, &u.OccupiedHours, &u.Vessels, &u.Stays, &dwell); err != nil {
			return err
		}
		u.MeanDwellHours = nanNil(dwell)
		out = append(out, u)
		return nil
	})
	return out, err
}

// BerthWeeks implements read.BerthStore.
func (db *DB) BerthWeeks(ctx context.Context, r read.BerthWeeksRequest) ([]portstats.BerthWeek, error) {
	q := (&query{}).add(current("berth_weekly")).add("port = ?", r.Port).add("day >= toDate(?)", date(r.From))
	if r.ZoneID != "" {
		q.add("zone_id = ?", r.ZoneID)
	}
	sql := `SELECT day, zone_id, zone_name, capacity, occupied_hours, available_hours, utilization, vessels, stays, mean_dwell_hours
	          FROM berth_weekly WHERE ` + q.String() + ` ORDER BY day, zone_id`
	var out []portstats.BerthWeek
	err := db.scanAll(ctx, "berth weeks", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		w := portstats.BerthWeek{Port: r.Port}
		var capacity uint16
		var vessels, stays uint32
		if err := rows.Scan(&w.Week, &w.ZoneID, &w.ZoneName, &capacity, &w.OccupiedHours, &w.AvailableHours,
			&w.Utilization, &vessels, &stays, &w.MeanDwellHours); err != nil {
			return err
		}
		w.Capacity, w.Vessels, w.Stays = int(capacity), int(vessels), int(stays)
		out = append(out, w)
		return nil
	})
	return out, err
}
