package ingest

import (
	"time"

	"overwatch"
	"overwatch/maritime/vessel"
	"overwatch/write/ais"
)

// mmsiState is what the registry knows of one MMSI.
type mmsiState struct {
	mmsi        uint32
	imo         overwatch.IMO
	name        string
	callSign    string
	shipType    uint8
	length      uint16  // metres, bow to stern (A + B)
	beam        uint16  // metres, port to starboard (C + D)
	draft       float32 // 0: never reported
	maxDraft    float32
	destination string
	eta         time.Time
	firstSeen   time.Time
	lastSeen    time.Time
	staticAt    time.Time // report time of the newest static report applied
	// orphans: the report times of the class A positions of this MMSI
	// stored without an IMO (the window passed, or the static reports
	// named none), and the newest of them; a later IMO claims them.
	orphanFrom, orphanTo time.Time
	orphanLast           PositionRow // set while orphanFrom is
	static               bool        // a static report has been seen for this MMSI
	dirty                bool        // the registry row must be written
	queued               bool        // the vessel is in registry.dirty
	written              time.Time   // lastSeen when the row was last written
}

// identity is the part of a vessel whose changes are kept as history.
type identity struct {
	mmsi     uint32
	name     string
	callSign string
	flag     string
	shipType uint8
}

// pending holds class A positions of an MMSI that waits for its IMO: since
// is the report time of the first, arrived the wall time it arrived.
type pending struct {
	since   time.Time
	arrived time.Time
	rows    []PositionRow
}

// registry resolves MMSIs to IMOs and tracks each vessel's identity and
// voyage data. It is confined to the pipeline's goroutine.
type registry struct {
	byMMSI     map[uint32]*mmsiState
	dirty      []*mmsiState               // vessels whose row must be written
	identities map[overwatch.IMO]identity // by IMO: the last identity written
	pending    map[uint32]*pending
	spare      []*pending // released, their rows emptied, for the next MMSI that waits
	nPending   int
	window     time.Duration
	maxPerMMSI int
	maxPending int
	// feedClock is the report time of the latest report processed: where
	// the stream is now. Not the newest time ever seen: an archive older
	// than the data before it (imported after it) moves it back, so that
	// its positions wait for their static reports by its own clock.
	feedClock time.Time
}

func newRegistry(window time.Duration, maxPending int) *registry {
	return &registry{
		byMMSI:     map[uint32]*mmsiState{},
		identities: map[overwatch.IMO]identity{},
		pending:    map[uint32]*pending{},
		window:     window,
		maxPerMMSI: 256,
		maxPending: maxPending,
	}
}

// load restores a vessel from the store's registry at start-up.
func (g *registry) load(v VesselRow) {
	vs := &mmsiState{
		mmsi: v.MMSI, imo: v.IMO, name: v.Name, callSign: v.CallSign, shipType: v.ShipType,
		length: v.LengthM, beam: v.BeamM, destination: v.Destination,
		firstSeen: v.FirstSeen, lastSeen: v.LastSeen, staticAt: v.StaticAt, written: v.LastSeen, static: true,
	}
	if v.DraftM != nil {
		vs.draft = *v.DraftM
	}
	if v.MaxDraftM != nil {
		vs.maxDraft = *v.MaxDraftM
	}
	if v.ETA != nil {
		vs.eta = *v.ETA
	}
	if cur, ok := g.byMMSI[v.MMSI]; !ok || cur.lastSeen.Before(v.LastSeen) {
		g.byMMSI[v.MMSI] = vs
	}
	g.identities[v.IMO] = vs.identity()
}

func (v *mmsiState) identity() identity {
	return identity{mmsi: v.mmsi, name: v.name, callSign: v.callSign, flag: vessel.FlagOfMMSI(v.mmsi), shipType: v.shipType}
}

func (v *mmsiState) row(now time.Time) VesselRow {
	row := VesselRow{
		IMO: v.imo, MMSI: v.mmsi, Name: v.name, CallSign: v.callSign, ShipType: v.shipType,
		ShipTypeText: shipTypeText(v.shipType), Flag: vessel.FlagOfMMSI(v.mmsi),
		LengthM: v.length, BeamM: v.beam, Destination: v.destination,
		FirstSeen: v.firstSeen, LastSeen: v.lastSeen, StaticAt: v.staticAt, UpdatedAt: now,
	}
	if v.draft > 0 {
		d, m := v.draft, v.maxDraft
		row.DraftM, row.MaxDraftM = &d, &m
	}
	if !v.eta.IsZero() {
		eta := v.eta
		row.ETA = &eta
	}
	return row
}

func shipTypeText(code uint8) string {
	if code == 0 {
		return ""
	}
	return ais.ShipTypeText(code)
}

// observe returns the vessel of the MMSI, creating it, and moves its
// last-seen time forward.
func (g *registry) observe(mmsi uint32, ts time.Time) *mmsiState {
	v := g.byMMSI[mmsi]
	if v == nil {
		v = &mmsiState{mmsi: mmsi, firstSeen: ts}
		g.byMMSI[mmsi] = v
	}
	if ts.After(v.lastSeen) {
		v.lastSeen = ts
	}
	g.feedClock = ts
	if ts.Before(v.firstSeen) {
		v.firstSeen = ts
	}
	if v.imo != 0 && v.lastSeen.Sub(v.written) >= lastSeenStep {
		g.queue(v)
	}
	return v
}

func (g *registry) queue(v *mmsiState) {
	if !v.queued {
		v.queued = true
		g.dirty = append(g.dirty, v)
	}
}

// applyStatic merges a static report into the vessel. The vessel's data is
// its newest static report's, by report time: a report older than the one
// applied last (captures and archives arrive out of order, an archive is
// imported after live data) only fills fields still unknown. It returns
// whether a new IMO became known for the MMSI and the identity row to
// write when the vessel's identity changed.
func (g *registry) applyStatic(r *Report) (v *mmsiState, newIMO bool, ident *IdentityRow) {
	v = g.observe(r.MMSI, r.TS)
	v.static = true
	newer := !r.TS.Before(v.staticAt)
	if newer {
		v.staticAt = r.TS
	}
	oldIMO := v.imo
	if r.Has&HasIMO != 0 && r.IMO.Valid() && (newer || v.imo == 0) {
		v.imo = r.IMO
	}
	set := func(dst *string, src string, bit Has) {
		if r.Has&bit != 0 && src != "" && *dst != src && (newer || *dst == "") {
			*dst, v.dirty = src, true
		}
	}
	set(&v.name, r.Name, HasName)
	set(&v.callSign, r.CallSign, HasCallSign)
	set(&v.destination, r.Destination, HasDestination)
	if r.Has&HasShipType != 0 && r.ShipType != 0 && v.shipType != r.ShipType && (newer || v.shipType == 0) {
		v.shipType, v.dirty = r.ShipType, true
	}
	if r.Has&HasDimensions != 0 && r.ToBow+r.ToStern > 0 && (newer || v.length == 0) {
		if l, b := r.ToBow+r.ToStern, r.ToPort+r.ToStarboard; v.length != l || v.beam != b {
			v.length, v.beam, v.dirty = l, b, true
		}
	}
	if r.Has&HasDraught != 0 && r.Draught > 0 {
		d := float32(r.Draught)
		if v.draft != d && (newer || v.draft == 0) {
			v.draft, v.dirty = d, true
		}
		if d > v.maxDraft {
			v.maxDraft, v.dirty = d, true
		}
	}
	if r.Has&HasETA != 0 && !r.ETA.Equal(v.eta) && (newer || v.eta.IsZero()) {
		v.eta, v.dirty = r.ETA, true
	}
	if v.imo == 0 {
		return v, false, nil
	}
	if v.imo != oldIMO {
		v.dirty = true
	}
	if v.dirty {
		g.queue(v)
	}
	after := v.identity()
	if last, known := g.identities[v.imo]; !known || last != after {
		g.identities[v.imo] = after
		ident = &IdentityRow{Identity: vessel.Identity{IMO: v.imo, ValidFrom: r.TS, MMSI: after.mmsi, Name: after.name,
			CallSign: after.callSign, Flag: after.flag, ShipType: after.shipType}, Source: r.Source}
	}
	return v, v.imo != oldIMO, ident
}

// hold keeps a class A position of an MMSI without an IMO. Rows pushed
// out by the per-MMSI or global bounds go to evict, to be written
// unattributed.
func (g *registry) hold(row *PositionRow, now time.Time, evict func(*PositionRow)) {
	p := g.pending[row.MMSI]
	if p == nil {
		if n := len(g.spare); n > 0 {
			p, g.spare = g.spare[n-1], g.spare[:n-1]
			p.since, p.arrived = row.TS, now
		} else {
			p = &pending{since: row.TS, arrived: now}
		}
		g.pending[row.MMSI] = p
	}
	if len(p.rows) >= g.maxPerMMSI {
		evict(&p.rows[0])
		p.rows[0] = PositionRow{}
		p.rows = p.rows[1:]
		g.nPending--
	}
	p.rows = append(p.rows, *row)
	g.nPending++
	if g.nPending > g.maxPending {
		g.expire(now, true, evict)
	}
}

// release hands the waiting positions of an MMSI to fn and forgets them.
func (g *registry) release(mmsi uint32, fn func(*PositionRow)) {
	p := g.pending[mmsi]
	if p == nil {
		return
	}
	delete(g.pending, mmsi)
	g.nPending -= len(p.rows)
	for i := range p.rows {
		fn(&p.rows[i])
	}
	clear(p.rows) // the strings go with the rows
	p.rows = p.rows[:0]
	if len(g.spare) < maxSparePending && cap(p.rows) <= maxSpareRows {
		g.spare = append(g.spare, p)
	}
}

// maxSparePending and maxSpareRows bound the released waiting lists kept
// for reuse, and their size (at most 1,024 × 32 rows, about 5 MB).
const (
	maxSparePending = 1024
	maxSpareRows    = 32
)

// expire hands fn the positions that waited longer than the window, or
// with all set, every waiting position. The wait is measured in report
// time (the time of the latest report, so that a replay of history
// expires by the data, and an older archive after newer data by its own)
// and, for a feed that stalls, in wall time.
func (g *registry) expire(now time.Time, all bool, fn func(*PositionRow)) {
	for mmsi, p := range g.pending {
		if all || g.feedClock.Sub(p.since) >= g.window || now.Sub(p.arrived) >= g.window {
			g.release(mmsi, fn)
		}
	}
}

// orphan notes a class A position of v stored without an IMO.
func (v *mmsiState) orphan(row *PositionRow) {
	if v.orphanFrom.IsZero() || row.TS.Before(v.orphanFrom) {
		v.orphanFrom = row.TS
	}
	if !row.TS.Before(v.orphanTo) {
		v.orphanTo = row.TS
		v.orphanLast = *row
	}
}

// claimOrphans returns the reattribution of v's orphaned positions to its
// IMO, and the newest of them, and forgets them; ok is false when there
// are none.
func (v *mmsiState) claimOrphans() (Reattribution, PositionRow, bool) {
	if v.orphanFrom.IsZero() || v.imo == 0 {
		return Reattribution{}, PositionRow{}, false
	}
	r := Reattribution{MMSI: v.mmsi, IMO: v.imo, From: v.orphanFrom, To: v.orphanTo}
	last := v.orphanLast
	v.orphanFrom, v.orphanTo, v.orphanLast = time.Time{}, time.Time{}, PositionRow{}
	return r, last, true
}

// lastSeenStep is how far a vessel's last-seen time moves before its
// registry row is written again for that alone.
const lastSeenStep = 10 * time.Minute

// dirtyRows returns the registry rows of vessels whose data changed since
// the last call, or whose last-seen time moved by lastSeenStep.
func (g *registry) dirtyRows(now time.Time) []VesselRow {
	out := make([]VesselRow, 0, len(g.dirty))
	for _, v := range g.dirty {
		out = append(out, v.row(now))
		v.written, v.dirty, v.queued = v.lastSeen, false, false
	}
	g.dirty = g.dirty[:0]
	return out
}
