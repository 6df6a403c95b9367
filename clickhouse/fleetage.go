package clickhouse

import (
	"context"
	"strconv"
	"strings"

	"overwatch/maritime/portstats"
	"overwatch/read"
)

var _ read.FleetAgeStore = (*DB)(nil)

// ageBucket is the multiIf that names the bucket of the column age.
// (portstats.AgeBuckets; the last takes every older vessel).
func ageBucket() string {
	var b strings.Builder
	b.WriteString("multiIf(")
	buckets := portstats.AgeBuckets
	for _, k := range buckets[:len(buckets)-1] {
		b.WriteString("age < " + strconv.Itoa(k.Hi) + ", '" + k.Name + "', ")
	}
	b.WriteString("'" + buckets[len(buckets)-1].Name + "')")
	return b.String()
}

// FleetAge implements read.FleetAgeStore: each vessel counts once per
// port, with the build year of its newest call; vessels whose build year
// is unknown (0) are left out.
func (db *DB) FleetAge(ctx context.Context, f read.FleetAgeRequest) ([]portstats.FleetAgeWeek, error) {
	q := (&query{}).add(publishedCalls).port(f.Port).
		add("arrival <= ? AND ifNull(departure >= ?, 1)", f.To.UTC(), f.From.UTC())
	if f.Category != "" {
		q.add("category = ?", f.Category)
	}
	sql := `SELECT port, ` + ageBucket() + ` AS bucket, count(), sum(estimated), avg(age)
	  FROM (SELECT port, imo, argMax(build_year, arrival) AS built, argMax(build_year_estimated, arrival) AS estimated,
	               greatest(0, ? - toInt32(built)) AS age
	          FROM port_calls WHERE ` + q.String() + ` GROUP BY port, imo)
	 WHERE built > 0 GROUP BY port, bucket ORDER BY port, bucket`
	vt := f.Category
	if vt == "" {
		vt = portstats.AllTypes
	}
	var out []portstats.FleetAgeWeek
	err := db.scanAll(ctx, "fleet age", sql, append([]any{int32(f.Year)}, q.args...), func(rows interface{ Scan(...any) error }) error {
		r := portstats.FleetAgeWeek{VesselType: vt}
		var n, est uint64
		if err := rows.Scan(&r.Port, &r.Bucket, &n, &est, &r.MeanAge); err != nil {
			return err
		}
		r.Vessels, r.Estimated = int(n), int(est)
		out = append(out, r)
		return nil
	})
	return out, err
}

// FleetAgeHistory implements read.FleetAgeStore.
func (db *DB) FleetAgeHistory(ctx context.Context, f read.FleetAgeHistoryRequest) ([]portstats.FleetAgeWeek, error) {
	q := (&query{}).add(current("fleet_age_weekly")).add("port = ? AND vessel_type = ?", f.Port, f.VesselType).
		add("day >= toDate(?)", date(f.From))
	sql := `SELECT day, bucket, vessels, estimated, mean_age FROM fleet_age_weekly WHERE ` + q.String() + ` ORDER BY day, bucket`
	var out []portstats.FleetAgeWeek
	err := db.scanAll(ctx, "fleet age history", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		r := portstats.FleetAgeWeek{Port: f.Port, VesselType: f.VesselType}
		var n, est uint32
		if err := rows.Scan(&r.Week, &r.Bucket, &n, &est, &r.MeanAge); err != nil {
			return err
		}
		r.Vessels, r.Estimated = int(n), int(est)
		out = append(out, r)
		return nil
	})
	return out, err
}
