package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/jobs"
)

var _ jobs.PresenceStore = (*DB)(nil)

// presenceCell is the grid cell of a position row (maritime/geo.CellOf),
// as the summary stores it and the reads test it.
const presenceCell = `least(toInt16(floor(lat)) + 90, 179) AS cell_row, least(toInt16(floor(lon)) + 180, 359) AS cell_col`

// presenceLevels are the lengths of the summary's rows, in hours: the
// hour (with the fixes), the 6-hour block and the day, so that a range of
// days reads a row per vessel and cell for each whole day and block, not
// one for each hour.
var presenceLevels = []int{1, 6, 24}

// presenceSlice is the part of a day the summary's hours are written
// from at a time (whole hours).
const presenceSlice = 3 * time.Hour

// WritePresence implements jobs.PresenceStore: for each day, an INSERT ...
// SELECT on the server summarising the day's positions before through by
// hour, grid cell and vessel, each stored report once (a retried write not
// yet merged away is one fix, as AreaPresence counts them), with the
// fixes in time order for the reads of border cells and partial hours;
// then the whole 6-hour blocks and the whole day summed from the hours;
// then the days' reach in presence_days and their generation in
// derivation_days.
func (db *DB) WritePresence(ctx context.Context, gen uint64, days []time.Time, through time.Time) error {
	counts := map[time.Time]uint64{}
	reach := make([]time.Time, len(days))
	for i, d := range days {
		d = d.UTC()
		end := d.Add(24 * time.Hour)
		if through.Before(end) {
			end = through.UTC()
		}
		reach[i] = end
		// The fixes of each hour, cell and vessel sorted by time (ties
		// by arrival in the group), the three arrays by one key; a slice
		// of whole hours of the day at a time, spilling to disk past
		// spillBytes, so that a day of the world fleet (1.6 billion
		// positions) is not one GROUP BY.
		for a := d; a.Before(end); a = a.Add(presenceSlice) {
			b := a.Add(presenceSlice)
			if end.Before(b) {
				b = end
			}
			err := db.conn.Exec(spillToDisk(ctx), `INSERT INTO presence_hourly (day, gen, level, hour, cell_row, cell_col, imo, fixes,
		       first_ts, first_lat, first_lon, last_ts, last_lat, last_lon, fix_ts, fix_lat, fix_lon)
		SELECT toDate(?), toUInt64(?), toUInt8(1), hour, cell_row, cell_col, imo, length(k),
		       s_ts[1], s_lat[1], s_lon[1], s_ts[-1], s_lat[-1], s_lon[-1], s_ts, s_lat, s_lon
		  FROM (SELECT hour, cell_row, cell_col, imo, k, arraySort((x, y) -> y, t, k) AS s_ts,
		               arraySort((x, y) -> y, la, k) AS s_lat, arraySort((x, y) -> y, lo, k) AS s_lon
		          FROM (SELECT toStartOfHour(ts) AS hour, `+presenceCell+`, imo,
		                       groupArray(ts) AS t, groupArray(lat) AS la, groupArray(lon) AS lo,
		                       arrayMap((x, i) -> toUInt64(x) * 65536 + i, t, arrayEnumerate(t)) AS k
		                  FROM (SELECT imo, ts, any(lat) AS lat, any(lon) AS lon FROM positions
		                         WHERE ts >= ? AND ts < ? AND imo != 0 GROUP BY imo, ts, dedup_key)
		                 GROUP BY hour, cell_row, cell_col, imo))`, date(d), gen, a, b)
			if err != nil {
				return fmt.Errorf("clickhouse: presence of %s: %w", a.Format(time.DateTime), err)
			}
		}
		for _, level := range presenceLevels[1:] {
			size := time.Duration(level) * time.Hour
			whole := d.Add(end.Sub(d).Truncate(size)) // the blocks ending by the reach
			if !whole.After(d) {
				continue
			}
			err := db.conn.Exec(ctx, `INSERT INTO presence_hourly (day, gen, level, hour, cell_row, cell_col, imo, fixes,
			       first_ts, first_lat, first_lon, last_ts, last_lat, last_lon)
			SELECT day, gen, toUInt8(?), toDateTime(intDiv(toUInt32(hour), ?) * ?, 'UTC') AS block, cell_row, cell_col, imo, sum(fixes),
			       min(first_ts), argMin(first_lat, first_ts), argMin(first_lon, first_ts),
			       max(last_ts), argMax(last_lat, last_ts), argMax(last_lon, last_ts)
			  FROM presence_hourly
			 WHERE day = toDate(?) AND gen = ? AND level = 1 AND hour < ?
			 GROUP BY day, gen, block, cell_row, cell_col, imo`, level, level*3600, level*3600, date(d), gen, whole)
			if err != nil {
				return fmt.Errorf("clickhouse: presence of %s by %d hours: %w", d.Format(time.DateOnly), level, err)
			}
		}
		counts[d] = 1
	}
	err := db.derivedBatch(ctx, "presence_days", "day, gen, through", func(add func(...any) error) error {
		for i, d := range days {
			if err := add(d.UTC(), gen, reach[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return db.recordDerivation(ctx, "presence_hourly", gen, days, counts)
}

// span is a time range [From, To).
type span struct{ From, To time.Time }

// presenceReach returns the spans of [from, to) the summary holds (of
// each summarised day, from its start to its reach, within the range,
// adjacent ones merged) and the condition that selects the current
// generation of those days in presence_hourly, day by day (a condition the
// table's index narrows, where a subquery on derivation_days would not).
func (db *DB) presenceReach(ctx context.Context, from, to time.Time) ([]span, condition, error) {
	var spans []span
	var gens []condition
	err := db.scanAll(ctx, "presence reach", `SELECT day, gen, through FROM presence_days
		WHERE day >= toDate(?) AND day <= toDate(?) AND `+current("presence_hourly")+` ORDER BY day`,
		[]any{date(from), date(to)}, func(rows interface{ Scan(...any) error }) error {
			var day, through time.Time
			var gen uint64
			if err := rows.Scan(&day, &gen, &through); err != nil {
				return err
			}
			a, b := from, to // the day's reach, within the range
			if day.After(a) {
				a = day.UTC()
			}
			if through.Before(b) {
				b = through.UTC()
			}
			if !a.Before(b) {
				return nil
			}
			gens = append(gens, condition{"day = toDate(?) AND gen = ?", []any{date(day), gen}})
			if n := len(spans); n > 0 && spans[n-1].To.Equal(a) {
				spans[n-1].To = b
			} else {
				spans = append(spans, span{a, b})
			}
			return nil
		})
	return spans, anyOf(gens), err
}
