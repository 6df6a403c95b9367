package clickhouse_test

import (
	"context"
	"testing"
)

// A caller that cancels its context right after an insert returns (a
// deferred cancel) must not break the pooled connection the insert used:
// the next query on it succeeds (ClickHouse/clickhouse-go#2032).
func TestInsertThenCancelKeepsThePoolUsable(t *testing.T) {
	db := openDB(t)
	bg := context.Background()
	if err := db.Exec(bg, "CREATE TABLE IF NOT EXISTS cancel_probe (n UInt32) ENGINE = Memory"); err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		ctx, cancel := context.WithCancel(bg)
		err := db.InsertRowsForTest(ctx, "cancel_probe", []string{"n"}, []any{uint32(i)})
		cancel()
		if err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
		if _, err := db.Count(bg, "SELECT count() FROM cancel_probe"); err != nil {
			t.Fatalf("the query after insert %d: %v", i, err)
		}
	}
}
