package clickhouse

import (
	"context"
	"fmt"
	"strings"
	"time"

	"overwatch/maritime/geo"
	"overwatch/read"
)

var _ read.AreaStore = (*DB)(nil)

// AreaPresence implements read.AreaStore: per vessel, its fixes the
// filter selects, counted once per stored report (a retried write is not
// counted twice before the merge), and the first and the last of them.
// A report is told by a 64-bit hash of its time and dedup key: a set of
// UInt64 is several times cheaper than one of (ts, dedup_key) pairs, and
// two of a vessel's 100,000 fixes in a year share a hash with a chance of
// about 3·10⁻¹⁰.
//
// Where the presence summary holds the range (presence_hourly), the
// answer is put together from three parts that split the fixes between
// them: the summary's counts and first and last fixes of the whole hours
// and the grid cells wholly inside the area; the summary's own copies of
// the fixes of the border cells and the partial hours, tested one by one;
// and the positions of the time the summary does not hold yet (after its
// last run). A filter by MMSI or source, which the summary does not keep,
// reads the positions alone.
func (db *DB) AreaPresence(ctx context.Context, f read.PositionFilter) ([]read.AreaPresence, error) {
	sql, args, err := db.areaPresenceQuery(ctx, f)
	if err != nil {
		return nil, err
	}
	rows, err := db.conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: area presence: %w", err)
	}
	defer rows.Close()
	var out []read.AreaPresence
	for rows.Next() {
		var p read.AreaPresence
		if err := rows.Scan(&p.IMO, &p.Fixes, &p.First.TS, &p.First.Lat, &p.First.Lon, &p.Last.TS, &p.Last.Lat, &p.Last.Lon); err != nil {
			return nil, fmt.Errorf("clickhouse: area presence: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// presenceOfFixes aggregates fixes (columns imo, ts, lat and lon) per
// vessel into the columns of each part of the area presence: vessel,
// fixes (count, the fixes' number: given by each its own row), first fix,
// last fix.
func presenceOfFixes(count string) string {
	return `SELECT imo, ` + count + ` AS n, min(ts) AS t0, argMin(lat, ts) AS la0, argMin(lon, ts) AS lo0,
       max(ts) AS t1, argMax(lat, ts) AS la1, argMax(lon, ts) AS lo1`
}

// areaPresenceQuery is the query of AreaPresence and its arguments.
func (db *DB) areaPresenceQuery(ctx context.Context, f read.PositionFilter) (string, []any, error) {
	raw := positionFilter(f)
	raw.add("imo != 0")
	rawSQL := presenceOfFixes("uniqExact(k)") + "\n  FROM (SELECT imo, ts, lat, lon, cityHash64(ts, dedup_key) AS k FROM positions WHERE "
	if len(f.MMSIs) > 0 || len(f.Sources) > 0 || f.Start.IsZero() || f.End.IsZero() || !f.HasArea() {
		return rawSQL + raw.String() + ")\n GROUP BY imo ORDER BY imo", raw.args, nil
	}
	// The range on the stored second: [from, to).
	from, to := ceilSecond(f.Start.UTC()), f.End.UTC().Truncate(time.Second).Add(time.Second)
	held, current, err := db.presenceReach(ctx, from, to)
	if err != nil {
		return "", nil, err
	}
	var outer, inner []geo.CellRange
	if f.BBox != nil {
		outer, inner = f.BBox.GridCells()
	} else {
		outer, inner = f.Polygon.GridCells()
	}
	var whole, edges []span // whole hours, hours held in part
	for _, s := range held {
		a, b := ceilHour(s.From), s.To.Truncate(time.Hour)
		if !a.Before(b) {
			edges = append(edges, span{s.From.Truncate(time.Hour), ceilHour(s.To)})
			continue
		}
		whole = append(whole, span{a, b})
		if s.From.Before(a) {
			edges = append(edges, span{a.Add(-time.Hour), a})
		}
		if b.Before(s.To) {
			edges = append(edges, span{b, b.Add(time.Hour)})
		}
	}
	var parts []string
	var args []any
	days := func(q *query) { q.addCond(current) }
	// The whole hours and the cells inside: the summary's sums, of whole
	// days and 6-hour blocks where the range has them.
	if len(whole) > 0 && len(inner) > 0 {
		q := &query{}
		days(q)
		q.addCond(levelsCondition(whole).and(cellsCondition(inner)))
		imoCondition(q, f.IMOs)
		categoryCondition(q, f.Category)
		parts = append(parts, `SELECT imo, fixes AS n, first_ts AS t0, first_lat AS la0, first_lon AS lo0, last_ts AS t1,
		       last_lat AS la1, last_lon AS lo1 FROM presence_hourly WHERE `+q.String())
		args = append(args, q.args...)
	}
	// The partial hours and the border cells: the summary's fixes of
	// each hour, in time order, tested one by one (the first that passes
	// is the first fix, the last the last); in the cells inside, the
	// time alone.
	if len(held) > 0 {
		timed := &query{}
		timeCondition(timed, "ts", f.Start, f.End)
		tested := &query{}
		timeCondition(tested, "ts", f.Start, f.End)
		areaCondition(tested, f)
		// The border as rectangles of its own (not outer AND NOT inner):
		// conditions the table's index narrows.
		edge := geo.Border(outer, inner)
		var timeOnly, border []condition
		if len(edges) > 0 && len(inner) > 0 {
			timeOnly = append(timeOnly, spansCondition("hour", edges).and(cellsCondition(inner)))
		}
		if len(edge) > 0 {
			border = append(border, spansCondition("hour", append(append([]span{}, edges...), whole...)).and(cellsCondition(edge)))
		}
		for _, p := range []struct {
			rows []condition
			test *query
		}{{timeOnly, timed}, {border, tested}} {
			if len(p.rows) == 0 {
				continue
			}
			pre := &query{}
			days(pre)
			pre.add("level = 1")
			pre.addCond(anyOf(p.rows))
			vessels := &query{}
			vessels.add("n > 0")
			imoCondition(vessels, f.IMOs)
			categoryCondition(vessels, f.Category)
			parts = append(parts, `SELECT imo,
		       length(arrayFilter((i, ts, lat, lon) -> `+p.test.String()+`, arrayEnumerate(fix_ts), fix_ts, fix_lat, fix_lon) AS passed) AS n,
		       fix_ts[passed[1]] AS t0, fix_lat[passed[1]] AS la0, fix_lon[passed[1]] AS lo0,
		       fix_ts[passed[-1]] AS t1, fix_lat[passed[-1]] AS la1, fix_lon[passed[-1]] AS lo1
		  FROM presence_hourly PREWHERE `+pre.String()+` WHERE `+vessels.String())
			args = append(append(append(args, p.test.args...), pre.args...), vessels.args...)
		}
	}
	// The time the summary does not hold: the positions.
	if missing := gaps(span{from, to}, held); len(missing) > 0 {
		q := positionFilter(f)
		q.add("imo != 0")
		q.addCond(spansCondition("ts", missing))
		parts = append(parts, rawSQL+q.String()+") GROUP BY imo")
		args = append(args, q.args...)
	}
	return `SELECT imo, sum(n), min(t0), argMin(la0, t0), argMin(lo0, t0), max(t1), argMax(la1, t1), argMax(lo1, t1)
  FROM (` + strings.Join(parts, "\n UNION ALL\n ") + `)
 GROUP BY imo ORDER BY imo`, args, nil
}

// condition is a part of a WHERE clause and its bound values.
type condition struct {
	sql  string
	args []any
}

func (c condition) and(o condition) condition {
	return condition{c.sql + " AND " + o.sql, append(append([]any{}, c.args...), o.args...)}
}

func (c condition) not() condition { return condition{"NOT " + c.sql, c.args} }

// anyOf joins conditions with OR, in parentheses.
func anyOf(conds []condition) condition {
	var out condition
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = "(" + c.sql + ")"
		out.args = append(out.args, c.args...)
	}
	out.sql = "(" + strings.Join(parts, " OR ") + ")"
	return out
}

// levelsCondition is the summary rows of the spans of whole hours: of
// each whole day in them (level 24), each whole 6-hour block in what is
// left (level 6), each hour left (level 1).
func levelsCondition(whole []span) condition {
	by := map[int][]span{}
	queue := append([]span{}, whole...)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, level := range []int{24, 6, 1} {
			size := time.Duration(level) * time.Hour
			a, b := ceilTo(s.From, size), s.To.Truncate(size)
			if !a.Before(b) {
				continue
			}
			by[level] = append(by[level], span{a, b})
			// What is left on each side goes by the smaller levels.
			for _, rest := range []span{{s.From, a}, {b, s.To}} {
				if rest.From.Before(rest.To) {
					queue = append(queue, rest)
				}
			}
			break
		}
	}
	var conds []condition
	for _, level := range presenceLevels {
		if spans := by[level]; len(spans) > 0 {
			conds = append(conds, condition{"level = ?", []any{level}}.and(spansCondition("hour", spans)))
		}
	}
	return anyOf(conds)
}

// spansCondition is column in one of the spans.
func spansCondition(column string, spans []span) condition {
	conds := make([]condition, len(spans))
	for i, s := range spans {
		conds[i] = condition{column + " >= ? AND " + column + " < ?", []any{s.From, s.To}}
	}
	return anyOf(conds)
}

// cellsCondition is the summary row's cell in one of the ranges.
func cellsCondition(cells []geo.CellRange) condition {
	conds := make([]condition, len(cells))
	for i, c := range cells {
		conds[i] = condition{"cell_row BETWEEN ? AND ? AND cell_col BETWEEN ? AND ?", []any{c.Row0, c.Row1, c.Col0, c.Col1}}
	}
	return anyOf(conds)
}

// addCond adds a condition.
func (q *query) addCond(c condition) { q.add(c.sql, c.args...) }

// gaps is what of r the spans (in order, within r) leave out.
func gaps(r span, spans []span) []span {
	var out []span
	at := r.From
	for _, s := range spans {
		if at.Before(s.From) {
			out = append(out, span{at, s.From})
		}
		if s.To.After(at) {
			at = s.To
		}
	}
	if at.Before(r.To) {
		out = append(out, span{at, r.To})
	}
	return out
}

func ceilSecond(t time.Time) time.Time {
	if s := t.Truncate(time.Second); s.Before(t) {
		return s.Add(time.Second)
	}
	return t
}

func ceilHour(t time.Time) time.Time { return ceilTo(t, time.Hour) }

// ceilTo rounds t up to a multiple of d (since the zero time: whole hours
// and days of UTC).
func ceilTo(t time.Time, d time.Duration) time.Time {
	if h := t.Truncate(d); h.Before(t) {
		return h.Add(d)
	}
	return t
}
