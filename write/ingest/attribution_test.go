package ingest

import (
	"testing"
	"time"

	"overwatch"
)

// window is the attribution window of these tests.
const window = 10 * time.Minute

// attributionPipeline starts a pipeline with the attribution window and a
// fake wall clock, on store.
func attributionPipeline(t *testing.T, store *memStore) (*Pipeline, *fakeClock) {
	t.Helper()
	clock := &fakeClock{t: t0}
	opts := testOptions(t)
	opts.AttributionWindow, opts.Now = window, clock.Now
	return startPipeline(t, store, opts), clock
}

// checkIMOs fails the test unless the positions written are, in order, of
// the given IMOs.
func checkIMOs(t *testing.T, store *memStore, want ...overwatch.IMO) {
	t.Helper()
	rows := store.positions()
	if len(rows) != len(want) {
		t.Fatalf("%d positions written, want %d: %+v", len(rows), len(want), rows)
	}
	for i, r := range rows {
		if r.IMO != want[i] {
			t.Errorf("position %d (MMSI %d at %v) written with IMO %d, want %d", i, r.MMSI, r.TS, r.IMO, want[i])
		}
	}
}

// TestClassAWaitsForItsIMO checks that class A positions of an MMSI without
// an IMO are held back, and written with the IMO of the vessel's first
// static report when it arrives; later positions carry it at once.
func TestClassAWaitsForItsIMO(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p, _ := attributionPipeline(t, store)
	const mmsi = 244000001
	imo := validIMO(931234)
	submit(t, p, classA(mmsi, t0), classA(mmsi, t0.Add(time.Minute)))
	flush(t, p)
	checkIMOs(t, store)
	if st := p.Stats(); st.Pending != 2 {
		t.Fatalf("Pending = %d, want 2", st.Pending)
	}

	submit(t, p, static5(mmsi, imo, "ALPHA", t0.Add(2*time.Minute)))
	flush(t, p)
	checkIMOs(t, store, imo, imo)
	b := store.snapshot()[0]
	if len(b.Statics) != 1 || b.Statics[0].IMO != imo {
		t.Errorf("static rows %+v: want one with IMO %d", b.Statics, imo)
	}
	if len(b.Latest) != 1 || b.Latest[0].IMO != imo || !b.Latest[0].TS.Equal(t0.Add(time.Minute)) {
		t.Errorf("latest rows %+v: want IMO %d at the newer position", b.Latest, imo)
	}

	submit(t, p, classA(mmsi, t0.Add(3*time.Minute)))
	flush(t, p)
	checkIMOs(t, store, imo, imo, imo)
	if st := p.Stats(); st.Pending != 0 || st.Unattributed != 0 {
		t.Errorf("Pending = %d, Unattributed = %d; want 0 and 0", st.Pending, st.Unattributed)
	}
}

// TestKnownVesselAttributedAtOnce checks that a class A position of an
// MMSI the loaded registry knows is written at once with its IMO.
func TestKnownVesselAttributedAtOnce(t *testing.T) {
	t.Parallel()
	imo := validIMO(907472)
	store := newMemStore(VesselRow{IMO: imo, MMSI: 244000001, Name: "KNOWN", FirstSeen: t0, LastSeen: t0})
	p, _ := attributionPipeline(t, store)
	submit(t, p, classA(244000001, t0.Add(time.Minute)))
	flush(t, p)
	checkIMOs(t, store, imo)
}

// TestWindowPassesOnWallClock checks that a waiting position is written
// with IMO 0 once it has waited the attribution window on the wall clock
// (a feed that stalls), not before, and that a static report arriving
// later does not write it again.
func TestWindowPassesOnWallClock(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p, clock := attributionPipeline(t, store)
	submit(t, p, classA(244000001, t0))
	flush(t, p)
	clock.advance(window - time.Second)
	flush(t, p)
	checkIMOs(t, store)

	clock.advance(time.Second)
	flush(t, p)
	checkIMOs(t, store, 0)
	if st := p.Stats(); st.Unattributed != 1 || st.Pending != 0 {
		t.Errorf("Unattributed = %d, Pending = %d; want 1 and 0", st.Unattributed, st.Pending)
	}

	imo := validIMO(931234)
	submit(t, p, static5(244000001, imo, "ALPHA", t0.Add(time.Minute)), classA(244000001, t0.Add(2*time.Minute)))
	flush(t, p)
	checkIMOs(t, store, 0, imo)
}

// TestWindowPassesOnReportTime checks that the window is also measured in
// report time: when the feed's reports (of any vessel) are the window past
// the first waiting position, it is written with IMO 0, though the wall
// clock has not moved.
func TestWindowPassesOnReportTime(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p, _ := attributionPipeline(t, store)
	submit(t, p, classA(244000001, t0), classB(211000001, t0.Add(window-time.Second)))
	flush(t, p)
	rows := store.positions()
	if len(rows) != 1 || rows[0].MMSI != 211000001 {
		t.Fatalf("written %+v: want only the class B position", rows)
	}

	submit(t, p, classB(211000001, t0.Add(window)))
	flush(t, p)
	rows = store.positions()
	if len(rows) != 3 || rows[2].MMSI != 244000001 || rows[2].IMO != 0 {
		t.Fatalf("written %+v: want the class A position last, with IMO 0", rows)
	}
	if st := p.Stats(); st.Unattributed != 1 {
		t.Errorf("Unattributed = %d, want 1", st.Unattributed)
	}
}

// TestOlderArchiveWaitsByItsOwnClock: an archive older than the data
// before it (imported after live data, or an older file after a newer one)
// keeps its class A positions waiting for their static reports by its own
// report times, not by the newer data's.
func TestOlderArchiveWaitsByItsOwnClock(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p, _ := attributionPipeline(t, store)
	const mmsi = 244000001
	imo := validIMO(931234)
	old := t0.Add(-365 * 24 * time.Hour)
	submit(t, p, classB(211000001, t0), classA(mmsi, old), classA(mmsi, old.Add(time.Minute)))
	flush(t, p)
	submit(t, p, static5(mmsi, imo, "ALPHA", old.Add(2*time.Minute)))
	flush(t, p)
	checkIMOs(t, store, 0, imo, imo)
	if st := p.Stats(); st.Unattributed != 0 {
		t.Errorf("Unattributed = %d, want 0", st.Unattributed)
	}
}

// TestOrphansClaimedByALaterIMO: class A positions stored without an IMO
// (their window passed with no static report; here the vessel went dark
// after them) are claimed when a static report names the MMSI later: the
// batch carries their reattribution to the IMO and a latest-position row
// for the newest of them; class B positions are never claimed.
func TestOrphansClaimedByALaterIMO(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p, _ := attributionPipeline(t, store)
	const mmsi = 244000001
	imo := validIMO(931234)
	submit(t, p, classA(mmsi, t0), classA(mmsi, t0.Add(time.Minute)), classB(211000001, t0))
	// Four days later: a class B report moves the clock past the window,
	// then the vessel's static report arrives.
	later := t0.Add(4 * 24 * time.Hour)
	submit(t, p, classB(211000001, later))
	flush(t, p)
	checkIMOs(t, store, 0, 0, 0, 0) // the class B ones, then the two expired class A
	submit(t, p, static5(mmsi, imo, "ALPHA", later.Add(time.Minute)))
	flush(t, p)
	var got []Reattribution
	var latest []overwatch.LatestRow
	for _, b := range store.snapshot() {
		got = append(got, b.Reattributions...)
		for _, l := range b.Latest {
			if l.IMO == imo {
				latest = append(latest, l)
			}
		}
	}
	want := Reattribution{MMSI: mmsi, IMO: imo, From: t0, To: t0.Add(time.Minute)}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("reattributions %+v, want %+v", got, want)
	}
	if len(latest) != 1 || !latest[0].TS.Equal(t0.Add(time.Minute)) {
		t.Errorf("latest rows %+v: want the newest orphan under the IMO", latest)
	}
	if st := p.Stats(); st.Reattributed != 1 {
		t.Errorf("Reattributed = %d, want 1", st.Reattributed)
	}
	// Once claimed, nothing is claimed again.
	submit(t, p, static5(mmsi, imo, "ALPHA", later.Add(time.Hour)))
	flush(t, p)
	n := 0
	for _, b := range store.snapshot() {
		n += len(b.Reattributions)
	}
	if n != 1 {
		t.Errorf("%d reattributions after a second static report, want 1", n)
	}
}

// TestClassBAndStaticWithoutIMOWrittenAtOnce checks that positions that
// cannot expect an IMO do not wait: class B positions, and class A
// positions of an MMSI whose static report carries no IMO.
func TestClassBAndStaticWithoutIMOWrittenAtOnce(t *testing.T) {
	t.Parallel()
	store := newMemStore()
	p, _ := attributionPipeline(t, store)
	noIMO := static5(244000002, 0, "NO IMO", t0)
	noIMO.Has &^= HasIMO
	submit(t, p, classB(211000001, t0), noIMO, classA(244000002, t0.Add(time.Minute)))
	flush(t, p)
	checkIMOs(t, store, 0, 0)
	if st := p.Stats(); st.Pending != 0 || st.Unattributed != 0 {
		t.Errorf("Pending = %d, Unattributed = %d; want 0 and 0", st.Pending, st.Unattributed)
	}
}

// TestInvalidIMONeverNamesVessel checks that an IMO failing its check digit
// (or not seven digits) is counted and never used: the static row, the
// registry, the identity history and the positions of the MMSI get no IMO
// from it, and a vessel with a valid IMO keeps it.
func TestInvalidIMONeverNamesVessel(t *testing.T) {
	t.Parallel()
	good := validIMO(907472)
	store := newMemStore(VesselRow{IMO: good, MMSI: 244000009, Name: "KNOWN", FirstSeen: t0, LastSeen: t0})
	p, _ := attributionPipeline(t, store)
	badCheck := good + 1 // seven digits, wrong check digit
	if badCheck%10 == 0 {
		badCheck -= 2
	}
	submit(t, p,
		classA(244000001, t0),
		static5(244000001, badCheck, "BAD CHECK", t0.Add(time.Minute)),
		static5(244000002, 244000002, "MMSI AS IMO", t0.Add(time.Minute)),
		classA(244000002, t0.Add(2*time.Minute)),
		static5(244000009, badCheck, "KNOWN", t0.Add(time.Minute)),
		classA(244000009, t0.Add(2*time.Minute)),
	)
	closePipeline(t, p) // writes the waiting position of 244000001 too

	byMMSI := map[uint32]overwatch.IMO{}
	for _, r := range store.positions() {
		byMMSI[r.MMSI] = r.IMO
	}
	want := map[uint32]overwatch.IMO{244000001: 0, 244000002: 0, 244000009: good}
	for mmsi, imo := range want {
		if got, ok := byMMSI[mmsi]; !ok || got != imo {
			t.Errorf("position of %d written with IMO %d (written: %v), want %d", mmsi, got, ok, imo)
		}
	}
	for _, s := range store.statics() {
		if s.IMO == badCheck || s.IMO == 244000002 {
			t.Errorf("static row of %d names the invalid IMO %d", s.MMSI, s.IMO)
		}
	}
	for _, b := range store.snapshot() {
		for _, v := range b.Vessels {
			if v.IMO != good {
				t.Errorf("registry row for IMO %d (MMSI %d)", v.IMO, v.MMSI)
			}
		}
		for _, id := range b.Identities {
			if id.IMO != good {
				t.Errorf("identity row %+v: only the vessel with a valid IMO has a history", id)
			}
		}
	}
	if st := p.Stats(); st.InvalidIMO != 3 {
		t.Errorf("InvalidIMO = %d, want 3", st.InvalidIMO)
	}
}
