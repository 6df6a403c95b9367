package read

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"overwatch/maritime/emissions"
)

// emissionsRequest is a query of the emissions endpoints as they compute
// it: the stored voyages of a filter, recomputed with the caller's
// assumptions when any is given.
type emissionsRequest struct {
	Filter     EmissionsFilter
	Fuel       emissions.FuelType
	DistanceNM float64
	SpeedKnots float64
}

// override reports whether the request recomputes the voyages.
func (r emissionsRequest) override() bool {
	return r.Fuel != "" || r.DistanceNM > 0 || r.SpeedKnots > 0
}

// computedVoyages is an emissions query's answer as computed once and kept
// by the read cache: the voyages (stored, or recomputed with the
// overrides), their fleet totals, and, encoded on first use, their groups
// and each voyage's JSON, so that the pages of a query cost a page, not the
// whole set.
type computedVoyages struct {
	set   voyageSet
	fleet emissions.Totals

	mu     sync.Mutex
	groups map[emissions.GroupBy][]byte // JSON
	rows   []atomic.Pointer[[]byte]     // each voyage's JSON, once encoded
}

// Size is about how many bytes the answer holds (a voyage and its JSON
// come to about 2 kB), for the read cache's bound.
func (e *computedVoyages) Size() int { return 2048 * e.set.Len() }

// computeEmissions reads the stored voyages of the request (their inputs
// too when it overrides) and computes its answer.
func computeEmissions(stored Query[EmissionsVoyagesRequest, []StoredVoyage]) Query[emissionsRequest, *computedVoyages] {
	return func(ctx context.Context, r emissionsRequest) (*computedVoyages, error) {
		rows, err := stored(ctx, EmissionsVoyagesRequest{EmissionsFilter: r.Filter, WithInput: r.override()})
		if err != nil {
			return nil, err
		}
		set, err := computeVoyages(rows, r)
		if err != nil {
			return nil, err
		}
		return &computedVoyages{set: set, fleet: totalRows(&set), groups: map[emissions.GroupBy][]byte{},
			rows: make([]atomic.Pointer[[]byte], set.Len())}, nil
	}
}

// groupedJSON returns the voyages' groups by g as JSON, computed once.
func (e *computedVoyages) groupedJSON(g emissions.GroupBy) ([]byte, error) {
	e.mu.Lock()
	b, ok := e.groups[g]
	e.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := json.Marshal(groupRows(&e.set, g))
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.groups[g] = b
	e.mu.Unlock()
	return b, nil
}

// voyageJSON returns voyage i as an EmissionsVoyage in JSON, encoded once
// (concurrent first calls may both encode it: the same bytes).
func (e *computedVoyages) voyageJSON(i int) ([]byte, error) {
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
