package read

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"sync"
	"time"
)

// The read cache keeps the answers of store queries between two
// derivations. ClickHouse takes 5-40 ms per query whatever its size, too
// much for an API whose every call would otherwise repeat the same few
// queries until the next job run.
//
// A query is cached explicitly, where its route is declared:
//
//	Cached(cache, "congestion_history", []string{"congestion_daily"}, store.CongestionHistory)
//
// An answer is kept per request, a comparable struct, for at most the
// cache's TTL and until one of the tables it reads gets a new version. The
// versions come from the store (TableVersions: the newest generation of
// each derived table, the imports) at most once per Check; a job that has
// just rewritten tables in this process calls Invalidate so that the next
// read checks at once. Requests carry their times cut to the minute
// (Minute), so that the calls within a minute share an answer. Concurrent
// misses of one request run the query once. Errors are not kept.

// TableVersions reports a version of each table the cached queries read:
// any change of a table's data changes its version.
type TableVersions interface {
	TableVersions(ctx context.Context) (map[string]uint64, error)
}

// CacheOptions bound the cache; zero fields take the defaults.
type CacheOptions struct {
	Check       time.Duration // how often the table versions are read (1 s)
	TTL         time.Duration // the longest an answer is kept (1 min)
	MaxBytes    int           // about how much the answers may hold (256 MB)
	LoadTimeout time.Duration // the longest a query may run (2 min)
}

// Cache keeps query answers; see the package's doc above. A nil *Cache
// caches nothing: Cached returns the query itself.
type Cache struct {
	store TableVersions
	opts  CacheOptions

	mu       sync.Mutex
	versions map[string]uint64
	checked  time.Time
	checking chan struct{} // closed when the check under way ends
	entries  map[any]*cacheEntry
	bytes    int
}

type cacheEntry struct {
	ready    chan struct{} // closed once val and err are set
	val      any
	err      error
	bytes    int
	versions []uint64 // of the query's tables when it was loaded
	at       time.Time
}

// NewCache returns a cache whose versions come from store.
func NewCache(store TableVersions, opts CacheOptions) *Cache {
	if opts.Check <= 0 {
		opts.Check = time.Second
	}
	if opts.TTL <= 0 {
		opts.TTL = time.Minute
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 256 << 20
	}
	if opts.LoadTimeout <= 0 {
		opts.LoadTimeout = 2 * time.Minute
	}
	return &Cache{store: store, opts: opts, entries: map[any]*cacheEntry{}}
}

// Invalidate makes the next read check the table versions at once: this
// process has just rewritten the tables (other processes' writes are
// noticed within Check).
func (c *Cache) Invalidate(tables ...string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.checked = time.Time{}
	c.mu.Unlock()
}

// Minute cuts a request's time to the minute, the grain at which the live
// figures of cached queries are computed.
func Minute(t time.Time) time.Time { return t.UTC().Truncate(time.Minute) }

// cacheKey is an entry's key: the query's name and its request.
type cacheKey[K comparable] struct {
	query string
	req   K
}

// Cached returns q answered through the cache: name names the query (one
// name per query), tables are the tables it reads.
func Cached[K comparable, V any](c *Cache, name string, tables []string, q func(context.Context, K) (V, error)) func(context.Context, K) (V, error) {
	if c == nil {
		return q
	}
	return func(ctx context.Context, req K) (V, error) {
		var zero V
		versions, err := c.tableVersions(ctx, tables)
		if err != nil {
			return zero, err
		}
		v, err := c.get(ctx, cacheKey[K]{name, req}, versions, func() (any, int, error) {
			// Every caller waiting for this answer shares the load: it
			// runs on its own clock, not on the first caller's, whose
			// going away must not fail the others.
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.opts.LoadTimeout)
			defer cancel()
			v, err := q(lctx, req)
			if err != nil {
				return v, 0, err
			}
			return v, sizeOf(v), nil
		})
		if err != nil {
			return zero, err
		}
		return v.(V), nil
	}
}

// tableVersions returns the versions of the tables, reading them from the
// store at most once per Check; concurrent callers wait for one read.
func (c *Cache) tableVersions(ctx context.Context, tables []string) ([]uint64, error) {
	c.mu.Lock()
	for time.Since(c.checked) >= c.opts.Check && c.checking != nil {
		wait := c.checking
		c.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		c.mu.Lock()
	}
	if time.Since(c.checked) >= c.opts.Check {
		done := make(chan struct{})
		c.checking = done
		c.mu.Unlock()
		versions, err := c.store.TableVersions(ctx)
		c.mu.Lock()
		c.checking = nil
		close(done)
		if err != nil {
			c.mu.Unlock()
			return nil, fmt.Errorf("read cache: table versions: %w", err)
		}
		c.versions, c.checked = maps.Clone(versions), time.Now()
	}
	out := make([]uint64, len(tables))
	for i, t := range tables {
		out[i] = c.versions[t]
	}
	c.mu.Unlock()
	return out, nil
}

// get answers key from its entry when that is current, else loads it.
func (c *Cache) get(ctx context.Context, key any, versions []uint64, load func() (any, int, error)) (any, error) {
	c.mu.Lock()
	e := c.entries[key]
	if e != nil && (!equalVersions(e.versions, versions) || time.Since(e.at) > c.opts.TTL) {
		select {
		case <-e.ready: // a finished stale answer: load again
			c.bytes -= e.bytes
			delete(c.entries, key)
			e = nil
		default: // being loaded: share it
		}
	}
	if e == nil {
		e = &cacheEntry{ready: make(chan struct{}), versions: versions, at: time.Now()}
		c.entries[key] = e
		c.mu.Unlock()
		v, n, err := load()
		c.mu.Lock()
		e.val, e.err = v, err
		if err == nil {
			e.bytes = max(n, 1)
			c.bytes += e.bytes
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
		return nil, ctx.Err()
	}
	return e.val, e.err
}

// evict drops the oldest finished answers while the cache holds too much.
// Called with mu held.
func (c *Cache) evict() {
	for c.bytes > c.opts.MaxBytes {
		var oldest any
		var at time.Time
		for k, e := range c.entries {
			select {
			case <-e.ready:
				if oldest == nil || e.at.Before(at) {
					oldest, at = k, e.at
				}
			default:
			}
		}
		if oldest == nil {
			return
		}
		c.bytes -= c.entries[oldest].bytes
		delete(c.entries, oldest)
	}
}

func equalVersions(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sizeOf is about how many bytes an answer holds: a slice's elements, or
// the value itself (pointed-to data, such as strings, is not counted). An
// answer may say better by implementing Size.
func sizeOf(v any) int {
	if s, ok := v.(interface{ Size() int }); ok {
		return s.Size()
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice:
		return rv.Len() * int(rv.Type().Elem().Size())
	case reflect.Invalid:
		return 0
	}
	return int(rv.Type().Size())
}
