package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/testclock"
)

// A caller that cancels its context right after an insert returns (a
// deferred cancel) must not break the pooled connection the insert used:
// the next query on it succeeds (ClickHouse/clickhouse-go#2032).
func TestInsertThenCancelKeepsThePoolUsable(t *testing.T) {
	db := openDB(t)
	bg := context.Background()
	n := 1000
	if chtest.Cluster() != "" {
		n = 100 // each insert goes through ZooKeeper: ~0.2 s
	}
	for i := range n {
		ctx, cancel := context.WithCancel(bg)
		err := db.InsertLatest(ctx, []overwatch.LatestRow{{IMO: overwatch.IMO(8000000 + i), Source: overwatch.SourceSpire, TS: testclock.Now().UTC().Truncate(time.Second)}})
		cancel()
		if err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
		if _, err := db.Count(bg, "SELECT count() FROM latest_positions"); err != nil {
			t.Fatalf("the query after insert %d: %v", i, err)
		}
	}
}
