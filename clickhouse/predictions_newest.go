package clickhouse

import (
	"context"
	"fmt"
	"sync"
	"time"

	"overwatch"
	"overwatch/maritime/predict"
	"overwatch/read"
)

// newestCheck is how often a lookup asks the store for the newest
// refresh's time: a new refresh is served a few seconds after it lands,
// whichever process wrote it.
const newestCheck = 2 * time.Second

// newestPredictions holds the newest refresh's predictions by vessel, so
// that one vessel's prediction (GET /v1/vessels/{imo}/prediction) is a
// map lookup. Read from the store, it is a granule of the predictions
// table: 8,192 rows of JSON decompressed for one (about 50 ms on a
// 20,000-vessel fleet, where the lookup's p99 target is 20 ms). The first
// lookup reads the refresh; after that, a lookup that finds the newest
// time unasked for newestCheck asks in the background and reads a new
// refresh there (once every ten minutes on the schedule) while the
// lookups go on answering from the one held.
type newestPredictions struct {
	mu      sync.Mutex
	checked time.Time // when the newest refresh's time was last asked (zero: ask)
	loading bool      // a background check or read is running
	batch   time.Time // the refresh held
	byIMO   map[overwatch.IMO]predict.Prediction
}

// lookup is the vessel's prediction in the newest refresh, ok false when
// it has none.
func (n *newestPredictions) lookup(ctx context.Context, db *DB, imo overwatch.IMO) (predict.Prediction, bool, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case n.byIMO == nil: // the first: read it now (concurrent first lookups wait for this one read)
		batch, byIMO, err := n.read(ctx, db, time.Time{}, false)
		if err != nil {
			return predict.Prediction{}, false, err
		}
		n.batch, n.byIMO, n.checked = batch, byIMO, time.Now()
	case !n.loading && time.Since(n.checked) >= newestCheck:
		n.loading, n.checked = true, time.Now()
		go n.update(db, n.batch)
	}
	p, ok := n.byIMO[imo]
	return p, ok, nil
}

// update asks for the newest refresh's time and reads the refresh when it
// is not the one held; on an error the held one stays, asked again after
// newestCheck.
func (n *newestPredictions) update(db *DB, held time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	batch, byIMO, err := n.read(ctx, db, held, true)
	n.mu.Lock()
	defer n.mu.Unlock()
	n.loading = false
	if err == nil && byIMO != nil {
		n.batch, n.byIMO = batch, byIMO
	}
}

// read is the newest refresh's time and, unless it is held (and
// onlyNew), its predictions by vessel.
func (n *newestPredictions) read(ctx context.Context, db *DB, held time.Time, onlyNew bool) (time.Time, map[overwatch.IMO]predict.Prediction, error) {
	var newest time.Time
	if err := db.conn.QueryRow(ctx, `SELECT max(computed_at) FROM predictions`).Scan(&newest); err != nil {
		return time.Time{}, nil, fmt.Errorf("clickhouse: predictions: %w", err)
	}
	if onlyNew && newest.Equal(held) {
		return held, nil, nil
	}
	preds, err := db.predictions(ctx, read.PredictionFilter{Before: newest.Add(time.Second)})
	if err != nil {
		return time.Time{}, nil, err
	}
	byIMO := make(map[overwatch.IMO]predict.Prediction, len(preds))
	for _, p := range preds {
		byIMO[p.IMO] = p
	}
	return newest, byIMO, nil
}

// recheck makes the next lookup ask for the newest refresh.
func (n *newestPredictions) recheck() {
	n.mu.Lock()
	n.checked = time.Time{}
	n.mu.Unlock()
}
