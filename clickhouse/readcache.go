package clickhouse

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// The analytics reads are answered from a cache in front of the derived
// tables: ClickHouse takes 5–20 ms per query whatever its size, too much
// for an API whose every call would otherwise repeat the same few queries
// between two derivations. An answer is kept until a new generation of
// any derived table is recorded (derivation_days' newest generation is
// checked at most once per ReadCacheCheck), or an import lands, and for at
// most ReadCacheTTL; times in a query are cut to the minute, so the live
// figures (waiting now, arrivals in the last 24 h) are as of the minute.
// Concurrent misses of one query run it once. The cache holds at most
// ReadCacheRows rows; beyond that the oldest answers go first.
const (
	ReadCacheCheck = time.Second
	ReadCacheTTL   = time.Minute
	ReadCacheRows  = 500_000
)

type readCache struct {
	mu       sync.Mutex
	version  uint64
	checked  time.Time
	checking chan struct{} // closed when the check under way ends
	entries  map[string]*cacheEntry
	rows     int
}

type cacheEntry struct {
	ready   chan struct{} // closed once val/err are set
	val     any
	err     error
	rows    int
	version uint64
	at      time.Time
}

// cacheVersion returns the derived tables' version (from the newest
// recorded generation, the number recorded, and the same of the imports), checking it at most once per
// ReadCacheCheck; concurrent callers wait for one check.
func (db *DB) cacheVersion(ctx context.Context) (uint64, error) {
	c := &db.cache
	c.mu.Lock()
	for {
		if time.Since(c.checked) < ReadCacheCheck {
			v := c.version
			c.mu.Unlock()
			return v, nil
		}
		if c.checking == nil {
			break
		}
		wait := c.checking
		c.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		c.mu.Lock()
	}
	done := make(chan struct{})
	c.checking = done
	c.mu.Unlock()
	var gen, n, actuals uint64
	var imported time.Time
	err := db.conn.QueryRow(ctx, `SELECT (SELECT max(gen) FROM derivation_days), (SELECT count() FROM derivation_days),
		(SELECT max(imported_at) FROM export_actuals), (SELECT count() FROM export_actuals)`).Scan(&gen, &n, &imported, &actuals)
	c.mu.Lock()
	c.checking = nil
	close(done)
	if err == nil {
		c.version, c.checked = gen^(n<<48)^(actuals<<32)^uint64(imported.Unix()), time.Now()
	}
	v := c.version
	c.mu.Unlock()
	if err != nil {
		return 0, fmt.Errorf("clickhouse: derived version: %w", err)
	}
	return v, nil
}

// cached answers the query named by key from the cache, or runs load.
func cached[T any](ctx context.Context, db *DB, key string, size func(T) int, load func() (T, error)) (T, error) {
	var zero T
	version, err := db.cacheVersion(ctx)
	if err != nil {
		return zero, err
	}
	c := &db.cache
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*cacheEntry{}
	}
	e := c.entries[key]
	if e != nil && (e.version != version || time.Since(e.at) > ReadCacheTTL) {
		select {
		case <-e.ready: // a finished stale answer: load again
			c.rows -= e.rows
			delete(c.entries, key)
			e = nil
		default: // being loaded: share it
		}
	}
	if e == nil {
		e = &cacheEntry{ready: make(chan struct{}), version: version, at: time.Now()}
		c.entries[key] = e
		c.mu.Unlock()
		v, err := load()
		c.mu.Lock()
		e.val, e.err = v, err
		if err == nil {
			e.rows = max(1, size(v))
			c.rows += e.rows
			c.evict()
		} else {
			delete(c.entries, key) // errors are not kept
		}
		close(e.ready)
		c.mu.Unlock()
		return v, err
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
	case <-ctx.Done():
		return zero, ctx.Err()
	}
	if e.err != nil {
		return zero, e.err
	}
	return e.val.(T), nil
}

// evict drops the oldest finished answers while the cache holds too many
// rows. Called with mu held.
func (c *readCache) evict() {
	for c.rows > ReadCacheRows {
		var oldest string
		var at time.Time
		for k, e := range c.entries {
			select {
			case <-e.ready:
				if oldest == "" || e.at.Before(at) {
					oldest, at = k, e.at
				}
			default:
			}
		}
		if oldest == "" {
			return
		}
		c.rows -= c.entries[oldest].rows
		delete(c.entries, oldest)
	}
}

// changed makes the next read check the version at once: this process
// has just written to the derived tables (other processes' writes are
// noticed within ReadCacheCheck).
func (c *readCache) changed() {
	c.mu.Lock()
	c.checked = time.Time{}
	c.mu.Unlock()
}

// minute cuts a query time to the minute (see the cache's doc).
func minute(t time.Time) time.Time { return t.UTC().Truncate(time.Minute) }

func sliceLen[T any](v []T) int { return len(v) }
