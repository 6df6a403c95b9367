package clickhouse_test

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"overwatch/clickhouse/chtest"
)

// testDatabases are the databases this package's tests ask chtest for,
// created and migrated side by side before the tests run (chtest.Prepare;
// in cluster mode the migrations, DDL ON CLUSTER, are most of the
// package's time). A name missing here is created by the first test that
// asks for it, as before.
var testDatabases = []string{
	"analytics", "calibration", "clickhouse", "clickhouse_changelog", "clickhouse_changelog_derived",
	"clickhouse_migrate_race", "clickhouse_reattribute", "clickhouse_reattribute_many", "crop", "disruptions",
	"earnings", "emissions", "forecasts", "freight", "prediction_tracks", "predictions", "predictions_newest",
	"predictions_purge", "presence", "presence_chunks", "risk", "sanctions", "sar_gaps", "sar_store", "shard_writer", "static_intervals",
	"trade", "trade_routes",
}

// TestMain prepares the test databases, then runs the tests; a run of
// the benchmarks alone (-run '^$', make test-bench-smoke) prepares none.
func TestMain(m *testing.M) {
	flag.Parse()
	if run := flag.Lookup("test.run"); run != nil && run.Value.String() == "^$" {
		os.Exit(m.Run())
	}
	if err := chtest.Prepare(testDatabases...); err != nil {
		// The tests that ask for a database that failed here create it
		// themselves, and skip or fail as chtest says.
		fmt.Fprintf(os.Stderr, "clickhouse tests: preparing the test databases: %v\n", err)
	}
	os.Exit(m.Run())
}
