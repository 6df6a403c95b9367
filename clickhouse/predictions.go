package clickhouse

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"overwatch"
	"overwatch/jobs"
	"overwatch/maritime/portcall"
	"overwatch/maritime/predict"
	"overwatch/maritime/vessel"
	"overwatch/read"
)

var (
	_ predict.Source       = (*DB)(nil)
	_ jobs.PredictionStore = (*DB)(nil)
	_ read.PredictionStore = (*DB)(nil)
)

// PredictionCalls implements predict.Source: the current port calls.
func (db *DB) PredictionCalls(ctx context.Context, from, to time.Time) ([]portcall.Call, error) {
	return db.Calls(ctx, from, to)
}

// PredictionTracks implements predict.Source: each vessel's fixes in
// [from, to), one per second (the providers' duplicates of a fix
// collapsed), with the time, position and speed the predictor reads. See
// predictionTracks.
func (db *DB) PredictionTracks(ctx context.Context, from, to time.Time, only []overwatch.IMO, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error {
	return predictionTracks(ctx, db, from, to, only, fn)
}

// Declarations implements predict.Source: each vessel's newest non-empty
// destination and the ETA reported with it, from the static reports in
// [from, to).
func (db *DB) Declarations(ctx context.Context, from, to time.Time, only []overwatch.IMO) (map[overwatch.IMO]predict.Declaration, error) {
	filter := ""
	if only != nil {
		if len(only) == 0 {
			return map[overwatch.IMO]predict.Declaration{}, nil
		}
		filter = " AND imo IN (" + uintList(only) + ")"
	}
	out := map[overwatch.IMO]predict.Declaration{}
	// the ETA as seconds, 0 for none: argMax skips NULLs, which would give a
	// newer destination an older report's ETA
	err := db.scanAll(ctx, "declarations", `SELECT imo, argMax(destination, ts), argMax(ifNull(toUInt32(eta), 0), ts)
		FROM static_reports WHERE imo != 0 AND destination != '' AND ts >= ? AND ts < ?`+filter+`
		GROUP BY imo`, []any{from.UTC(), to.UTC()}, func(rows interface{ Scan(...any) error }) error {
		var imo, eta uint32
		var d predict.Declaration
		if err := rows.Scan(&imo, &d.Destination, &eta); err != nil {
			return err
		}
		if eta != 0 {
			t := time.Unix(int64(eta), 0).UTC()
			d.ETA = &t
		}
		out[overwatch.IMO(imo)] = d
		return nil
	})
	return out, err
}

// PredictionSpan implements read.PredictionStore: the stored positions'
// span, the range an as_of may take.
func (db *DB) PredictionSpan(ctx context.Context) (time.Time, time.Time, error) {
	return db.DataSpan(ctx)
}

// WritePredictions implements jobs.PredictionStore: one row per
// prediction, all stamped computedAt.
func (db *DB) WritePredictions(ctx context.Context, computedAt time.Time, preds []predict.Prediction) error {
	if len(preds) == 0 {
		return nil
	}
	defer db.newest.recheck()
	return db.sendRetrying(ctx, `INSERT INTO predictions (imo, computed_at, as_of, category, lat, lon, port, eta, next_ports, evidence)`,
		func(b sendBatch) error {
			for _, p := range preds {
				next, err := json.Marshal(p.Next)
				if err != nil {
					return err
				}
				ev, err := json.Marshal(p.Evidence)
				if err != nil {
					return err
				}
				top := p.Next[0]
				if err := b.Append(uint32(p.IMO), computedAt.UTC(), p.AsOf.UTC(), p.Category, p.Evidence.Position[0],
					p.Evidence.Position[1], top.Port, top.ETA.UTC(), string(next), string(ev)); err != nil {
					return err
				}
			}
			return nil
		})
}

// Predictions implements jobs.PredictionStore and read.PredictionStore:
// the predictions of the newest refresh (of the newest before f.Before
// when it is set) that pass the filter, in IMO order.
func (db *DB) Predictions(ctx context.Context, f read.PredictionFilter) ([]predict.Prediction, error) {
	if f.IMO != 0 && f.Limit <= 1 && f == (read.PredictionFilter{IMO: f.IMO, Limit: f.Limit}) { // one vessel's newest: a lookup
		p, ok, err := db.newest.lookup(ctx, db, f.IMO)
		if err != nil || !ok {
			return nil, err
		}
		return []predict.Prediction{p}, nil
	}
	return db.predictions(ctx, f)
}

// predictions is Predictions read from the store.
func (db *DB) predictions(ctx context.Context, f read.PredictionFilter) ([]predict.Prediction, error) {
	batch := `(SELECT max(computed_at) FROM predictions)`
	var args []any
	if !f.Before.IsZero() {
		batch = `(SELECT max(computed_at) FROM predictions WHERE computed_at < ?)`
		args = append(args, f.Before.UTC())
	}
	q := (&query{}).add("computed_at = "+batch, args...)
	if f.IMO != 0 {
		q.add("imo = ?", uint32(f.IMO))
	}
	if f.Cursor != 0 {
		q.add("imo > ?", uint32(f.Cursor))
	}
	if f.Category != "" {
		q.add("category = ?", f.Category)
	}
	if f.Port != "" {
		q.add("port = ?", f.Port)
	}
	if b := f.BBox; b != nil {
		q.add("lon >= ? AND lat >= ? AND lon <= ? AND lat <= ?", b[0], b[1], b[2], b[3])
	}
	sql := `SELECT imo, computed_at, as_of, category, next_ports, evidence FROM predictions WHERE ` + q.String() +
		` ORDER BY imo LIMIT 1 BY imo`
	if f.Limit > 0 {
		sql += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	var out []predict.Prediction
	err := db.scanAll(ctx, "predictions", sql, q.args, func(rows interface{ Scan(...any) error }) error {
		var (
			imo            uint32
			computed, asOf time.Time
			p              predict.Prediction
			next, ev       string
		)
		if err := rows.Scan(&imo, &computed, &asOf, &p.Category, &next, &ev); err != nil {
			return err
		}
		p.IMO, p.AsOf = overwatch.IMO(imo), asOf.UTC()
		if err := json.Unmarshal([]byte(next), &p.Next); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(ev), &p.Evidence); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// PredictionRefreshes implements jobs.PredictionRefreshes: the newest
// refresh's time and rows, and the rows of the refresh before it.
func (db *DB) PredictionRefreshes(ctx context.Context) (time.Time, []predict.Prediction, []predict.Prediction, error) {
	var n uint64
	var newest time.Time
	if err := db.conn.QueryRow(ctx, `SELECT count(), max(computed_at) FROM predictions`).Scan(&n, &newest); err != nil {
		return time.Time{}, nil, nil, fmt.Errorf("clickhouse: prediction refreshes: %w", err)
	}
	if n == 0 {
		return time.Time{}, nil, nil, nil
	}
	cur, err := db.Predictions(ctx, read.PredictionFilter{Before: newest.Add(time.Second)})
	if err != nil {
		return time.Time{}, nil, nil, err
	}
	prev, err := db.Predictions(ctx, read.PredictionFilter{Before: newest})
	return newest.UTC(), cur, prev, err
}

// OldestPrediction implements jobs.PredictionStore.
func (db *DB) OldestPrediction(ctx context.Context) (time.Time, error) {
	var n uint64
	var oldest time.Time
	if err := db.conn.QueryRow(ctx, `SELECT count(), min(computed_at) FROM predictions`).Scan(&n, &oldest); err != nil {
		return time.Time{}, fmt.Errorf("clickhouse: oldest prediction: %w", err)
	}
	if n == 0 {
		return time.Time{}, nil
	}
	return oldest.UTC(), nil
}

// PurgePredictions implements jobs.PredictionStore: a mutation deleting
// the refreshes computed before the instant (ALTER TABLE ... DELETE, which
// ClickHouse 18.16 and later accept; the table's TTL clause would need
// 19.6), the newest refresh kept whatever its age.
func (db *DB) PurgePredictions(ctx context.Context, before time.Time) error {
	var n uint64
	var newest time.Time
	if err := db.conn.QueryRow(ctx, `SELECT count(), max(computed_at) FROM predictions`).Scan(&n, &newest); err != nil {
		return fmt.Errorf("clickhouse: purge predictions: %w", err)
	}
	if n == 0 {
		return nil
	}
	if newest.Before(before) {
		before = newest
	}
	defer db.newest.recheck()
	if err := db.conn.Exec(ctx, `ALTER TABLE predictions DELETE WHERE computed_at < ?`, before.UTC()); err != nil {
		return fmt.Errorf("clickhouse: purge predictions: %w", err)
	}
	return nil
}
