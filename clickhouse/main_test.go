package clickhouse_test

import (
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
	"predictions_purge", "risk", "sanctions", "sar_gaps", "sar_store", "shard_writer", "static_intervals",
	"trade", "trade_routes",
}

// TestMain prepares the test databases, then runs the tests.
func TestMain(m *testing.M) {
	if err := chtest.Prepare(testDatabases...); err != nil {
		// The tests that ask for a database that failed here create it
		// themselves, and skip or fail as chtest says.
		fmt.Fprintf(os.Stderr, "clickhouse tests: preparing the test databases: %v\n", err)
	}
	os.Exit(m.Run())
}
