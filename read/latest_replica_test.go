package read

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
)

// growingFeed returns, on each pass, every vessel with a name it has not
// had before, so that each pass appends to the replica's interned
// strings.
type growingFeed struct {
	pass    atomic.Int64
	vessels int
	now     time.Time
}

func (f *growingFeed) LatestChanges(_ context.Context, _ time.Time, fn func(overwatch.LatestRow) error) (time.Time, error) {
	p := f.pass.Add(1)
	for i := range f.vessels {
		name := fmt.Sprintf("VESSEL %d PASS %d", i, p)
		lat, lon := float64(p), float64(i)
		row := overwatch.LatestRow{IMO: overwatch.IMO(1000000 + i), Source: overwatch.SourceAISHub, TS: f.now.Add(time.Duration(p) * time.Second),
			VesselName: &name, Lat: &lat, Lon: &lon}
		if err := fn(row); err != nil {
			return time.Time{}, err
		}
	}
	return f.now, nil
}

// TestLatestReplicaRowsOutliveUpdates: a row a lookup returned keeps its
// values while later passes replace the vessel's entry and grow the
// interned strings its text points into (run with -race to check the
// sharing).
func TestLatestReplicaRowsOutliveUpdates(t *testing.T) {
	now := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	feed := &growingFeed{vessels: 200, now: now}
	r := NewLatestReplica(feed, time.Hour, func() time.Time { return now }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := r.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := r.Sync(context.Background()); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for k := 0; k < 2000; k++ {
		i := k % feed.vessels
		row, ok, err := r.Latest(context.Background(), overwatch.IMO(1000000+i), overwatch.SourceAISHub)
		if err != nil || !ok {
			t.Fatalf("vessel %d: %v %v", i, ok, err)
		}
		pass := int64(*row.Lat)
		name := *row.VesselName
		time.Sleep(10 * time.Microsecond) // let passes replace the entry
		if want := fmt.Sprintf("VESSEL %d PASS %d", i, pass); *row.VesselName != want || name != want || *row.Lon != float64(i) || int64(*row.Lat) != pass {
			t.Fatalf("vessel %d: row changed under its reader: %q, lat %v lon %v, want %q", i, *row.VesselName, *row.Lat, *row.Lon, want)
		}
	}
	close(stop)
	wg.Wait()
	if feed.pass.Load() < 3 {
		t.Fatalf("only %d passes ran beside the lookups", feed.pass.Load())
	}
}
