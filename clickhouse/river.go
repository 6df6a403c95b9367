package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/maritime/river"
	"overwatch/read"
)

var _ read.RiverStore = (*DB)(nil)

// InsertRiverReadings writes the readings of one fetch as one batch; a
// reading fetched again replaces the earlier fetch.
func (db *DB) InsertRiverReadings(ctx context.Context, rows []river.Reading) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "river_readings", "site, parameter, time, value, qualifiers, source, fetched_at",
		func(add func(...any) error) error {
			for _, r := range rows {
				q := r.Qualifiers
				if q == nil {
					q = []string{}
				}
				if err := add(r.Site, r.Parameter, r.Time.UTC(), r.Value, q, r.Source, now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert river readings: %w", err)
	}
	return nil
}

// LogRiverFetch records one fetch of the river job.
func (db *DB) LogRiverFetch(ctx context.Context, f river.Fetch) error {
	ok := uint8(0)
	if f.OK {
		ok = 1
	}
	err := db.derivedBatch(ctx, "river_fetches", "fetched_at, seq, url, ok, readings, error", func(add func(...any) error) error {
		return add(f.At.UTC(), uint64(max(f.At.UnixNano(), 0)), f.URL, ok, uint32(max(f.Readings, 0)), f.Error)
	})
	if err != nil {
		return fmt.Errorf("clickhouse: log river fetch: %w", err)
	}
	return nil
}

// RiverLevels implements read.RiverStore (and the river alert source's
// store): the gauge-height readings at or after since, of every site,
// oldest first.
func (db *DB) RiverLevels(ctx context.Context, since time.Time) ([]river.Reading, error) {
	var out []river.Reading
	err := db.scanAll(ctx, "river readings", `SELECT site, parameter, time, value, qualifiers, source
		FROM river_readings FINAL WHERE parameter = ? AND time >= ? ORDER BY site, time`, []any{river.ParamGageHeight, since.UTC()},
		func(rows interface{ Scan(...any) error }) error {
			var r river.Reading
			if err := rows.Scan(&r.Site, &r.Parameter, &r.Time, &r.Value, &r.Qualifiers, &r.Source); err != nil {
				return err
			}
			r.Time = r.Time.UTC()
			out = append(out, r)
			return nil
		})
	return out, err
}

// RiverFetchLog implements read.RiverStore: the last fetch, the last
// that succeeded and the failures since (counted among the last 1,000
// fetches).
func (db *DB) RiverFetchLog(ctx context.Context) (river.FetchLog, error) {
	var l river.FetchLog
	scan := func(sql string, each func(river.Fetch) bool) error {
		stop := false
		return db.scanAll(ctx, "river fetches", sql, nil, func(rows interface{ Scan(...any) error }) error {
			var f river.Fetch
			var ok uint8
			var n uint32
			if err := rows.Scan(&f.At, &f.URL, &ok, &n, &f.Error); err != nil {
				return err
			}
			f.OK, f.Readings, f.At = ok == 1, int(n), f.At.UTC()
			if !stop {
				stop = !each(f)
			}
			return nil
		})
	}
	const cols = `SELECT fetched_at, url, ok, readings, error FROM river_fetches `
	first := true
	err := scan(cols+`ORDER BY seq DESC LIMIT 1000`, func(f river.Fetch) bool {
		if first {
			l.Last, first = f, false
		}
		if f.OK {
			return false
		}
		l.FailuresSince++
		return true
	})
	if err != nil {
		return l, err
	}
	err = scan(cols+`WHERE ok = 1 ORDER BY seq DESC LIMIT 1`, func(f river.Fetch) bool { l.LastOK = f; return false })
	return l, err
}
