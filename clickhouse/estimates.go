package clickhouse

import (
	"context"

	"overwatch/maritime/portstats"
	"overwatch/read"
)

// The weekly export estimates and destination reliability.

var (
	_ read.EstimateStore    = (*DB)(nil)
	_ read.ReliabilityStore = (*DB)(nil)
	_ read.ExportStore      = (*DB)(nil)
)

// estimatesSQL is the weekly estimates with the sum of the imported
// actuals of the same port and week (ANY LEFT JOIN: a week without
// actuals gets n = 0).
func estimatesSQL(f read.EstimatesRequest) (string, []any) {
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

// Estimates implements read.EstimateStore.
func (db *DB) Estimates(ctx context.Context, f read.EstimatesRequest) ([]read.EstimateRow, error) {
	sql, args := estimatesSQL(f)
	var out []read.EstimateRow
	err := db.scanAll(ctx, "estimates", sql, args, func(rows interface{ Scan(...any) error }) error {
		var r read.EstimateRow
		var year uint16
		var week uint8
		var vessels, calls, withDraught uint32
		var actual float64
		var n uint64
		if err := rows.Scan(&r.Week, &r.Port, &year, &week, &vessels, &calls, &withDraught,
			&r.Tonnage, &r.Confidence, &actual, &n); err != nil {
			return err
		}
		r.ISOYear, r.ISOWeek, r.Vessels, r.Calls, r.CallsWithDraught = int(year), int(week), int(vessels), int(calls), int(withDraught)
		if n > 0 {
			r.Actuals = &actual
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// DestinationReliability implements read.ReliabilityStore.
func (db *DB) DestinationReliability(ctx context.Context, f read.ReliabilityRequest) ([]portstats.Reliability, error) {
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
	var out []portstats.Reliability
	err := db.scanAll(ctx, "destination reliability", sql, append(q.args, uint64(f.Limit)), func(rows interface{ Scan(...any) error }) error {
		var r portstats.Reliability
		var calls, declared, matched uint32
		if err := rows.Scan(&r.IMO, &r.Name, &r.Flag, &r.ShipType, &r.Category, &calls, &declared, &matched,
			&r.Share, &r.Tier, &r.LastCall); err != nil {
			return err
		}
		r.Calls, r.Declared, r.Matched = int(calls), int(declared), int(matched)
		out = append(out, r)
		return nil
	})
	return out, err
}
