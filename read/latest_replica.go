package read

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"overwatch"
)

// LatestFeed is the latest-position store as the replica follows it: every
// row the store received at or after since (all rows for the zero time),
// and the store's own clock when the pass began.
type LatestFeed interface {
	LatestChanges(ctx context.Context, since time.Time, fn func(overwatch.LatestRow) error) (asOf time.Time, err error)
}

// ErrStale is returned by lookups when the replica has not heard from its
// store for longer than its staleness bound.
var ErrStale = errors.New("latest-position replica is stale")

// syncOverlap is how far before the previous pass each pass starts again:
// an insert stamped at time t (the store's clock when the insert began) may
// become visible only after a pass that began after t.
const syncOverlap = 3 * time.Second

// LatestReplica is an in-memory copy of the latest-position store, kept
// current by incremental passes over the rows the store received since
// shortly before the previous pass. The public lookup reads it instead of
// ClickHouse: a ClickHouse point query costs about a millisecond of server
// CPU (about 1,150 lookups/s on this machine), far from the thousands per
// second the public surface must serve. While the store cannot be reached
// for longer than maxStale, lookups fail, so a dead store is reported, not
// hidden.
//
// Rows are held without pointers (strings interned to numbers), so the
// garbage collector does not walk 400,000 rows on every cycle.
type LatestReplica struct {
	feed     LatestFeed
	maxStale time.Duration
	now      func() time.Time
	log      *slog.Logger

	mu       sync.RWMutex
	vessels  map[overwatch.IMO]int32 // index into slots
	slots    []latestSlots
	entries  []latestEntry
	strs     []string // interned strings; id 0 is unused
	strIDs   map[string]uint32
	lastPass time.Time // store clock at the start of the last successful pass
	synced   time.Time // local clock at the start of the last successful pass
}

// latestSlots holds one vessel's entry per source, indexed by sourceIndex:
// slot 0 for rows without a source, then one per named source. Values are
// entry index + 1; 0 is an empty slot.
type latestSlots [5]int32

// latestEntry is one row, pointer-free.
type latestEntry struct {
	ts, ingested                   int64 // unix seconds
	mmsi                           uint32
	has                            uint16 // which optional fields are set
	source                         uint8
	lat, lon, speed, course, draft float64
	name, vtype, flag, dest, nav   uint32 // interned string ids
}

const (
	hasLat uint16 = 1 << iota
	hasLon
	hasSpeed
	hasCourse
	hasDraft
	hasName
	hasType
	hasFlag
	hasDest
	hasNav
)

func sourceIndex(s overwatch.Source) int {
	for i, src := range overwatch.Sources {
		if src == s {
			return i + 1
		}
	}
	return 0
}

// NewLatestReplica returns an empty replica of feed. Lookups fail until the
// first pass succeeds.
func NewLatestReplica(feed LatestFeed, maxStale time.Duration, now func() time.Time, log *slog.Logger) *LatestReplica {
	return &LatestReplica{
		feed: feed, maxStale: maxStale, now: now, log: log,
		vessels: map[overwatch.IMO]int32{}, strs: []string{""}, strIDs: map[string]uint32{},
	}
}

// Sync runs one incremental pass.
func (r *LatestReplica) Sync(ctx context.Context) error {
	r.mu.RLock()
	since := r.lastPass
	r.mu.RUnlock()
	if !since.IsZero() {
		since = since.Add(-syncOverlap)
	}
	started := r.now()
	const chunk = 4096
	pending := make([]overwatch.LatestRow, 0, chunk)
	asOf, err := r.feed.LatestChanges(ctx, since, func(row overwatch.LatestRow) error {
		pending = append(pending, row)
		if len(pending) == chunk {
			r.apply(pending)
			pending = pending[:0]
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("latest replica: %w", err)
	}
	r.apply(pending)
	r.mu.Lock()
	r.lastPass, r.synced = asOf, started
	r.mu.Unlock()
	return nil
}

// apply merges rows in, keeping per vessel and source the row with the
// newest report time (the later ingested on a tie), as the store's
// ReplacingMergeTree does at merge.
func (r *LatestReplica) apply(rows []overwatch.LatestRow) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range rows {
		e := r.compact(&rows[i])
		vi, ok := r.vessels[rows[i].IMO]
		if !ok {
			vi = int32(len(r.slots))
			r.slots = append(r.slots, latestSlots{})
			r.vessels[rows[i].IMO] = vi
		}
		slot := &r.slots[vi][e.source]
		if *slot == 0 {
			r.entries = append(r.entries, e)
			*slot = int32(len(r.entries))
			continue
		}
		cur := &r.entries[*slot-1]
		if e.ts > cur.ts || (e.ts == cur.ts && e.ingested >= cur.ingested) {
			*cur = e
		}
	}
}

func (r *LatestReplica) intern(s *string) (uint32, bool) {
	if s == nil {
		return 0, false
	}
	id, ok := r.strIDs[*s]
	if !ok {
		id = uint32(len(r.strs))
		r.strs = append(r.strs, *s)
		r.strIDs[*s] = id
	}
	return id, true
}

func (r *LatestReplica) compact(row *overwatch.LatestRow) latestEntry {
	e := latestEntry{ts: row.TS.Unix(), ingested: row.IngestedAt.Unix(), mmsi: row.MMSI, source: uint8(sourceIndex(row.Source))}
	num := func(p *float64, bit uint16) float64 {
		if p == nil {
			return 0
		}
		e.has |= bit
		return *p
	}
	str := func(p *string, bit uint16) uint32 {
		id, ok := r.intern(p)
		if ok {
			e.has |= bit
		}
		return id
	}
	e.lat, e.lon = num(row.Lat, hasLat), num(row.Lon, hasLon)
	e.speed, e.course, e.draft = num(row.SpeedKt, hasSpeed), num(row.CourseDeg, hasCourse), num(row.DraftM, hasDraft)
	e.name, e.vtype, e.flag = str(row.VesselName, hasName), str(row.VesselType, hasType), str(row.Flag, hasFlag)
	e.dest, e.nav = str(row.Destination, hasDest), str(row.NavStatus, hasNav)
	return e
}

// expand turns an entry back into a row: its numbers point into one
// allocation without pointers, its strings into the interned strings
// (never written once appended, so they may be read after the lock is
// released).
func (r *LatestReplica) expand(imo overwatch.IMO, e *latestEntry) overwatch.LatestRow {
	v := &[5]float64{e.lat, e.lon, e.speed, e.course, e.draft}
	row := overwatch.LatestRow{IMO: imo, TS: time.Unix(e.ts, 0).UTC(), MMSI: e.mmsi, IngestedAt: time.Unix(e.ingested, 0).UTC()}
	if e.source > 0 {
		row.Source = overwatch.Sources[e.source-1]
	}
	pick := func(bit uint16, f *float64) *float64 {
		if e.has&bit == 0 {
			return nil
		}
		return f
	}
	pickS := func(bit uint16, id uint32) *string {
		if e.has&bit == 0 {
			return nil
		}
		return &r.strs[id]
	}
	row.Lat, row.Lon = pick(hasLat, &v[0]), pick(hasLon, &v[1])
	row.SpeedKt, row.CourseDeg, row.DraftM = pick(hasSpeed, &v[2]), pick(hasCourse, &v[3]), pick(hasDraft, &v[4])
	row.VesselName, row.VesselType, row.Flag = pickS(hasName, e.name), pickS(hasType, e.vtype), pickS(hasFlag, e.flag)
	row.Destination, row.NavStatus = pickS(hasDest, e.dest), pickS(hasNav, e.nav)
	return row
}

// Run keeps the replica current until ctx ends, one pass per interval.
func (r *LatestReplica) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	failing := false
	for {
		err := r.Sync(ctx)
		switch {
		case err != nil && ctx.Err() == nil && !failing:
			r.log.Error("latest-position sync failing", "err", err)
			failing = true
		case err == nil && failing:
			r.log.Info("latest-position sync recovered")
			failing = false
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Latest returns the newest row of the vessel from the source, or for
// overwatch.SourceAny the newest row across sources that has a position. It
// fails with ErrStale while the store is unreachable.
func (r *LatestReplica) Latest(_ context.Context, imo overwatch.IMO, src overwatch.Source) (overwatch.LatestRow, bool, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.synced.IsZero() || r.now().Sub(r.synced) > r.maxStale {
		return overwatch.LatestRow{}, false, ErrStale
	}
	vi, ok := r.vessels[imo]
	if !ok {
		return overwatch.LatestRow{}, false, nil
	}
	slots := &r.slots[vi]
	if src != overwatch.SourceAny {
		i := sourceIndex(src)
		if i == 0 || slots[i] == 0 {
			return overwatch.LatestRow{}, false, nil
		}
		return r.expand(imo, &r.entries[slots[i]-1]), true, nil
	}
	var best *latestEntry
	for _, idx := range slots {
		if idx == 0 {
			continue
		}
		e := &r.entries[idx-1]
		if e.has&(hasLat|hasLon) == hasLat|hasLon && (best == nil || e.ts > best.ts) {
			best = e
		}
	}
	if best == nil {
		return overwatch.LatestRow{}, false, nil
	}
	return r.expand(imo, best), true, nil
}

// Len returns how many vessels the replica holds.
func (r *LatestReplica) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.vessels)
}
