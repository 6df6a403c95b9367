package clickhouse

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// The Go intHash64 against the server's, for keys of every size.
func TestIntHash64MatchesTheServer(t *testing.T) {
	if got := intHash64(244660000); got != 4054907240443164780 { // SELECT intHash64(toUInt32(244660000)) on 18.16.1
		t.Fatalf("intHash64(244660000) = %d", got)
	}
	server := os.Getenv("CLICKHOUSE_TEST_SERVER")
	if server == "" {
		server = "clickhouse://127.0.0.1:9000"
	}
	db, err := Open(server + "/default")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	keys := []uint32{0, 1, 2, 255, 65535, 9321483, 211000000, 366999999, 4294967295}
	rows, err := db.conn.Conn.Query(context.Background(), "SELECT intHash64(k) FROM (SELECT arrayJoin(CAST(? AS Array(UInt32))) AS k)", keys)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("ClickHouse does not answer at %s: %v", server, err)
	}
	defer rows.Close()
	for i := 0; rows.Next(); i++ {
		var h uint64
		if err := rows.Scan(&h); err != nil {
			t.Fatal(err)
		}
		if h != intHash64(uint64(keys[i])) {
			t.Errorf("intHash64(%d): server %d, Go %d", keys[i], h, intHash64(uint64(keys[i])))
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestShardOfFollowsTheWeights(t *testing.T) {
	l := &shardLayout{replicas: [][]string{{"a"}, {"b"}}, slots: []int{0, 1, 1}}
	n := [2]int{}
	for k := uint32(0); k < 30000; k++ {
		s := l.shardOf(k)
		if s != l.slots[intHash64(uint64(k))%3] {
			t.Fatalf("key %d to shard %d", k, s)
		}
		n[s]++
	}
	if n[1] < 19000 || n[1] > 21000 {
		t.Errorf("weights 1 and 2 spread 30,000 keys as %v", n)
	}
}

// A cluster database whose Distributed tables an earlier version created
// (sharded by the IMO) is brought to shardKeys by Migrate, on every node.
func TestMigrateReshardsTheDistributedTables(t *testing.T) {
	name, server := os.Getenv("OVERWATCH_CLICKHOUSE_CLUSTER"), os.Getenv("CLICKHOUSE_TEST_SERVER")
	if name == "" || server == "" {
		t.Skip("cluster mode only (make test-cluster)")
	}
	ctx := context.Background()
	database := "ow_test_" + os.Getenv("OVERWATCH_TEST_DB_PREFIX") + "reshard"
	db, err := Open(server + "/" + database + "?cluster=" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.ensureDatabase(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.conn.Conn.Exec(ctx, "DROP DATABASE IF EXISTS "+database+" ON CLUSTER "+name); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	nodes, err := db.conn.nodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, node := range nodes {
		one, err := db.conn.node(node.addr)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range []string{"DROP TABLE " + database + ".positions",
			"CREATE TABLE " + database + ".positions AS " + database + ".positions_local ENGINE = Distributed(" + name + ", " + database + ", positions_local, cityHash64(imo))"} {
			if err := one.Exec(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	for _, node := range nodes {
		one, _ := db.conn.node(node.addr)
		for table := range shardKeys {
			var engine string
			if err := one.QueryRow(ctx, "SELECT engine_full FROM system.tables WHERE database = ? AND name = ?", database, table).Scan(&engine); err != nil {
				t.Fatalf("%s on %s: %v", table, node.addr, err)
			}
			if !strings.Contains(engine, shardExpression(table)) {
				t.Errorf("%s on %s: %s, want sharding by %s", table, node.addr, engine, shardExpression(table))
			}
		}
	}
	if err := db.conn.Conn.Exec(ctx, "DROP DATABASE IF EXISTS "+database+" ON CLUSTER "+name); err != nil {
		t.Error(err)
	}
}

// BenchmarkShardSplit: the Go side of a direct shard write, per 50,000-row
// positions batch: each row's shard, then every column picked per shard.
func BenchmarkShardSplit(b *testing.B) {
	const n = 50_000
	l := &shardLayout{replicas: [][]string{{"a"}, {"b"}}, slots: []int{0, 1}}
	mmsi := make([]uint32, n)
	u32, f64, u64 := make([]uint32, n), make([]float64, n), make([]uint64, n)
	str, ts := make([]string, n), make([]time.Time, n)
	p32 := make([]*float32, n)
	for i := range mmsi {
		mmsi[i] = uint32(200000000 + i%5000)
	}
	cols := []any{u32, mmsi, str, ts, f64, f64, p32, p32, p32, u32, p32, str, u32, ts, str, u64}
	b.ReportAllocs()
	for b.Loop() {
		perShard := make([][]int, 2)
		for i := range mmsi {
			s := l.shardOf(mmsi[i])
			perShard[s] = append(perShard[s], i)
		}
		for _, rows := range perShard {
			for _, c := range cols {
				pick(c, rows)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
}
