package read

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"overwatch/maritime/emissions"
)

// emissionsMemoSize is how many computed answers (a store answer with one
// set of overrides) a handler keeps.
const emissionsMemoSize = 8

// emissionsMemo keeps, per store answer and overrides, the voyages as
// computed (recomputed with the overrides), their fleet totals and their
// groups, so that the pages of a query cost a page, not the whole set.
// The store hands out the same slice for the same query until its data
// changes (its read cache); a new slice is a new key. An entry holds its
// slice, so that the slice's address is not reused while it is a key.
type emissionsMemo struct {
	mu      sync.Mutex
	entries map[memoKey]*memoEntry
}

type memoKey struct {
	first     *StoredVoyage
	n         int
	fuel      emissions.FuelType
	dist, spd float64
}

type memoEntry struct {
	stored []StoredVoyage
	ready  chan struct{}
	set    voyageSet
	fleet  emissions.Totals
	groups map[emissions.GroupBy][]byte // JSON, guarded by the memo's mu
	rows   []atomic.Pointer[[]byte]     // each voyage's JSON, once encoded
	err    error
	at     time.Time
}

// computed returns the voyages of stored with p's overrides and their
// fleet totals, computing them once per (stored, overrides).
func (m *emissionsMemo) computed(stored []StoredVoyage, p *emissionsParams) (*memoEntry, error) {
	k := memoKey{n: len(stored), fuel: p.overrides.Fuel, dist: p.overrides.DistanceNM, spd: p.overrides.SpeedKnots}
	if len(stored) > 0 {
		k.first = &stored[0]
	}
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[memoKey]*memoEntry{}
	}
	e, ok := m.entries[k]
	if !ok {
		e = &memoEntry{stored: stored, ready: make(chan struct{}), groups: map[emissions.GroupBy][]byte{},
			rows: make([]atomic.Pointer[[]byte], len(stored)), at: time.Now()}
		m.entries[k] = e
		m.evict(k)
		m.mu.Unlock()
		e.set, e.err = computeVoyages(stored, p)
		if e.err == nil {
			e.fleet = totalRows(&e.set)
		}
		close(e.ready)
		if e.err != nil {
			m.mu.Lock()
			delete(m.entries, k)
			m.mu.Unlock()
		}
		return e, e.err
	}
	m.mu.Unlock()
	<-e.ready
	return e, e.err
}

// groupedJSON returns the entry's groups by g as JSON, computed once.
func (m *emissionsMemo) groupedJSON(e *memoEntry, g emissions.GroupBy) ([]byte, error) {
	m.mu.Lock()
	b, ok := e.groups[g]
	m.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := json.Marshal(groupRows(&e.set, g))
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	e.groups[g] = b
	m.mu.Unlock()
	return b, nil
}

// voyageJSON returns voyage i of the entry as an EmissionsVoyage in JSON,
// encoded once (concurrent first calls may both encode it: same bytes).
func (e *memoEntry) voyageJSON(i int) ([]byte, error) {
	if b := e.rows[i].Load(); b != nil {
		return *b, nil
	}
	b, err := json.Marshal(EmissionsVoyage{ID: e.set.id(i), Voyage: *e.set.At(i)})
	if err != nil {
		return nil, err
	}
	e.rows[i].Store(&b)
	return b, nil
}

// evict drops the oldest entries beyond emissionsMemoSize, never keep.
// Called with mu held.
func (m *emissionsMemo) evict(keep memoKey) {
	for len(m.entries) > emissionsMemoSize {
		var oldest memoKey
		var at time.Time
		found := false
		for k, e := range m.entries {
			if k != keep && (!found || e.at.Before(at)) {
				oldest, at, found = k, e.at, true
			}
		}
		if !found {
			return
		}
		delete(m.entries, oldest)
	}
}
