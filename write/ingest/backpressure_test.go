package ingest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// holdWrites makes the store's writes wait at a gate and returns a channel
// that receives once per write reaching it, and the function opening it.
func holdWrites(s *memStore) (entered <-chan struct{}, open func()) {
	gate, in := make(chan struct{}), make(chan struct{})
	s.mu.Lock()
	s.gate, s.entered = gate, in
	s.mu.Unlock()
	return in, func() {
		s.mu.Lock()
		s.gate, s.entered = nil, nil
		s.mu.Unlock()
		close(gate)
	}
}

// waitEntered waits for a write to reach the store's gate.
func waitEntered(t *testing.T, entered <-chan struct{}) {
	t.Helper()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("no write reached the store")
	}
}

// TestQueueBackPressure checks the bounded queue: while the store holds
// the writer in a write (the loop in turn waits for the writer with the
// next batch) and the queue is full, Submit waits
// until its context ends and TrySubmit refuses, each refusal counted as a
// drop; a waiting Submit goes through once the store takes writes again,
// and exactly the accepted reports are written, in order.
func TestQueueBackPressure(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	entered, open := holdWrites(store)
	opts := testOptions(t)
	opts.BatchSize, opts.QueueSize = 1, 2
	p := startPipeline(t, store, opts)

	submit(t, p, classB(211000001, t0))
	waitEntered(t, entered) // the writer is held in the write of the first report
	// The loop takes the second into a batch and waits for the writer;
	// the third and fourth fill the queue.
	submit(t, p, classB(211000002, t0), classB(211000003, t0), classB(211000004, t0))
	if q := p.Stats().Queued; q != 2 {
		t.Fatalf("Queued = %d, want 2 (a full queue)", q)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if err := p.Submit(ctx, classB(211000005, t0)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Submit into a full queue: %v, want %v", err, context.DeadlineExceeded)
	}
	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	if err := p.Submit(cctx, classB(211000005, t0)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Submit into a full queue with a cancelled context: %v, want %v", err, context.Canceled)
	}
	for range 3 {
		if p.TrySubmit(classB(211000005, t0)) {
			t.Fatal("TrySubmit into a full queue: accepted")
		}
	}
	if st := p.Stats(); st.Dropped != 3 || st.Submitted != 4 {
		t.Fatalf("Dropped = %d, Submitted = %d; want 3 and 4", st.Dropped, st.Submitted)
	}

	waiting := make(chan error, 1)
	go func() { waiting <- p.Submit(context.Background(), classB(211000006, t0)) }()
	open()
	select {
	case err := <-waiting:
		if err != nil {
			t.Fatalf("waiting Submit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Submit still waits after the store took writes again")
	}
	waitFor(t, "the queue to empty", func() bool { return p.Stats().Queued == 0 })
	if !p.TrySubmit(classB(211000007, t0)) {
		t.Fatal("TrySubmit refused with room in the queue")
	}
	flush(t, p)

	want := []uint32{211000001, 211000002, 211000003, 211000004, 211000006, 211000007}
	if got := mmsis(store.positions()); !slices.Equal(got, want) {
		t.Errorf("written %v, want %v", got, want)
	}
	if st := p.Stats(); st.Submitted != 6 || st.Dropped != 3 || st.Written != 6 {
		t.Errorf("stats %+v: want 6 submitted and written, 3 dropped", st)
	}
}

// TestSpoolFullBlocks checks the other bound: beyond SpoolMaxBytes the
// pipeline stops spooling and waits, so the queue fills and Submit blocks;
// when the store is back every accepted report is written exactly once.
func TestSpoolFullBlocks(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	store.setDown(true)
	opts := testOptions(t)
	opts.BatchSize, opts.QueueSize, opts.SpoolMaxBytes = 1, 1, 1
	p := startPipeline(t, store, opts)

	submit(t, p, classB(211000001, t0), classB(211000002, t0))
	waitFor(t, "the writer to wait for spool space", func() bool { return p.Stats().SpoolFullWaits > 0 })
	// The loop takes the third into a batch and waits for the writer; the
	// fourth fills the queue.
	submit(t, p, classB(211000003, t0), classB(211000004, t0))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if err := p.Submit(ctx, classB(211000005, t0)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Submit while the spool is full: %v, want %v", err, context.DeadlineExceeded)
	}
	if st := p.Stats(); st.SpoolFiles != 1 || st.Spooled != 1 || !st.StoreDown {
		t.Fatalf("stats %+v: want one spooled batch and the store down", st)
	}

	store.setDown(false)
	closePipeline(t, p)
	got := mmsis(store.positions())
	slices.Sort(got)
	if want := []uint32{211000001, 211000002, 211000003, 211000004}; !slices.Equal(got, want) {
		t.Errorf("written %v, want each of %v once", got, want)
	}
	if st := p.Stats(); st.SpoolFiles != 0 || st.Written != 4 {
		t.Errorf("stats %+v: want the spool empty and 4 written", st)
	}
}
