package clickhouse_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/seaport"
	"overwatch/testclock"
	"overwatch/write/ingest"
)

var testMMSI atomic.Uint32

func init() { testMMSI.Store(636000000) }

// nextMMSI returns a Liberian MMSI no other test uses.
func nextMMSI() uint32 { return testMMSI.Add(1) }

func startPipeline(t *testing.T, db *clickhouse.DB, opts ingest.Options) *ingest.Pipeline {
	t.Helper()
	if opts.SpoolDir == "" {
		opts.SpoolDir = t.TempDir()
	}
	if opts.FlushInterval == 0 {
		opts.FlushInterval = time.Hour // tests flush explicitly
	}
	if opts.RetryInterval == 0 {
		opts.RetryInterval = 50 * time.Millisecond
	}
	opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	p, err := ingest.New(db, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p.Close(ctx) //nolint:errcheck
	})
	return p
}

func position(mmsi uint32, typ uint8, ts time.Time, lat, lon float64) ingest.Report {
	return ingest.Report{
		Source: overwatch.SourceAISHub, MMSI: mmsi, Type: typ, TS: ts, ReceivedAt: ts,
		Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasNavStatus,
		Lat: lat, Lon: lon, SOG: 11.5, COG: 92.3, NavStatus: 0,
	}
}

func static5(mmsi uint32, imo overwatch.IMO, ts time.Time, name string, draught float64) ingest.Report {
	return ingest.Report{
		Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 5, TS: ts, ReceivedAt: ts,
		Has: ingest.HasIMO | ingest.HasName | ingest.HasCallSign | ingest.HasShipType | ingest.HasDimensions | ingest.HasDraught | ingest.HasDestination,
		IMO: imo, Name: name, CallSign: "D5AB7", ShipType: 70, ToBow: 150, ToStern: 30, ToPort: 16, ToStarboard: 16,
		Draught: draught, Destination: "CNQDG",
	}
}

func submit(t *testing.T, p *ingest.Pipeline, reports ...ingest.Report) {
	t.Helper()
	for _, r := range reports {
		if err := p.Submit(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

func flush(t *testing.T, p *ingest.Pipeline) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, db *clickhouse.DB, query string, args ...any) uint64 {
	t.Helper()
	n, err := db.Count(context.Background(), query, args...)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPipelineAttributesPositionsOnceTheIMOIsKnown(t *testing.T) {
	db := openDB(t)
	p := startPipeline(t, db, ingest.Options{})
	mmsi, imo := nextMMSI(), overwatch.IMO(9321483)
	t0 := testclock.Now().UTC().Truncate(time.Second).Add(-time.Hour)
	submit(t, p, position(mmsi, 1, t0, 10, 20), position(mmsi, 1, t0.Add(time.Minute), 10.01, 20.01))
	flush(t, p)
	if n := count(t, db, "SELECT count() FROM positions FINAL WHERE mmsi = ?", mmsi); n != 0 {
		t.Fatalf("class A positions did not wait for their IMO: %d stored", n)
	}
	if s := p.Stats(); s.Pending != 2 {
		t.Fatalf("pending %d, want 2", s.Pending)
	}
	submit(t, p, static5(mmsi, imo, t0.Add(90*time.Second), "FIRST LIGHT", 7))
	flush(t, p)
	if n := count(t, db, "SELECT count() FROM positions FINAL WHERE mmsi = ? AND imo = ?", mmsi, imo); n != 2 {
		t.Fatalf("waiting positions were not attributed when the IMO came: %d", n)
	}

	// A second vessel: its static report arrives within the window.
	mmsi2, imo2 := nextMMSI(), overwatch.IMO(9074729)
	submit(t, p, position(mmsi2, 3, t0, 30, 40), static5(mmsi2, imo2, t0.Add(2*time.Minute), "OCEAN PRIDE", 9.8),
		position(mmsi2, 3, t0.Add(3*time.Minute), 30.02, 40.02))
	flush(t, p)
	if n := count(t, db, "SELECT count() FROM positions FINAL WHERE mmsi = ? AND imo = ?", mmsi2, imo2); n != 2 {
		t.Fatalf("positions before and after the static report carry the IMO: %d", n)
	}
	var got struct {
		name, flag, typ, dest, nav string
		draft, lat                 float64
	}
	err := chtest.Open(t, chtest.URL(t, "clickhouse")).QueryRow(t, `SELECT vessel_name, flag, vessel_type, destination, nav_status, draft_m, lat
		FROM latest_positions FINAL WHERE imo = ? AND source = 'aishub'`, imo2).Scan(&got.name, &got.flag, &got.typ, &got.dest, &got.nav, &got.draft, &got.lat)
	if err != nil {
		t.Fatal(err)
	}
	if got.name != "OCEAN PRIDE" || got.flag != "LR" || got.typ == "" || got.dest != "CNQDG" || got.nav == "" || got.lat != 30.02 || got.draft < 9.79 || got.draft > 9.81 {
		t.Errorf("latest row %+v", got)
	}
	if n := count(t, db, "SELECT count() FROM vessels FINAL WHERE imo = ? AND mmsi = ? AND name = 'OCEAN PRIDE' AND length_m = 180 AND beam_m = 32", imo2, mmsi2); n != 1 {
		t.Errorf("registry row missing or wrong")
	}
	if n := count(t, db, "SELECT count() FROM static_reports FINAL WHERE mmsi = ? AND imo = ?", mmsi2, imo2); n != 1 {
		t.Errorf("static report stored %d times", n)
	}

	// Identity changes are kept as history; a repeat of the same identity is not.
	submit(t, p, static5(mmsi2, imo2, t0.Add(10*time.Minute), "OCEAN PRIDE", 12.1),
		static5(mmsi2, imo2, t0.Add(20*time.Minute), "SEA PRIDE", 12.1))
	flush(t, p)
	if n := count(t, db, "SELECT count() FROM vessel_identity FINAL WHERE imo = ?", imo2); n != 2 {
		t.Errorf("identity history has %d rows, want 2 (initial, renamed)", n)
	}
	if n := count(t, db, "SELECT count() FROM vessels FINAL WHERE imo = ? AND name = 'SEA PRIDE' AND max_draft_m > 12", imo2); n != 1 {
		t.Errorf("registry did not follow the rename and the draught")
	}
}

func TestPipelineAttributionWindow(t *testing.T) {
	db := openDB(t)
	var now atomic.Int64
	start := testclock.Now().UTC().Truncate(time.Second)
	now.Store(start.UnixNano())
	p := startPipeline(t, db, ingest.Options{AttributionWindow: 10 * time.Minute, Now: func() time.Time { return time.Unix(0, now.Load()).UTC() }})
	classA, classB := nextMMSI(), nextMMSI()
	submit(t, p, position(classA, 1, start, 1, 1), position(classB, 18, start, 2, 2))
	p.Submit(context.Background(), ingest.Report{Source: overwatch.SourceAISHub, MMSI: classB, Type: 24, TS: start, Has: ingest.HasName, Name: "YACHT"}) //nolint:errcheck
	flush(t, p)
	waitStats(t, p, func(s ingest.Stats) bool { return s.Pending == 1 })
	if n := count(t, db, "SELECT count() FROM positions FINAL WHERE mmsi = ?", classB); n != 1 {
		t.Errorf("a class B position waited: %d stored", n)
	}
	if n := count(t, db, "SELECT count() FROM positions FINAL WHERE mmsi = ?", classA); n != 0 {
		t.Errorf("a class A position did not wait for its IMO")
	}
	now.Store(start.Add(11 * time.Minute).UnixNano())
	flush(t, p)
	waitStats(t, p, func(s ingest.Stats) bool { return s.Pending == 0 && s.Unattributed == 1 })
	if n := count(t, db, "SELECT count() FROM positions FINAL WHERE mmsi = ? AND imo = 0", classA); n != 1 {
		t.Errorf("after the window the position is stored unattributed: %d", n)
	}
}

func waitStats(t *testing.T, p *ingest.Pipeline, ok func(ingest.Stats) bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok(p.Stats()) {
		if time.Now().After(deadline) {
			t.Fatalf("stats never got there: %+v", p.Stats())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestPipelineDeduplicatesAndTagsPorts(t *testing.T) {
	db := openDB(t)
	p := startPipeline(t, db, ingest.Options{})
	mmsi := nextMMSI()
	port := seaport.All()[0]
	t0 := testclock.Now().UTC().Truncate(time.Second)
	r := position(mmsi, 18, t0, port.Area.Lat, port.Area.Lon)
	other := r
	other.Source = overwatch.SourceSpire // the same report from another provider is kept
	submit(t, p, r, r, other)
	flush(t, p)
	if s := p.Stats(); s.Duplicates != 1 {
		t.Errorf("duplicates %d, want 1", s.Duplicates)
	}
	if n := count(t, db, "SELECT count() FROM positions WHERE mmsi = ?", mmsi); n != 2 {
		t.Errorf("stored %d rows, want 2 (one per provider)", n)
	}
	if n := count(t, db, "SELECT count() FROM port_positions WHERE mmsi = ? AND port = ?", mmsi, port.Slug); n != 2 {
		t.Errorf("port_positions has %d rows for %s", n, port.Slug)
	}
}

func TestWriteBatchIsIdempotent(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	mmsi := nextMMSI()
	b := &ingest.Batch{}
	for i := 0; i < 100; i++ {
		b.Positions = append(b.Positions, ingest.PositionRow{MMSI: mmsi, IMO: 9321483, Source: overwatch.SourceSpire,
			TS: time.Unix(1700000000+int64(i), 0).UTC(), Lat: 1, Lon: 2, DedupKey: uint64(i) + 1})
	}
	for i := 0; i < 3; i++ {
		if err := db.WriteBatch(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(t, db, "SELECT count() FROM positions FINAL WHERE mmsi = ?", mmsi); n != 100 {
		t.Fatalf("a batch written three times holds %d rows, want 100", n)
	}
}

func TestPipelineSpoolsWhileTheStoreIsUnreachable(t *testing.T) {
	direct := openDB(t)
	host, _, _ := strings.Cut(strings.TrimPrefix(chtest.Server(), "clickhouse://"), ",") // a cluster's first node
	proxy := chtest.NewProxy(t, host)
	database := strings.TrimPrefix(chtest.URL(t, "clickhouse"), chtest.Server()+"/")
	db, err := clickhouse.Open("clickhouse://" + proxy.Addr + "/" + database)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := startPipeline(t, db, ingest.Options{})
	mmsi := nextMMSI()
	t0 := testclock.Now().UTC().Truncate(time.Second)
	proxy.Cut()
	for i := 0; i < 1000; i++ {
		submit(t, p, position(mmsi, 18, t0.Add(time.Duration(i)*time.Second), 5, 5))
	}
	flush(t, p)
	s := p.Stats()
	if !s.StoreDown || s.SpoolFiles != 1 || s.Spooled != 1000 {
		t.Fatalf("while down: %+v", s)
	}
	submit(t, p, position(mmsi, 18, t0.Add(2000*time.Second), 5, 5))
	flush(t, p) // spooled without trying the store
	if s := p.Stats(); s.SpoolFiles != 2 || s.WriteErrors != 1 {
		t.Fatalf("second batch: %+v", s)
	}
	proxy.Restore(t)
	waitStats(t, p, func(s ingest.Stats) bool { return s.SpoolFiles == 0 && !s.StoreDown })
	if n := count(t, direct, "SELECT count() FROM positions FINAL WHERE mmsi = ?", mmsi); n != 1001 {
		t.Fatalf("after recovery %d positions stored, want 1001", n)
	}
	if s := p.Stats(); s.Replayed != 1001 || s.Written != 1001 {
		t.Errorf("after recovery: %+v", s)
	}
}

// In a replay of history the attribution window runs on report time: a
// later report of any vessel ends the wait, however fast the replay.
func TestPipelineAttributionWindowFollowsReportTime(t *testing.T) {
	db := openDB(t)
	p := startPipeline(t, db, ingest.Options{AttributionWindow: 10 * time.Minute})
	waiting, other := nextMMSI(), nextMMSI()
	t0 := testclock.Now().UTC().Truncate(time.Second).Add(-48 * time.Hour)
	submit(t, p, position(waiting, 1, t0, 3, 3))
	flush(t, p)
	if s := p.Stats(); s.Pending != 1 {
		t.Fatalf("pending %d", s.Pending)
	}
	submit(t, p, position(other, 18, t0.Add(11*time.Minute), 4, 4))
	flush(t, p)
	waitStats(t, p, func(s ingest.Stats) bool { return s.Pending == 0 })
	if n := count(t, db, "SELECT count() FROM positions FINAL WHERE mmsi = ? AND imo = 0", waiting); n != 1 {
		t.Errorf("the position did not expire by report time: %d stored", n)
	}
}
