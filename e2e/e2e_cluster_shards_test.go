package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/testclock"
)

// The real AISHub capture (86% of its positions without an IMO: class B
// and vessels whose static report never came), replayed into the cluster,
// spreads its position history and static reports within ±20% of an even
// share on every shard: they are sharded by MMSI, which every row has.
func TestReplayBalancesTheShards(t *testing.T) {
	if chtest.Cluster() == "" {
		t.Skip("cluster mode only (make test-cluster)")
	}
	chURL := chtest.URL(t, "e2e_shards")
	base := testclock.Now().UTC().Truncate(time.Second).Add(-30 * time.Hour)
	path, _ := stampedCapture(t, base)
	env := map[string]string{"CLICKHOUSE_URL": chURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_ATTRIBUTION_WINDOW": "48h"}
	var out, errs strings.Builder
	if err := app.Run(context.Background(), []string{"overwatch", "replay", "--source", "aishub", path}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, &errs); err != nil {
		t.Fatalf("replay: %v\n%s", err, errs.String())
	}
	db, err := clickhouse.Open(chURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, table := range []string{"positions", "static_reports", "port_positions", "latest_positions"} {
		counts, err := db.ShardCounts(context.Background(), table)
		if err != nil {
			t.Fatal(err)
		}
		var total uint64
		for _, n := range counts {
			total += n
		}
		t.Logf("%s: %v rows per shard", table, counts)
		if table != "positions" && table != "static_reports" {
			continue // fewer vessels: logged, not held to the bound
		}
		even := float64(total) / float64(len(counts))
		if len(counts) < 2 || total < 1000 {
			t.Fatalf("%s: %v rows per shard", table, counts)
		}
		for i, n := range counts {
			if float64(n) < 0.8*even || float64(n) > 1.2*even {
				t.Errorf("%s: shard %d holds %d of %d rows, outside ±20%% of %.0f", table, i+1, n, total, even)
			}
		}
	}
}
