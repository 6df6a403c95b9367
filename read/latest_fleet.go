package read

import (
	"context"

	"overwatch"
)

// EachLatest calls fn with the freshest row that has a position of every
// vessel (the row Latest returns for provider "any"), in no particular
// order, holding the replica's read lock: fn must be quick and must not
// call the replica. It fails with ErrStale while the store is unreachable.
func (r *LatestReplica) EachLatest(_ context.Context, fn func(overwatch.LatestRow)) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.synced.IsZero() || r.now().Sub(r.synced) > r.maxStale {
		return ErrStale
	}
	for imo, vi := range r.vessels {
		var best *latestEntry
		for _, idx := range r.slots[vi] {
			if idx == 0 {
				continue
			}
			e := &r.entries[idx-1]
			if e.has&(hasLat|hasLon) == hasLat|hasLon && (best == nil || e.ts > best.ts) {
				best = e
			}
		}
		if best != nil {
			fn(r.expand(imo, best))
		}
	}
	return nil
}

var _ FleetLatest = (*LatestReplica)(nil)
