package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"overwatch"
	"overwatch/live"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/write/ais"
)

// Store is where batches go; the clickhouse package implements it.
// WriteBatch must be idempotent: writing a batch again (after an ambiguous
// failure) stores nothing twice.
type Store interface {
	WriteBatch(ctx context.Context, b *Batch) error
	LoadRegistry(ctx context.Context, fn func(VesselRow) error) error
	Ping(ctx context.Context) error
}

// Options tune the pipeline; zero values take the defaults.
type Options struct {
	BatchSize         int            // rows per batch before a flush (50,000)
	FlushInterval     time.Duration  // longest a report waits for a flush (1 s)
	QueueSize         int            // reports the queue holds before Submit blocks (16,384)
	SpoolDir          string         // where batches wait while the store is down (required)
	SpoolMaxBytes     int64          // beyond this the pipeline blocks instead of spooling (10 GiB)
	AttributionWindow time.Duration  // how long a class A position waits for its IMO (10 min)
	MaxPending        int            // positions waiting for an IMO, in all (200,000)
	WriteTimeout      time.Duration  // one batch write (30 s)
	RetryInterval     time.Duration  // how often a down store is tried again (2 s)
	Ports             *seaport.Index // port areas that tag positions (the reference ports)
	Tap               Tap            // the live stream's hub (nil: none)
	TapMaxAge         time.Duration  // reports older than this (report time) are not tapped: a backfill (1 h)
	Now               func() time.Time
	Log               *slog.Logger
}

func (o *Options) defaults() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defd := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.BatchSize, 50000)
	def(&o.QueueSize, 16384)
	def(&o.MaxPending, 200000)
	defd(&o.FlushInterval, time.Second)
	defd(&o.AttributionWindow, 10*time.Minute)
	defd(&o.WriteTimeout, 30*time.Second)
	defd(&o.RetryInterval, 2*time.Second)
	defd(&o.TapMaxAge, time.Hour)
	if o.SpoolMaxBytes <= 0 {
		o.SpoolMaxBytes = 10 << 30
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Ports == nil {
		o.Ports = seaport.NewIndex(seaport.All())
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
}

// Pipeline takes reports from any number of feeds and writes them in
// batches. Submit is safe for concurrent use; everything else happens on
// the pipeline's own goroutines: the loop, which turns reports into
// batches, and the writer, which writes them (or spools them) in order
// while the loop builds the next.
type Pipeline struct {
	store Store
	opts  Options
	log   *slog.Logger
	spool *spool

	queue   chan Report
	chunks  chan *[]Report // reports queued by SubmitBatch, in order
	chunked atomic.Int64   // reports in chunks not yet processed
	flushes chan chan struct{}
	// writes carries batches (and flush barriers) from the loop to the
	// writer goroutine, in order; spare returns a written batch's buffers.
	// Two batches exist: one filling, one being written. So the loop
	// builds the next batch while the store takes the last.
	writes chan writeReq
	spare  chan *Batch
	wrote  chan struct{} // closed when the writer has finished
	closed chan struct{}
	done   chan struct{}
	once   sync.Once

	reg *registry
	cur Batch
	// latest is the newest position of each vessel and source in the
	// batch (an index into cur.Positions, and the vessel), in the order
	// first seen; the latest-position rows are made from it at flush.
	latest     map[latestKey]int // index into latestRefs
	latestRefs []latestRef
	seen       keySet // dedup keys of the current batch
	prevSeen   keySet // and of the batch before it
	seq        uint64

	// down is set by the writer goroutine when a write fails and cleared
	// by it alone, once the spool is empty (write): only that goroutine
	// spools batches, so no batch made later can reach the store before a
	// spooled one. submit is held (read) by Submit and TrySubmit
	// while they queue a report, and taken by the loop before its last
	// drain, so that a report they acknowledge is never left behind.
	down    atomic.Bool
	replay  sync.Mutex
	submit  sync.RWMutex
	stats   counters
	pending atomic.Int64 // registry.nPending, published for Stats
	stopped atomic.Bool
	tapBuf  []live.Event // events gathered for the tap (see tap.go)
}

type latestKey struct {
	imo    overwatch.IMO
	source overwatch.Source
}

// New returns a pipeline writing to store. Start it before submitting.
func New(store Store, opts Options) (*Pipeline, error) {
	opts.defaults()
	if opts.SpoolDir == "" {
		return nil, errors.New("ingest: a spool directory is required")
	}
	sp, err := openSpool(opts.SpoolDir)
	if err != nil {
		return nil, err
	}
	return &Pipeline{
		store: store, opts: opts, log: opts.Log, spool: sp,
		queue:   make(chan Report, opts.QueueSize),
		chunks:  make(chan *[]Report, max(1, opts.QueueSize/ChunkSize)),
		flushes: make(chan chan struct{}),
		writes:  make(chan writeReq, 1),
		spare:   make(chan *Batch, 1),
		wrote:   make(chan struct{}),
		closed:  make(chan struct{}),
		done:    make(chan struct{}),
		reg:     newRegistry(opts.AttributionWindow, opts.MaxPending),
		latest:  map[latestKey]int{},
	}, nil
}

// Start loads the vessel registry from the store and starts the pipeline's
// goroutines, which run until Close.
func (p *Pipeline) Start(ctx context.Context) error {
	n := 0
	err := p.store.LoadRegistry(ctx, func(v VesselRow) error { p.reg.load(v); n++; return nil })
	if err != nil {
		return fmt.Errorf("ingest: load registry: %w", err)
	}
	p.log.Info("vessel registry loaded", "vessels", n)
	if files, _ := p.spool.size(); files > 0 {
		p.log.Warn("spooled batches from an earlier run will be replayed", "files", files)
		p.down.Store(true)
	}
	p.spare <- &Batch{}
	go p.writer()
	go p.loop()
	go p.retry()
	return nil
}

// Flush writes (or spools) everything submitted so far, as the flush timer
// would, and returns when that is done. Positions waiting for their IMO keep
// waiting; Close writes them.
func (p *Pipeline) Flush(ctx context.Context) error {
	ack := make(chan struct{})
	select {
	case p.flushes <- ack:
	case <-ctx.Done():
		return ctx.Err()
	case <-p.done:
		return errors.New("ingest: pipeline closed")
	}
	select {
	case <-ack:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops taking reports, writes everything queued, including
// positions still waiting for their IMO (unattributed), and then keeps
// replaying the spool until it is empty or ctx ends; batches still spooled
// then are written by the next pipeline that starts on the same spool.
func (p *Pipeline) Close(ctx context.Context) error {
	p.once.Do(func() {
		p.stopped.Store(true)
		close(p.closed)
	})
	select {
	case <-p.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	for {
		p.replaySpool()
		files, _ := p.spool.size()
		if files == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("ingest: %d batches remain in the spool %s; they are written when a pipeline starts on it again", files, p.opts.SpoolDir)
		case <-time.After(p.opts.RetryInterval):
		}
	}
}

func (p *Pipeline) loop() {
	defer close(p.done)
	tick := time.NewTicker(p.opts.FlushInterval)
	defer tick.Stop()
	for {
		if len(p.tapBuf) > 0 && len(p.queue) == 0 && len(p.chunks) == 0 {
			p.publishTap() // nothing more is waiting: publish what is gathered
		}
		select {
		case r := <-p.queue:
			p.take(&r)
		case c := <-p.chunks:
			p.takeChunk(c)
		case <-tick.C:
			p.flush(false)
		case ack := <-p.flushes:
			p.drain()
			p.flush(false)
			p.publishTap()
			p.writes <- writeReq{ack: ack} // acknowledged once what is before it is written
		case <-p.closed:
			// Submitters see stopped or closed and return; wait for those
			// under way, so that what they queued is drained here.
			p.submit.Lock()
			p.submit.Unlock() //nolint:staticcheck // a barrier, not a critical section
			p.drain()
			p.flush(true)
			p.publishTap()
			close(p.writes)
			<-p.wrote
			return
		}
	}
}

// drain processes what is queued now.
func (p *Pipeline) drain() {
	for {
		select {
		case r := <-p.queue:
			p.take(&r)
		case c := <-p.chunks:
			p.takeChunk(c)
		default:
			return
		}
	}
}

// take processes a queued report, flushing a full batch.
func (p *Pipeline) take(r *Report) {
	p.process(r)
	if len(p.cur.Positions)+len(p.cur.Statics) >= p.opts.BatchSize {
		p.flush(false)
	}
}

// process turns one report into rows of the current batch.
func (p *Pipeline) process(r *Report) {
	p.stats.processed.Add(1)
	if r.isStatic() {
		if r.Has&HasIMO != 0 && !r.IMO.Valid() {
			p.stats.invalidIMO.Add(1) // stored as reported, never used as the vessel's IMO
		}
		key := staticKey(r)
		if p.dup(key) {
			p.stats.duplicates.Add(1)
		} else {
			v, newIMO, ident := p.reg.applyStatic(r)
			p.tapStatic(r, v)
			p.cur.Statics = append(p.cur.Statics, staticRow(r, v.imo, key))
			if ident != nil {
				p.cur.Identities = append(p.cur.Identities, *ident)
			}
			if newIMO {
				p.reg.release(r.MMSI, func(row *PositionRow) {
					row.IMO = v.imo
					p.addPosition(row, v)
				})
				p.reattribute(v)
			}
		}
	}
	if !r.isPosition() {
		return
	}
	key := positionKey(r)
	if p.dup(key) {
		p.stats.duplicates.Add(1)
		return
	}
	v := p.reg.observe(r.MMSI, r.TS)
	p.tapPosition(r, v)
	switch {
	case v.imo != 0:
		row := p.appendPosition(r, v, key)
		row.IMO = v.imo
		p.noteLatest(row, v)
	case r.classA() && !v.static:
		var row PositionRow
		fillPositionRow(&row, r, v, key)
		p.reg.hold(&row, p.opts.Now(), p.unattributed)
	default:
		row := p.appendPosition(r, v, key)
		if r.classA() {
			v.orphan(row)
		}
	}
	// Expire waiting positions as report time moves, not only at flushes,
	// so that a replay does not pile them into one oversized batch.
	if p.stats.processed.Load()%4096 == 0 {
		p.reg.expire(p.opts.Now(), false, p.unattributed)
	}
	p.pending.Store(int64(p.reg.nPending))
}

// dup reports whether the key was seen in this batch or the one before,
// and notes it.
func (p *Pipeline) dup(key uint64) bool {
	if p.prevSeen.has(key) {
		return true
	}
	return !p.seen.insert(key)
}

// unattributed writes a position that waited for its IMO in vain.
func (p *Pipeline) unattributed(row *PositionRow) {
	p.stats.unattributed.Add(1)
	p.addRow(row)
	if v := p.reg.byMMSI[row.MMSI]; v != nil {
		v.orphan(row)
	}
}

// reattribute hands the store the positions of v stored without an IMO
// before its IMO became known, and makes the newest of them a candidate
// for the latest-position store.
func (p *Pipeline) reattribute(v *mmsiState) {
	ra, last, ok := v.claimOrphans()
	if !ok {
		return
	}
	p.stats.reattributed.Add(1)
	p.cur.Reattributions = append(p.cur.Reattributions, ra)
	row := last
	row.IMO = v.imo
	p.cur.Latest = append(p.cur.Latest, latestRow(&row, v))
}

// appendPosition adds the position of r to the batch, built in place,
// tagged with the port whose area holds it, and returns it.
func (p *Pipeline) appendPosition(r *Report, v *mmsiState, key uint64) *PositionRow {
	p.cur.Positions = append(p.cur.Positions, PositionRow{})
	row := &p.cur.Positions[len(p.cur.Positions)-1]
	fillPositionRow(row, r, v, key)
	p.tagPort(row)
	return row
}

// addRow adds a position row to the batch, tagged with the port whose area
// holds it.
func (p *Pipeline) addRow(row *PositionRow) {
	p.cur.Positions = append(p.cur.Positions, *row)
	p.tagPort(row)
}

// tagPort notes the batch's last position as inside a port's area when it
// is.
func (p *Pipeline) tagPort(row *PositionRow) {
	if port := p.opts.Ports.PortAt(row.Lat, row.Lon); port != "" {
		p.cur.InPort = append(p.cur.InPort, PortPositionRow{Port: port, Position: len(p.cur.Positions) - 1})
	}
}

// addPosition appends an attributed position and notes it when it is the
// batch's newest of its vessel and source.
func (p *Pipeline) addPosition(row *PositionRow, v *mmsiState) {
	p.addRow(row)
	p.noteLatest(&p.cur.Positions[len(p.cur.Positions)-1], v)
}

// noteLatest notes the batch's last position, attributed, when it is the
// batch's newest of its vessel and source.
func (p *Pipeline) noteLatest(row *PositionRow, v *mmsiState) {
	k := latestKey{row.IMO, row.Source}
	ref := latestRef{pos: len(p.cur.Positions) - 1, v: v}
	i, ok := p.latest[k]
	switch {
	case !ok:
		p.latest[k] = len(p.latestRefs)
		p.latestRefs = append(p.latestRefs, ref)
	case !row.TS.Before(p.cur.Positions[p.latestRefs[i].pos].TS):
		p.latestRefs[i] = ref // of two reports at the same time, the later received wins
	}
}

// latestRef is a batch's newest position of one vessel and source.
type latestRef struct {
	pos int // into cur.Positions
	v   *mmsiState
}

// latestRows makes the batch's latest-position rows.
func (p *Pipeline) latestRows() {
	for _, ref := range p.latestRefs {
		p.cur.Latest = append(p.cur.Latest, latestRow(&p.cur.Positions[ref.pos], ref.v))
	}
	p.latestRefs = p.latestRefs[:0]
	clear(p.latest)
}

// flush writes the current batch; with final set, positions still waiting
// for their IMO go too, unattributed.
func (p *Pipeline) flush(final bool) {
	now := p.opts.Now()
	p.reg.expire(now, final, p.unattributed)
	p.pending.Store(int64(p.reg.nPending))
	p.cur.Vessels = append(p.cur.Vessels, p.reg.dirtyRows(now)...)
	if p.cur.Len() == 0 {
		return
	}
	p.seq++
	p.latestRows()
	p.prevSeen, p.seen = p.seen, p.prevSeen
	p.seen.reset()
	// Swap the batch for the spare (waiting while the writer still has
	// it: back-pressure) and hand it to the writer. The spare's buffers,
	// written already, are reused for the next batch rather than grown
	// anew.
	b := <-p.spare
	old := *b
	*b = p.cur
	b.Seq = p.seq
	p.cur = Batch{
		Positions: old.Positions[:0], InPort: old.InPort[:0], Statics: old.Statics[:0],
		Latest: old.Latest[:0], Vessels: old.Vessels[:0], Identities: old.Identities[:0],
		Reattributions: old.Reattributions[:0],
	}
	p.writes <- writeReq{b: b}
}

func staticRow(r *Report, imo overwatch.IMO, key uint64) StaticRow {
	row := StaticRow{
		MMSI: r.MMSI, IMO: imo, Source: r.Source, TS: r.TS, MsgType: r.Type, Part: r.Part,
		Name: r.Name, CallSign: r.CallSign, ShipType: r.ShipType,
		ToBow: r.ToBow, ToStern: r.ToStern, ToPort: r.ToPort, ToStarboard: r.ToStarboard,
		Destination: r.Destination, ReceivedAt: r.ReceivedAt, DedupKey: key,
	}
	if r.Has&HasDraught != 0 && r.Draught > 0 {
		d := float32(r.Draught)
		row.DraftM = &d
	}
	if r.Has&HasETA != 0 {
		eta := r.ETA
		row.ETA = &eta
	}
	return row
}

// fillPositionRow makes the zero row the position of r (IMO unset).
func fillPositionRow(row *PositionRow, r *Report, v *mmsiState, key uint64) {
	row.MMSI, row.Source, row.TS, row.Lat, row.Lon = r.MMSI, r.Source, r.TS, r.Lat, r.Lon
	row.Has, row.SpeedKt, row.CourseDeg = r.Has&(HasSOG|HasCOG|HasHeading), float32(r.SOG), float32(r.COG)
	row.HeadingDeg, row.NavStatus, row.Destination = r.Heading, r.NavStatus, v.destination
	row.MsgType, row.ReceivedAt, row.Station, row.DedupKey = r.Type, r.ReceivedAt, r.Station, key
	if r.Has&HasNavStatus == 0 {
		row.NavStatus = 15
	}
	if v.draft > 0 {
		row.Has |= HasDraught
		row.DraftM = v.draft
	}
}

func latestRow(row *PositionRow, v *mmsiState) overwatch.LatestRow {
	lat, lon := row.Lat, row.Lon
	lr := overwatch.LatestRow{IMO: row.IMO, Source: row.Source, TS: row.TS, MMSI: row.MMSI, Lat: &lat, Lon: &lon, ReceivedAt: row.ReceivedAt}
	str := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	// Speed, course and draught have a resolution of 0.1 on the wire; the
	// float32 of the positions table is rounded back to it.
	f64 := func(set bool, f float32) *float64 {
		if !set {
			return nil
		}
		v := math.Round(float64(f)*10) / 10
		return &v
	}
	lr.VesselName, lr.Destination = str(v.name), str(v.destination)
	lr.VesselType, lr.Flag = str(shipTypeText(v.shipType)), str(vessel.FlagOfMMSI(row.MMSI))
	lr.SpeedKt = f64(row.Has&HasSOG != 0, row.SpeedKt)
	lr.CourseDeg = f64(row.Has&HasCOG != 0, row.CourseDeg)
	lr.DraftM = f64(row.Has&HasDraught != 0, row.DraftM)
	if row.NavStatus != 15 {
		lr.NavStatus = str(ais.NavStatusText(row.NavStatus))
	}
	return lr
}
