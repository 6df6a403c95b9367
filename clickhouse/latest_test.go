package clickhouse_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/read"
	"overwatch/testclock"
)

// openDB opens the database most tests of the package share.
func openDB(t *testing.T) *clickhouse.DB { return chtest.DB(t, "clickhouse") }

func ptr[T any](v T) *T { return &v }

func row(imo overwatch.IMO, src overwatch.Source, ts time.Time, lat float64) overwatch.LatestRow {
	return overwatch.LatestRow{
		IMO: imo, Source: src, TS: ts, MMSI: 636000000 + uint32(imo)%1000,
		VesselName: ptr("TEST " + imo.String()), Flag: ptr("LR"),
		Lat: ptr(lat), Lon: ptr(lat / 2), SpeedKt: ptr(12.5), CourseDeg: ptr(271.0),
		NavStatus: ptr("under way using engine"),
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	db := openDB(t)
	applied, err := db.Migrate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != 0 {
		t.Errorf("second migrate applied %v", applied)
	}
}

func TestLatestReplicaFollowsStore(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	base := testclock.Now().UTC().Truncate(time.Second).Add(-time.Hour)
	const a, b = 9000001, 9000002
	noCoords := row(b, overwatch.SourceAISHub, base, 0)
	noCoords.Lat, noCoords.Lon = nil, nil
	if err := db.InsertLatest(ctx, []overwatch.LatestRow{
		row(a, overwatch.SourceAISHub, base, 10),
		row(a, overwatch.SourceSpire, base.Add(10*time.Minute), 20),
		row(a, overwatch.SourceNone, base.Add(-time.Hour), 30),
		noCoords,
		row(b, overwatch.SourceSatellite, base.Add(-2*time.Hour), 40),
	}); err != nil {
		t.Fatal(err)
	}
	now := testclock.Now()
	replica := read.NewLatestReplica(db, time.Minute, func() time.Time { return now }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, _, err := replica.Latest(ctx, a, "any"); !errors.Is(err, read.ErrStale) {
		t.Fatalf("before the first sync: %v, want ErrStale", err)
	}
	if err := replica.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	expect := func(imo overwatch.IMO, provider overwatch.Source, found bool, lat float64) {
		t.Helper()
		got, ok, err := replica.Latest(ctx, imo, provider)
		if err != nil || ok != found {
			t.Fatalf("Latest(%d, %s) = %v, %v; want found=%v", imo, provider, ok, err, found)
		}
		if found && (got.Lat == nil || *got.Lat != lat) {
			t.Fatalf("Latest(%d, %s) lat = %v, want %v", imo, provider, got.Lat, lat)
		}
	}
	expect(a, "aishub", true, 10)
	expect(a, "spire", true, 20)
	expect(a, "any", true, 20)
	expect(a, "satellite", false, 0)
	expect(b, "satellite", true, 40)
	expect(b, "any", true, 40) // the newer aishub row has no position
	got, ok, _ := replica.Latest(ctx, b, "aishub")
	if !ok || got.Lat != nil {
		t.Fatalf("a row without coordinates is returned as such: %+v %v", got, ok)
	}
	expect(9999999, "any", false, 0)

	// A newer report replaces the row; an older one arriving late does not.
	if err := db.InsertLatest(ctx, []overwatch.LatestRow{
		row(a, overwatch.SourceAISHub, base.Add(20*time.Minute), 11),
		row(a, overwatch.SourceSpire, base.Add(5*time.Minute), 21),
	}); err != nil {
		t.Fatal(err)
	}
	if err := replica.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	expect(a, "aishub", true, 11)
	expect(a, "spire", true, 20)
	expect(a, "any", true, 11)
	full, _, _ := replica.Latest(ctx, a, "aishub")
	if full.Source != overwatch.SourceAISHub || *full.VesselName != "TEST 9000001" || *full.SpeedKt != 12.5 || !full.TS.Equal(base.Add(20*time.Minute)) {
		t.Errorf("row fields did not survive the round trip: %+v", full)
	}
	none, ok, _ := replica.Latest(ctx, a, "any")
	if !ok || none.Source == overwatch.SourceNone {
		t.Errorf("any picked the unattributed older row")
	}

	// Past the staleness bound without a successful pass, lookups fail.
	now = now.Add(2 * time.Minute)
	if _, _, err := replica.Latest(ctx, a, "any"); !errors.Is(err, read.ErrStale) {
		t.Fatalf("stale replica: %v, want ErrStale", err)
	}
}

func TestLatestReplicaUnreachableStore(t *testing.T) {
	db, err := clickhouse.Open("clickhouse://127.0.0.1:1/overwatch")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	replica := read.NewLatestReplica(db, time.Minute, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := replica.Sync(context.Background()); err == nil {
		t.Fatal("sync against a closed port succeeded")
	}
	if _, _, err := replica.Latest(context.Background(), 1, "any"); !errors.Is(err, read.ErrStale) {
		t.Fatalf("got %v, want ErrStale", err)
	}
}

func TestHealthCounts(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	before, err := db.HealthCounts(ctx, testclock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.InsertLatest(ctx, []overwatch.LatestRow{row(9100001, overwatch.SourceAISHub, testclock.Now(), 1), row(9100001, overwatch.SourceSpire, testclock.Now(), 1), row(9100002, overwatch.SourceSpire, testclock.Now(), 1)}); err != nil {
		t.Fatal(err)
	}
	after, err := db.HealthCounts(ctx, testclock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if after.Vessels != before.Vessels+2 {
		t.Errorf("vessels %d -> %d, want +2", before.Vessels, after.Vessels)
	}
}

// countingFeed counts the rows each pass delivers.
type countingFeed struct {
	db   *clickhouse.DB
	rows int
}

func (f *countingFeed) LatestChanges(ctx context.Context, since time.Time, fn func(overwatch.LatestRow) error) (time.Time, error) {
	f.rows = 0
	return f.db.LatestChanges(ctx, since, func(r overwatch.LatestRow) error {
		if r.IMO >= 9200000 && r.IMO < 9200500 { // this test's rows, not those other tests of the package write meanwhile
			f.rows++
		}
		return fn(r)
	})
}

// A pass re-reads only the few seconds before the previous pass, never the
// whole store: a bulk load is read once, then passes deliver nothing new.
func TestLatestReplicaPassesAreIncremental(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	var rows []overwatch.LatestRow
	for i := 0; i < 500; i++ {
		rows = append(rows, row(9200000+overwatch.IMO(i), overwatch.SourceSpire, testclock.Now(), 3))
	}
	if err := db.InsertLatest(ctx, rows); err != nil {
		t.Fatal(err)
	}
	feed := &countingFeed{db: db}
	replica := read.NewLatestReplica(feed, time.Minute, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := replica.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if feed.rows < 500 {
		t.Fatalf("first pass delivered %d rows", feed.rows)
	}
	time.Sleep(4500 * time.Millisecond) // past the 3 s overlap
	if err := replica.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if err := replica.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	// In cluster mode a pass reads 30 s further back (a replica that
	// catches up after a failover gets rows received earlier): the load
	// is still inside that window.
	reread := 0
	if chtest.Cluster() != "" {
		reread = 500
	}
	if feed.rows != reread {
		t.Fatalf("a pass long after the load re-read %d rows, want %d", feed.rows, reread)
	}
	if err := db.InsertLatest(ctx, rows[:7]); err != nil {
		t.Fatal(err)
	}
	if err := replica.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if feed.rows != 7+reread {
		t.Fatalf("a pass after 7 new rows delivered %d", feed.rows)
	}
}

// BenchmarkLatestReplicaLookup measures the public lookup's read of the
// replica, filled from the real store with 100,000 vessels x 4 sources.
func BenchmarkLatestReplicaLookup(b *testing.B) {
	db := chtest.DB(b, "clickhouse_bench")
	ctx := context.Background()
	const vessels = 100000
	if c, _ := db.HealthCounts(ctx, testclock.Now()); c.Vessels != vessels {
		var rows []overwatch.LatestRow
		for i := 0; i < vessels; i++ {
			for _, src := range overwatch.Sources {
				rows = append(rows, row(1000000+overwatch.IMO(i), src, testclock.Now().Add(-time.Duration(i)*time.Second), 1))
			}
		}
		if err := db.InsertLatest(ctx, rows); err != nil {
			b.Fatal(err)
		}
	}
	replica := read.NewLatestReplica(db, time.Hour, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := replica.Sync(ctx); err != nil {
		b.Fatal(err)
	}
	providers := overwatch.Providers()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			if _, ok, err := replica.Latest(ctx, 1000000+overwatch.IMO(i*7919%vessels), providers[i%5]); !ok || err != nil {
				b.Fatal("lookup failed", err)
			}
		}
	})
}
