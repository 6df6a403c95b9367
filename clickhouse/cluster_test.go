package clickhouse

import (
	"strings"
	"testing"
)

// The cluster rendering of the migrations and queries, without a server
// (the integration tests run the whole package in cluster mode: make
// test-cluster).
func TestClusterRendering(t *testing.T) {
	c, err := newCluster("overwatch", "db")
	if err != nil {
		t.Fatal(err)
	}
	sharded := c.render("CREATE TABLE IF NOT EXISTS static_reports (\n mmsi UInt32,\n imo UInt32,\n ts DateTime('UTC')\n) ENGINE = ReplacingMergeTree\nPARTITION BY toYYYYMM(ts)\nORDER BY (mmsi, ts, dedup_key)")
	if len(sharded) != 2 || sharded[0].target != onHosts || sharded[1].target != onHosts {
		t.Fatalf("a sharded table renders as %+v", sharded)
	}
	for _, want := range []string{"CREATE TABLE IF NOT EXISTS db.static_reports_local (", "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/db/static_reports', '{replica}')", "ORDER BY (mmsi, ts, dedup_key)"} {
		if !strings.Contains(sharded[0].sql, want) {
			t.Errorf("local table %q lacks %q", sharded[0].sql, want)
		}
	}
	if want := "CREATE TABLE IF NOT EXISTS db.static_reports AS db.static_reports_local ENGINE = Distributed(overwatch, db, static_reports_local, intHash64(mmsi))"; sharded[1].sql != want {
		t.Errorf("distributed table:\n%s\nwant\n%s", sharded[1].sql, want)
	}

	derived := c.render("CREATE TABLE IF NOT EXISTS vessel_risk (day Date, gen UInt64) ENGINE = ReplacingMergeTree(computed_at) ORDER BY (imo, gen)")
	if len(derived) != 1 || !strings.Contains(derived[0].sql, "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/db/vessel_risk', '{shard}-{replica}', computed_at)") {
		t.Errorf("a derived table renders as %+v", derived)
	}

	add := c.render("ALTER TABLE vessels ADD COLUMN static_at DateTime('UTC') DEFAULT last_seen")
	if len(add) != 2 || add[0].sql != "ALTER TABLE db.vessels_local ADD COLUMN static_at DateTime('UTC') DEFAULT last_seen" || add[0].target != onShards ||
		add[1].sql != "ALTER TABLE db.vessels ADD COLUMN static_at DateTime('UTC') DEFAULT last_seen" || add[1].target != onHosts {
		t.Errorf("ADD COLUMN on a sharded table renders as %+v", add)
	}
	if del := c.render("ALTER TABLE port_calls DELETE WHERE gen < 3"); len(del) != 1 || del[0].target != onPool {
		t.Errorf("a mutation of a replicated table renders as %+v", del)
	}
	c.noMutations = true
	if del := c.render("ALTER TABLE port_calls DELETE WHERE gen < 3"); len(del) != 0 {
		t.Errorf("a mutation on 18.x renders as %+v", del)
	}
	if opt := c.render("OPTIMIZE TABLE positions FINAL"); len(opt) != 1 || opt[0].sql != "OPTIMIZE TABLE db.positions_local FINAL" || opt[0].target != onShards ||
		opt[0].settings["replication_alter_partitions_sync"] != 0 {
		t.Errorf("OPTIMIZE renders as %+v", opt)
	}

	q := c.qualify("SELECT imo FROM positions FINAL WHERE imo IN (SELECT imo FROM static_reports) AND (day, gen) IN (SELECT day, max(gen) FROM derivation_days) AND positions_seen > 0")
	for _, want := range []string{"FROM db.positions FINAL", "FROM db.static_reports)", "FROM db.derivation_days)", "positions_seen > 0", "SETTINGS distributed_product_mode = 'global'"} {
		if !strings.Contains(q, want) {
			t.Errorf("qualified query %q lacks %q", q, want)
		}
	}
	if q := c.qualify("SELECT count() FROM port_calls WHERE (day, gen) IN (SELECT day, max(gen) FROM derivation_days)"); strings.Contains(q, "SETTINGS") {
		t.Errorf("a query of replicated tables got settings: %q", q)
	}
	var single *cluster
	if q := "SELECT 1 FROM positions"; single.qualify(q) != q {
		t.Error("a single node rewrote a query")
	}
}

func TestClusterURL(t *testing.T) {
	if got := WithCluster("clickhouse://a:9000,b:9000/db", "overwatch"); got != "clickhouse://a:9000,b:9000/db?cluster=overwatch" {
		t.Errorf("WithCluster: %s", got)
	}
	if got := WithCluster("clickhouse://a:9000/db?dial_timeout=1s", "overwatch"); got != "clickhouse://a:9000/db?dial_timeout=1s&cluster=overwatch" {
		t.Errorf("WithCluster with parameters: %s", got)
	}
	if got := WithCluster("clickhouse://a:9000/db", ""); got != "clickhouse://a:9000/db" {
		t.Errorf("WithCluster without a cluster: %s", got)
	}
	url, name, err := splitCluster("clickhouse://a:9000,b:9000/db?cluster=overwatch&dial_timeout=1s")
	if err != nil || name != "overwatch" || url != "clickhouse://a:9000,b:9000/db?dial_timeout=1s" {
		t.Errorf("splitCluster: %q %q %v", url, name, err)
	}
	if _, _, err := splitCluster("clickhouse://a/db?cluster=bad%20name"); err == nil {
		t.Error("a bad cluster name was accepted")
	}
	db, err := Open("clickhouse://127.0.0.1:1,127.0.0.1:2/db?cluster=overwatch")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Cluster() != "overwatch" || db.Database() != "db" || len(db.opts.Addr) != 2 || db.opts.Settings["insert_distributed_sync"] != 1 {
		t.Errorf("Open in cluster mode: cluster %q, database %q, opts %+v", db.Cluster(), db.Database(), db.opts)
	}
}
