package clickhouse

import (
	"strings"
	"time"

	"overwatch"
	"overwatch/maritime/geo"
	"overwatch/maritime/vessel"
	"overwatch/read"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// positionFilter is the WHERE clause of read.PositionFilter over a table
// with the positions table's columns (imo, mmsi, source, ts, lat, lon),
// every value bound. The category reads the registry; a polygon is tested
// after its bounding box (the cheap filter), both as bound constants.
func positionFilter(f read.PositionFilter) *query {
	q := &query{}
	imoCondition(q, f.IMOs)
	if len(f.MMSIs) > 0 {
		mmsis := make([]any, len(f.MMSIs))
		for i, m := range f.MMSIs {
			mmsis[i] = m
		}
		q.in("mmsi", mmsis)
	}
	timeCondition(q, "ts", f.Start, f.End)
	if len(f.Sources) > 0 {
		names := make([]any, len(f.Sources))
		for i, s := range f.Sources {
			names[i] = sourceName(s)
		}
		q.in("source", names)
	}
	categoryCondition(q, f.Category)
	areaCondition(q, f)
	return q
}

// areaCondition adds the filter's area, when it has one, over columns lat
// and lon: the box, or the polygon's bounding box (the cheap filter) and
// the polygon, inside its exterior ring and outside each hole, each ring
// its own test (ClickHouse 18.16's pointInPolygon given the holes as
// further arguments misses points of the polygon:
// TestAreaPresenceFromTheSummary).
func areaCondition(q *query, f read.PositionFilter) {
	if f.BBox != nil {
		bboxCondition(q, *f.BBox)
	}
	if len(f.Polygon) > 0 {
		bboxCondition(q, f.Polygon.Bounds())
		q.add("pointInPolygon((lon, lat), ?)", ringSet(f.Polygon[0]))
		for _, hole := range f.Polygon[1:] {
			q.add("NOT pointInPolygon((lon, lat), ?)", ringSet(hole))
		}
	}
}

// imoCondition adds the vessels, when any are given.
func imoCondition(q *query, imos []overwatch.IMO) {
	if len(imos) == 0 {
		return
	}
	values := make([]any, len(imos))
	for i, imo := range imos {
		values[i] = uint32(imo)
	}
	q.in("imo", values)
}

// timeCondition adds start <= column <= end, each bound when set.
func timeCondition(q *query, column string, start, end time.Time) {
	if !start.IsZero() {
		q.add(column+" >= ?", start.UTC())
	}
	if !end.IsZero() {
		q.add(column+" <= ?", end.UTC())
	}
}

// categoryCondition adds the vessels of a ship type category, read from
// the registry, when one is given.
func categoryCondition(q *query, c *vessel.Category) {
	if c == nil {
		return
	}
	cond, args := "", []any{}
	for i, r := range c.Codes {
		if i > 0 {
			cond += " OR "
		}
		cond += "ship_type BETWEEN ? AND ?"
		args = append(args, r[0], r[1])
	}
	q.add("imo IN (SELECT imo FROM vessels WHERE "+cond+")", args...)
}

// in adds column IN (?, ...) with a placeholder per value (a bound
// array would be an Array to ClickHouse 18.16, not a set).
func (q *query) in(column string, values []any) {
	q.add(column+" IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(values)), ", ")+")", values...)
}

// bboxCondition adds the box; one that crosses the antimeridian holds the
// longitudes east of West or west of East.
func bboxCondition(q *query, b geo.BBox) {
	q.add("lat >= ? AND lat <= ?", b.South, b.North)
	if b.CrossesAntimeridian() {
		q.add("(lon >= ? OR lon <= ?)", b.West, b.East)
	} else {
		q.add("lon >= ? AND lon <= ?", b.West, b.East)
	}
}

// ringSet binds a ring as a constant array of (lon, lat) tuples, the form
// pointInPolygon takes on every supported server.
func ringSet(r geo.Ring) ch.ArraySet {
	out := make(ch.ArraySet, len(r))
	for i, p := range r {
		out[i] = ch.GroupSet{Value: []any{p[0], p[1]}}
	}
	return out
}
