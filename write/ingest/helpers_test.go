package ingest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"overwatch"
)

// errStoreDown is what memStore answers while it is told to fail.
var errStoreDown = errors.New("memstore: store unreachable")

// memStore is an in-memory Store: it keeps a deep copy of every batch it
// takes, in order, and can be told to fail its writes and pings, to hold
// its writes at a gate, and to run a hook after each write it takes.
type memStore struct {
	mu        sync.Mutex
	batches   []Batch
	registry  []VesselRow
	failWrite bool
	failPing  bool
	failPings int            // the next pings that fail, whatever failPing says
	gate      chan struct{}  // when set, WriteBatch waits for it to close
	entered   chan struct{}  // when set, WriteBatch sends on it before waiting at the gate
	onWrite   func(b *Batch) // when set, called (under mu) after a write is taken
	loadErr   error          // returned by LoadRegistry when set
	writes    int            // WriteBatch calls, failed ones included
	pings     int            // Ping calls
}

// memStore is the package's Store.
var _ Store = (*memStore)(nil)

// newMemStore returns a working store whose registry holds vessels.
func newMemStore(vessels ...VesselRow) *memStore {
	return &memStore{registry: vessels}
}

// WriteBatch records a deep copy of b unless the store is told to fail:
// the pipeline reuses a batch's slices once the write returns.
func (s *memStore) WriteBatch(ctx context.Context, b *Batch) error {
	s.mu.Lock()
	s.writes++
	gate, entered := s.gate, s.entered
	s.mu.Unlock()
	if gate != nil {
		if entered != nil {
			select {
			case entered <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		select {
		case <-gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failWrite {
		return errStoreDown
	}
	s.batches = append(s.batches, cloneBatch(b))
	if s.onWrite != nil {
		s.onWrite(b)
	}
	return nil
}

// LoadRegistry hands the store's registry rows to fn.
func (s *memStore) LoadRegistry(_ context.Context, fn func(VesselRow) error) error {
	s.mu.Lock()
	rows, err := slices.Clone(s.registry), s.loadErr
	s.mu.Unlock()
	if err != nil {
		return err
	}
	for _, v := range rows {
		if err := fn(v); err != nil {
			return err
		}
	}
	return nil
}

// Ping fails while the store is told its pings fail.
func (s *memStore) Ping(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pings++
	if s.failPings > 0 {
		s.failPings--
		return errStoreDown
	}
	if s.failPing {
		return errStoreDown
	}
	return nil
}

// setDown makes writes and pings fail (true) or succeed (false).
func (s *memStore) setDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failWrite, s.failPing = down, down
}

// setPingDown makes pings alone fail or succeed.
func (s *memStore) setPingDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failPing = down
}

// calls returns how many times WriteBatch and Ping were called.
func (s *memStore) calls() (writes, pings int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes, s.pings
}

// snapshot returns copies of the batches taken so far, in write order.
func (s *memStore) snapshot() []Batch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.batches)
}

// positions returns every position row taken, in write order.
func (s *memStore) positions() []PositionRow {
	var out []PositionRow
	for _, b := range s.snapshot() {
		out = append(out, b.Positions...)
	}
	return out
}

// statics returns every static row taken, in write order.
func (s *memStore) statics() []StaticRow {
	var out []StaticRow
	for _, b := range s.snapshot() {
		out = append(out, b.Statics...)
	}
	return out
}

// cloneBatch copies the slices of b, so the copy survives the pipeline
// reusing them.
func cloneBatch(b *Batch) Batch {
	return Batch{
		Seq: b.Seq, Positions: slices.Clone(b.Positions), InPort: slices.Clone(b.InPort),
		Statics: slices.Clone(b.Statics), Latest: slices.Clone(b.Latest),
		Vessels: slices.Clone(b.Vessels), Identities: slices.Clone(b.Identities),
		Reattributions: slices.Clone(b.Reattributions),
	}
}

// fakeClock is a settable wall clock for Options.Now, safe for the
// pipeline's goroutine to read while a test moves it.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the clock's time.
func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// advance moves the clock forward by d.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// t0 is the report time the tests start from.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// Open-sea coordinates, in the area of no reference port.
const seaLat, seaLon = 0.5, -30.0

// classB returns a class B position report (type 18) of mmsi at ts.
func classB(mmsi uint32, ts time.Time) Report {
	return Report{
		Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 18, TS: ts, ReceivedAt: ts,
		Has: HasPosition | HasSOG | HasCOG, Lat: seaLat, Lon: seaLon, SOG: 10.5, COG: 90,
	}
}

// classA returns a class A position report (type 1) of mmsi at ts.
func classA(mmsi uint32, ts time.Time) Report {
	r := classB(mmsi, ts)
	r.Type, r.Has, r.NavStatus = 1, r.Has|HasNavStatus|HasHeading, 0
	r.Heading = 91
	return r
}

// static5 returns a static and voyage report (type 5) of mmsi at ts naming
// imo and name.
func static5(mmsi uint32, imo overwatch.IMO, name string, ts time.Time) Report {
	return Report{
		Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 5, TS: ts, ReceivedAt: ts,
		Has: HasIMO | HasName | HasCallSign | HasShipType, IMO: imo, Name: name, CallSign: "CALL1", ShipType: 70,
	}
}

// validIMO returns the IMO number of the six digits first6 with its check
// digit.
func validIMO(first6 uint32) overwatch.IMO {
	return overwatch.IMO(first6*10 + overwatch.IMOCheckDigit(first6))
}

// testOptions returns options for a test: a fresh spool, a flush interval
// and attribution window long enough that only the test flushes, and a
// short retry interval.
func testOptions(t *testing.T) Options {
	return Options{
		SpoolDir: t.TempDir(), FlushInterval: time.Hour, AttributionWindow: time.Hour,
		RetryInterval: 5 * time.Millisecond, WriteTimeout: 10 * time.Second,
	}
}

// startPipeline creates and starts a pipeline on store; it is closed at the
// end of the test unless the test closed it.
func startPipeline(t *testing.T, store Store, opts Options) *Pipeline {
	t.Helper()
	p, err := New(store, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if err := p.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if p.stopped.Load() {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := p.Close(ctx); err != nil {
			t.Errorf("Close at cleanup: %v", err)
		}
	})
	return p
}

// submit queues reports, failing the test on an error.
func submit(t *testing.T, p *Pipeline, reports ...Report) {
	t.Helper()
	for _, r := range reports {
		if err := p.Submit(context.Background(), r); err != nil {
			t.Fatalf("Submit: %v", err)
		}
	}
}

// flush flushes the pipeline, failing the test on an error.
func flush(t *testing.T, p *Pipeline) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}

// closePipeline closes the pipeline, failing the test on an error.
func closePipeline(t *testing.T, p *Pipeline) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// waitFor polls cond until it holds, failing the test after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// mmsis returns the MMSIs of rows, in order.
func mmsis(rows []PositionRow) []uint32 {
	out := make([]uint32, len(rows))
	for i, r := range rows {
		out[i] = r.MMSI
	}
	return out
}
