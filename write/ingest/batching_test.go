package ingest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"overwatch/maritime/seaport"
)

// TestNewRequiresSpoolDir checks that a pipeline is not built without a
// spool directory, where it could not keep batches while the store is down.
func TestNewRequiresSpoolDir(t *testing.T) {
	t.Parallel()
	if _, err := New(newMemStore(), Options{}); err == nil {
		t.Fatal("New without a spool directory: no error")
	}
}

// TestStartFailsWithoutRegistry checks that Start reports a registry the
// store cannot load instead of running without it.
func TestStartFailsWithoutRegistry(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	store.loadErr = errStoreDown
	p, err := New(store, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(context.Background()); !errors.Is(err, errStoreDown) {
		t.Fatalf("Start: %v, want %v", err, errStoreDown)
	}
}

// TestFlushOnBatchSize checks that a batch is written as soon as it holds
// BatchSize rows, without a Flush or a tick, and that Flush writes the
// remainder: 7 reports in batches of 3 are written as 3, 3 and 1, in order.
func TestFlushOnBatchSize(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	opts := testOptions(t)
	opts.BatchSize = 3
	p := startPipeline(t, store, opts)
	var want []uint32
	for i := range 7 {
		mmsi := uint32(211000001 + i)
		want = append(want, mmsi)
		submit(t, p, classB(mmsi, t0.Add(time.Duration(i)*time.Second)))
	}
	waitFor(t, "two full batches", func() bool { return len(store.snapshot()) == 2 })
	flush(t, p)

	batches := store.snapshot()
	var sizes []int
	for i, b := range batches {
		sizes = append(sizes, len(b.Positions))
		if b.Seq != uint64(i+1) {
			t.Errorf("batch %d has Seq %d, want %d", i, b.Seq, i+1)
		}
	}
	if !slices.Equal(sizes, []int{3, 3, 1}) {
		t.Fatalf("batch sizes %v, want [3 3 1]", sizes)
	}
	if got := mmsis(store.positions()); !slices.Equal(got, want) {
		t.Errorf("positions written %v, want %v", got, want)
	}
	st := p.Stats()
	if st.Submitted != 7 || st.Processed != 7 || st.Written != 7 || st.Batches != 3 {
		t.Errorf("stats %+v: want 7 submitted, processed and written in 3 batches", st)
	}
}

// TestFlushOnInterval checks that a report waits at most FlushInterval:
// with a batch far from full and no Flush, the timer writes it.
func TestFlushOnInterval(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	opts := testOptions(t)
	opts.FlushInterval = 20 * time.Millisecond
	p := startPipeline(t, store, opts)
	submit(t, p, classB(211000001, t0), classB(211000002, t0))
	waitFor(t, "the timer to write both reports", func() bool { return len(store.positions()) == 2 })
	if st := p.Stats(); st.Written != 2 {
		t.Errorf("Written = %d, want 2", st.Written)
	}
}

// TestBatchGroupsRows checks what one batch holds: positions with the
// vessel's IMO and an index of those inside a port area, static reports,
// one latest-position row per vessel and source (the newest report time),
// and the registry and identity rows of a vessel whose IMO became known.
func TestBatchGroupsRows(t *testing.T) {
	t.Parallel()
	known := VesselRow{IMO: validIMO(907472), MMSI: 244000001, Name: "KNOWN", FirstSeen: t0, LastSeen: t0}
	store := newMemStore(known)
	p := startPipeline(t, store, testOptions(t))
	port := seaport.All()[0]

	newer := classA(known.MMSI, t0.Add(2*time.Minute))
	newer.Lat, newer.Lon = port.Area.Lat, port.Area.Lon
	older := classA(known.MMSI, t0.Add(time.Minute)) // arrives later, reported earlier
	newIMO := validIMO(931234)
	submit(t, p, newer, older, static5(244000002, newIMO, "NEWCOMER", t0))
	flush(t, p)

	batches := store.snapshot()
	if len(batches) != 1 {
		t.Fatalf("%d batches, want 1", len(batches))
	}
	b := batches[0]
	if len(b.Positions) != 2 || b.Positions[0].IMO != known.IMO || b.Positions[1].IMO != known.IMO {
		t.Fatalf("positions %+v: want 2 with IMO %d", b.Positions, known.IMO)
	}
	if len(b.InPort) != 1 || b.InPort[0].Port != port.Slug || b.InPort[0].Position != 0 {
		t.Errorf("in-port rows %+v: want position 0 in %s", b.InPort, port.Slug)
	}
	if len(b.Statics) != 1 || b.Statics[0].IMO != newIMO || b.Statics[0].Name != "NEWCOMER" {
		t.Errorf("static rows %+v: want NEWCOMER with IMO %d", b.Statics, newIMO)
	}
	if len(b.Latest) != 1 || b.Latest[0].IMO != known.IMO || !b.Latest[0].TS.Equal(newer.TS) ||
		b.Latest[0].VesselName == nil || *b.Latest[0].VesselName != "KNOWN" {
		t.Errorf("latest rows %+v: want one of IMO %d at %v named KNOWN", b.Latest, known.IMO, newer.TS)
	}
	if len(b.Vessels) != 1 || b.Vessels[0].IMO != newIMO || b.Vessels[0].Name != "NEWCOMER" {
		t.Errorf("vessel rows %+v: want NEWCOMER with IMO %d", b.Vessels, newIMO)
	}
	if len(b.Identities) != 1 || b.Identities[0].IMO != newIMO || b.Identities[0].MMSI != 244000002 {
		t.Errorf("identity rows %+v: want IMO %d on MMSI 244000002", b.Identities, newIMO)
	}
}

// TestCloseWritesEverything checks that Close writes every queued report,
// including class A positions still waiting for their IMO (written with
// IMO 0), and that the closed pipeline refuses further reports.
func TestCloseWritesEverything(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	opts := testOptions(t)
	opts.BatchSize = 16
	p := startPipeline(t, store, opts)
	for i := range 50 {
		submit(t, p, classB(uint32(211000000+i), t0))
	}
	submit(t, p, classA(244000001, t0), classA(244000002, t0), classA(244000003, t0))
	closePipeline(t, p)

	rows := store.positions()
	if len(rows) != 53 {
		t.Fatalf("%d positions written, want 53", len(rows))
	}
	for _, r := range rows {
		if r.IMO != 0 {
			t.Errorf("MMSI %d written with IMO %d, want 0", r.MMSI, r.IMO)
		}
	}
	st := p.Stats()
	if st.Submitted != 53 || st.Written != 53 || st.Unattributed != 3 || st.Pending != 0 {
		t.Errorf("stats %+v: want 53 submitted and written, 3 unattributed, none pending", st)
	}
	if err := p.Submit(context.Background(), classB(211999999, t0)); err == nil {
		t.Error("Submit after Close: no error")
	}
	if p.TrySubmit(classB(211999999, t0)) {
		t.Error("TrySubmit after Close: accepted")
	}
	if err := p.Flush(context.Background()); err == nil {
		t.Error("Flush after Close: no error")
	}
}

// gatedCtx is a context whose Done method, the first time it is called,
// says so and waits for release. Submit calls it while it evaluates its
// select, after its check that the pipeline is open: the gate holds Submit
// exactly there while a concurrent Close runs to its end.
type gatedCtx struct {
	context.Context
	once    sync.Once
	called  chan struct{}
	release chan struct{}
}

// Done waits at the gate the first time, then returns the parent's Done.
func (c *gatedCtx) Done() <-chan struct{} {
	c.once.Do(func() {
		close(c.called)
		<-c.release
	})
	return c.Context.Done()
}

// TestSubmitRacingCloseLosesNothing checks that a report Submit
// acknowledges while Close runs concurrently is written: Submit is held
// between its open check and its select while Close finishes, then let go.
// A nil error from Submit must mean the report reaches the store. Go picks
// a ready select case at random, so rounds are repeated until one loses.
func TestSubmitRacingCloseLosesNothing(t *testing.T) {
	t.Parallel()
	for round := range 20 {
		store := newMemStore()
		p := startPipeline(t, store, testOptions(t))
		ctx := &gatedCtx{Context: context.Background(), called: make(chan struct{}), release: make(chan struct{})}
		errc := make(chan error, 1)
		go func() { errc <- p.Submit(ctx, classB(211000001, t0)) }()
		select {
		case <-ctx.called:
		case <-time.After(10 * time.Second):
			t.Fatal("Submit never reached its select")
		}
		// Close while Submit is held between its check and its select:
		// Close must not finish before that Submit has either queued its
		// report (and the report is written) or refused it.
		closed := make(chan error, 1)
		go func() {
			cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			closed <- p.Close(cctx)
		}()
		waitFor(t, "Close to begin", p.stopped.Load)
		close(ctx.release)
		if err := <-closed; err != nil {
			t.Fatalf("Close: %v", err)
		}
		if err := <-errc; err == nil && len(store.positions()) == 0 {
			st := p.Stats()
			t.Fatalf("round %d: Submit acknowledged a report Close never wrote (submitted %d, processed %d, queued %d)",
				round, st.Submitted, st.Processed, st.Queued)
		}
	}
}
