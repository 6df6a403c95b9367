package ingest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// spoolFiles returns the names of the batch files in dir, sorted.
func spoolFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), spoolExt) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// seqs returns the Seq of each batch, in order.
func seqs(batches []Batch) []uint64 {
	out := make([]uint64, len(batches))
	for i, b := range batches {
		out[i] = b.Seq
	}
	return out
}

// TestSpoolAndReplay checks that batches the store refuses are spooled to
// disk, one file per batch in the spool directory, and replayed in order, each exactly once, once the store
// answers its ping again (not before); after that batches go to the store
// directly.
func TestSpoolAndReplay(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	store.setDown(true)
	opts := testOptions(t)
	opts.BatchSize = 1
	p := startPipeline(t, store, opts)

	var want []uint32
	for i := range 5 {
		want = append(want, uint32(211000001+i))
		submit(t, p, classB(want[i], t0.Add(time.Duration(i)*time.Second)))
	}
	flush(t, p)
	st := p.Stats()
	if st.Spooled != 5 || st.SpoolFiles != 5 || st.SpoolBytes <= 0 || !st.StoreDown || st.WriteErrors == 0 {
		t.Fatalf("stats %+v: want 5 batches spooled, the store down, a write error", st)
	}
	if n := len(spoolFiles(t, opts.SpoolDir)); n != 5 {
		t.Fatalf("%d batch files in the spool directory, want 5", n)
	}
	if n := len(store.snapshot()); n != 0 {
		t.Fatalf("a down store took %d batches", n)
	}

	// Writes would succeed now, but the store does not answer its ping:
	// the pipeline keeps the batches spooled.
	store.mu.Lock()
	store.failWrite = false
	store.mu.Unlock()
	_, pings := store.calls()
	waitFor(t, "three more pings", func() bool { _, n := store.calls(); return n >= pings+3 })
	if st := p.Stats(); st.SpoolFiles != 5 || st.Replayed != 0 {
		t.Fatalf("stats %+v: replayed to a store that fails its ping", st)
	}

	store.setPingDown(false)
	waitFor(t, "the spool to be replayed", func() bool { st := p.Stats(); return st.SpoolFiles == 0 && !st.StoreDown })
	if got := mmsis(store.positions()); !slices.Equal(got, want) {
		t.Fatalf("replayed %v, want %v", got, want)
	}
	if got := seqs(store.snapshot()); !slices.Equal(got, []uint64{1, 2, 3, 4, 5}) {
		t.Errorf("batches replayed in order %v, want 1 to 5", got)
	}
	if n := len(spoolFiles(t, opts.SpoolDir)); n != 0 {
		t.Errorf("%d batch files left in the spool directory", n)
	}

	submit(t, p, classB(211000006, t0.Add(time.Minute)))
	flush(t, p)
	if got := mmsis(store.positions()); !slices.Equal(got, append(want, 211000006)) {
		t.Errorf("written %v after the replay, want %v then 211000006", got, want)
	}
	if st := p.Stats(); st.Replayed != 5 || st.Written != 6 || st.Spooled != 5 || st.SpoolBytes != 0 {
		t.Errorf("stats %+v: want 5 replayed, 6 written, an empty spool", st)
	}
}

// TestSpoolReplayedByNextPipeline checks that batches a pipeline could not
// write before it was closed stay in the spool, and that the next pipeline
// on the same directory replays them first, ahead of its own reports, and
// ignores the leftover of an interrupted spool write.
func TestSpoolReplayedByNextPipeline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	down := newMemStore()
	down.setDown(true)
	opts := testOptions(t)
	opts.SpoolDir, opts.BatchSize = dir, 1
	first := startPipeline(t, down, opts)
	submit(t, first, classB(211000001, t0), classB(211000002, t0))
	flush(t, first)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := first.Close(ctx); err == nil {
		t.Fatal("Close with the store down and batches spooled: no error")
	}
	select {
	case <-first.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the first pipeline's goroutine did not end")
	}
	if n := len(spoolFiles(t, dir)); n != 2 {
		t.Fatalf("%d batch files left by the first pipeline, want 2", n)
	}
	tmp := filepath.Join(dir, "99999999999999999999-00000001.batch.tmp")
	if err := os.WriteFile(tmp, []byte("half a batch"), 0o644); err != nil {
		t.Fatal(err)
	}

	store := newMemStore()
	second := startPipeline(t, store, opts)
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("leftover %s not removed: %v", tmp, err)
	}
	submit(t, second, classB(211000003, t0.Add(time.Second)))
	flush(t, second)
	waitFor(t, "the old spool to be replayed", func() bool { return len(store.positions()) == 3 })
	if got, want := mmsis(store.positions()), []uint32{211000001, 211000002, 211000003}; !slices.Equal(got, want) {
		t.Errorf("written %v, want %v", got, want)
	}
	waitFor(t, "the spool to empty", func() bool { st := second.Stats(); return st.SpoolFiles == 0 && !st.StoreDown })
	if st := second.Stats(); st.Replayed < 2 || st.Written != 3 {
		t.Errorf("stats %+v: want the 2 old reports replayed and 3 written", st)
	}
}

// TestCorruptSpoolFileMovedAside checks what spool.go promises of a batch
// file it cannot read: it is moved aside to the unreadable directory,
// unchanged and never deleted, and the batches around it are replayed in
// order; the spool's file and byte counts then come back to zero.
func TestCorruptSpoolFileMovedAside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sp, err := openSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, mmsi := range []uint32{211000001, 211000002} {
		b := &Batch{Seq: uint64(i + 1), Positions: []PositionRow{{MMSI: mmsi, TS: t0, Lat: seaLat, Lon: seaLon}}}
		if err := sp.put(b); err != nil {
			t.Fatal(err)
		}
	}
	names := spoolFiles(t, dir)
	if len(names) != 2 {
		t.Fatalf("%d spool files, want 2", len(names))
	}
	whole, err := os.ReadFile(filepath.Join(dir, names[1]))
	if err != nil {
		t.Fatal(err)
	}
	// A truncated copy of the second batch, sorting between the two.
	bad := strings.TrimSuffix(names[0], spoolExt) + "x" + spoolExt
	truncated := whole[:len(whole)/2]
	if err := os.WriteFile(filepath.Join(dir, bad), truncated, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.get(bad); err == nil {
		t.Fatal("a truncated batch decodes")
	}

	store := newMemStore()
	p := startPipeline(t, store, Options{SpoolDir: dir, RetryInterval: 5 * time.Millisecond, FlushInterval: time.Hour})
	waitFor(t, "the spool to be replayed", func() bool { st := p.Stats(); return st.SpoolFiles == 0 && !st.StoreDown })
	if got, want := mmsis(store.positions()), []uint32{211000001, 211000002}; !slices.Equal(got, want) {
		t.Errorf("replayed %v, want %v", got, want)
	}
	kept, err := os.ReadFile(filepath.Join(dir, "unreadable", bad))
	if err != nil {
		t.Fatalf("the unreadable batch was not moved aside: %v", err)
	}
	if !slices.Equal(kept, truncated) {
		t.Error("the unreadable batch was changed when moved aside")
	}
	if left := spoolFiles(t, dir); len(left) != 0 {
		t.Errorf("files left in the spool: %v", left)
	}
	if st := p.Stats(); st.SpoolBytes != 0 || st.Replayed != 2 {
		t.Errorf("stats %+v: want no spool bytes and 2 replayed", st)
	}
}

// TestReplayAfterSpoolWaitKeepsOrder checks that batches reach the store in
// the order they were made when the store comes back while the pipeline is
// waiting for spool space: batch 2 waits for room, the replay writes batch
// 1, and batch 2 must still go before batch 3. The store's ping fails for a
// while after batch 1 is replayed, so a batch 2 left in the spool is not
// replayed before batch 3 is made.
func TestReplayAfterSpoolWaitKeepsOrder(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	store.setDown(true)
	opts := testOptions(t)
	opts.BatchSize, opts.SpoolMaxBytes = 1, 1
	p := startPipeline(t, store, opts)
	submit(t, p, classB(211000001, t0), classB(211000002, t0), classB(211000003, t0))
	waitFor(t, "the pipeline to wait for spool space", func() bool { return p.Stats().SpoolFullWaits > 0 })

	store.mu.Lock()
	store.failWrite, store.failPing = false, false
	store.onWrite = func(b *Batch) {
		if b.Seq == 1 {
			store.failPings = 40 // about 200 ms of a store that takes writes but fails its ping
		}
	}
	store.mu.Unlock()
	waitFor(t, "all three batches", func() bool { return len(store.positions()) == 3 && p.Stats().SpoolFiles == 0 })
	if got := seqs(store.snapshot()); !slices.Equal(got, []uint64{1, 2, 3}) {
		t.Errorf("batches written in the order %v, want 1, 2, 3", got)
	}
}
