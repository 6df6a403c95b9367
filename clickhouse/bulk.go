package clickhouse

import (
	"context"
	"fmt"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"overwatch/bulk"
	"overwatch/maritime/seaport"
	"overwatch/read"
)

var _ bulk.Source = (*DB)(nil)

// The bulk feed's reads: per dataset, its table, the columns of
// bulk.Dataset.Columns in their order and kinds (strings; Int64 for
// integers and times as Unix seconds, 0 for a null time; Float64 with NaN
// for a null number), its base condition and its time column.
type bulkTable struct {
	from, cols, where, ts, order string
}

var bulkTables = map[bulk.Dataset]bulkTable{
	// The positions as stored, each report once (FINAL collapses a batch
	// stored twice), read in storage order, streamed.
	bulk.Positions: {from: "positions FINAL", ts: "ts", where: "1",
		cols: `toInt64(imo), toInt64(mmsi), toInt64(toUInt32(ts)), lat, lon,
		       ifNull(round(toFloat64(speed_kt), 1), nan), ifNull(round(toFloat64(course_deg), 1), nan),
		       ifNull(toFloat64(heading_deg), nan), toInt64(nav_status), toString(source), toInt64(toUInt32(received_at))`},
	bulk.PortCalls: {from: "port_calls", ts: "arrival", where: publishedCalls, order: "arrival, port, imo",
		cols: `toInt64(imo), name, flag, category, port, transform(port, ?, ?, nan), transform(port, ?, ?, nan),
		       toInt64(toUInt32(arrival)), ifNull(toInt64(toUInt32(departure)), 0), anchorage,
		       ifNull(toInt64(toUInt32(anchor_start)), 0), ifNull(toInt64(toUInt32(anchor_end)), 0), wait_hours, berth_zone,
		       ifNull(toInt64(toUInt32(berth_start)), 0), ifNull(toInt64(toUInt32(berth_end)), 0), berth_hours, port_hours,
		       toInt64(confidence), if(draft_before > 0, toFloat64(draft_before), nan), if(draft_after > 0, toFloat64(draft_after), nan),
		       operation, cargo_tonnes, cargo_quality, declared`},
	bulk.RiskEvents: {from: "risk_events", ts: "started_at", where: current("risk_events"), order: "started_at, type, imo",
		cols: `type, subtype, toInt64(imo), name, flag, category, toInt64(other), toInt64(toUInt32(started_at)),
		       ifNull(toInt64(toUInt32(ended_at)), 0), toInt64(ongoing), lat, lon, end_lat, end_lon, port, severity, detail`},
	bulk.Voyages: {from: "voyage_earnings", ts: "departure", where: current("voyage_earnings"), order: "departure, imo",
		cols: `toInt64(imo), name, origin, destination, commodity, toInt64(toUInt32(load_arrival)), toInt64(toUInt32(departure)),
		       toInt64(toUInt32(arrival)), toInt64(toUInt32(discharge_departure)), dwt, distance_nm,
		       if(length(tonnes) >= 2, tonnes[2], nan), voyage_days, port_days, sea_days`},
	bulk.Emissions: {from: "voyage_emissions", ts: "departure", where: current("voyage_emissions"), order: "departure, imo, id",
		cols: `id, toInt64(imo), from_port, to_port, toInt64(toUInt32(departure)), toInt64(toUInt32(arrival)), vessel_class,
		       commodity, method, ttw, wtw, model_version`},
}

// bulkWhere is the dataset's condition and the filter's: the positions
// through the one position filter (positionFilter); the other datasets
// by vessel, ship type category (the registry), time column and area (a
// risk event's position; a port call's port's position).
func bulkWhere(d bulk.Dataset, f read.PositionFilter) *query {
	t := bulkTables[d]
	if d == bulk.Positions {
		return positionFilter(f).add(t.where)
	}
	q := (&query{}).add(t.where)
	imoCondition(q, f.IMOs)
	categoryCondition(q, f.Category)
	timeCondition(q, t.ts, f.Start, f.End)
	if f.HasArea() {
		switch d {
		case bulk.RiskEvents:
			area := positionFilter(read.PositionFilter{BBox: f.BBox, Polygon: f.Polygon})
			q.add(area.String(), area.args...)
		case bulk.PortCalls:
			var slugs []string
			for _, p := range seaport.All() {
				if f.InArea(p.Lat, p.Lon) {
					slugs = append(slugs, p.Slug)
				}
			}
			q.ports(slugs)
		}
	}
	return q
}

// bulkColumnArgs are the arguments of the dataset's columns: the ports'
// positions of the port calls.
func bulkColumnArgs(d bulk.Dataset) []any {
	if d != bulk.PortCalls {
		return nil
	}
	ports := seaport.All()
	slugs, lats, lons := make([]string, len(ports)), make([]float64, len(ports)), make([]float64, len(ports))
	for i, p := range ports {
		slugs[i], lats[i], lons[i] = p.Slug, p.Lat, p.Lon
	}
	return []any{slugs, lats, slugs, lons}
}

// CountExport implements bulk.Source.
func (db *DB) CountExport(ctx context.Context, q bulk.Query) (int64, error) {
	t, ok := bulkTables[q.Dataset]
	if !ok {
		return 0, fmt.Errorf("clickhouse: no dataset %q", q.Dataset)
	}
	w := bulkWhere(q.Dataset, q.Filter)
	from := t.from
	if q.Dataset == bulk.Positions {
		from = "positions" // an upper bound, without the merge FINAL does
	}
	var n uint64
	if err := db.conn.QueryRow(ctx, `SELECT count() FROM `+from+` WHERE `+w.String(), w.args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("clickhouse: count export: %w", err)
	}
	return int64(n), nil
}

// ExportRows implements bulk.Source: the rows streamed block by block.
func (db *DB) ExportRows(ctx context.Context, q bulk.Query) (bulk.Rows, error) {
	t, ok := bulkTables[q.Dataset]
	if !ok {
		return nil, fmt.Errorf("clickhouse: no dataset %q", q.Dataset)
	}
	w := bulkWhere(q.Dataset, q.Filter)
	sql := `SELECT ` + t.cols + ` FROM ` + t.from + ` WHERE ` + w.String()
	if t.order != "" {
		sql += ` ORDER BY ` + t.order
	}
	rows, err := db.conn.Query(ctx, sql, append(bulkColumnArgs(q.Dataset), w.args...)...)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: export %s: %w", q.Dataset, err)
	}
	return &bulkRows{rows: rows, what: string(q.Dataset)}, nil
}

// BulkSQL is the query of a dataset's export with its arguments, for the
// benchmark's comparison with clickhouse-client.
func BulkSQL(q bulk.Query) (string, []any) {
	t := bulkTables[q.Dataset]
	w := bulkWhere(q.Dataset, q.Filter)
	return `SELECT ` + t.cols + ` FROM ` + t.from + ` WHERE ` + w.String(), append(bulkColumnArgs(q.Dataset), w.args...)
}

type bulkRows struct {
	rows driver.Rows
	what string
	err  error
}

func (r *bulkRows) Next(dest []any) bool {
	if r.err != nil || !r.rows.Next() {
		return false
	}
	if err := r.rows.Scan(dest...); err != nil {
		r.err = fmt.Errorf("clickhouse: export %s: %w", r.what, err)
		return false
	}
	return true
}

func (r *bulkRows) Err() error {
	if r.err != nil {
		return r.err
	}
	if err := r.rows.Err(); err != nil {
		return fmt.Errorf("clickhouse: export %s: %w", r.what, err)
	}
	return nil
}

func (r *bulkRows) Close() error { return r.rows.Close() }
