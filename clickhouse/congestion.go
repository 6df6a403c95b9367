package clickhouse

import (
	"context"
	"time"

	"overwatch/maritime/portstats"
	"overwatch/read"
)

var _ read.CongestionStore = (*DB)(nil)

// CongestionNow implements read.CongestionStore.
func (db *DB) CongestionNow(ctx context.Context, f read.CongestionNowRequest) ([]read.CongestionLiveRow, error) {
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
	q := (&query{}).add(publishedCalls).port(f.Port).add("arrival <= ?", now).
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

// CongestionBaseline implements read.CongestionStore.
func (db *DB) CongestionBaseline(ctx context.Context, r read.CongestionBaselineRequest) ([]read.CongestionBaselineRow, error) {
	q := (&query{}).add(current("congestion_daily")).port(r.Port).add("vessel_type = ?", r.VesselType).
		add("day >= toDate(?) AND day < toDate(?)", date(r.From), date(r.To))
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

// CongestionHistory implements read.CongestionStore.
func (db *DB) CongestionHistory(ctx context.Context, r read.CongestionHistoryRequest) ([]portstats.CongestionDay, error) {
	q := (&query{}).add(current("congestion_daily")).add("port = ? AND vessel_type = ?", r.Port, r.VesselType).
		add("day >= toDate(?) AND day < toDate(?)", date(r.From), date(r.To))
	sql := `SELECT day, waiting, at_berth, in_port, arrivals, departures, waits, median_wait_hours, p90_wait_hours, median_port_hours
	          FROM congestion_daily WHERE ` + q.String() + ` ORDER BY day`
	var out []portstats.CongestionDay
	err := db.scanAll(ctx, "congestion history", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		d := portstats.CongestionDay{Port: r.Port, VesselType: r.VesselType}
		var n [6]uint32
		if err := rows.Scan(&d.Day, &n[0], &n[1], &n[2], &n[3], &n[4], &n[5],
			&d.MedianWaitHours, &d.P90WaitHours, &d.MedianPortHours); err != nil {
			return err
		}
		d.Waiting, d.AtBerth, d.InPort, d.Arrivals, d.Departures, d.Waits = int(n[0]), int(n[1]), int(n[2]), int(n[3]), int(n[4]), int(n[5])
		out = append(out, d)
		return nil
	})
	return out, err
}
