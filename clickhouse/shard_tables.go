package clickhouse

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// reshard brings the Distributed tables of a cluster database to the
// sharding of shardKeys: a table created by an earlier version (every
// sharded table keyed by IMO, which put all the rows without an IMO on one
// shard) is dropped and created again on each node where its sharding
// expression differs. Only the Distributed table, which holds no data, is
// replaced: the rows stay on the shards where they are, new rows go to the
// shard of their key, and reads, which ask every shard, see both. (A row
// written again after the change may then land on the other shard than its
// first copy: FINAL collapses copies on one shard only, so a retried batch
// spanning the change can count twice until the derivations recompute.)
// It runs at every Migrate, on every node: a node added later, or a
// migration interrupted between its nodes, is brought in line too.
func (db *DB) reshard(ctx context.Context) error {
	c := db.conn.cluster
	nodes, err := db.conn.nodes(ctx)
	if err != nil {
		return err
	}
	for _, node := range nodes {
		one, err := db.conn.node(node.addr)
		if err != nil {
			return err
		}
		rows, err := one.Query(ctx, "SELECT name, engine_full FROM system.tables WHERE database = ? AND engine = 'Distributed'", db.database)
		if err != nil {
			return fmt.Errorf("clickhouse: on %s: %w", node.addr, err)
		}
		var stale []string
		for rows.Next() {
			var name, engine string
			if err := rows.Scan(&name, &engine); err != nil {
				rows.Close()
				return err
			}
			if shardKeys[name] != "" && !strings.Contains(engine, shardExpression(name)) {
				stale = append(stale, name)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, name := range stale {
			for _, stmt := range []string{fmt.Sprintf("DROP TABLE IF EXISTS %s.%s", db.database, name), c.distributed(name)} {
				if err := one.Exec(ctx, stmt); err != nil {
					return fmt.Errorf("clickhouse: reshard %s on %s: %w", name, node.addr, err)
				}
			}
		}
	}
	return nil
}

// ShardCounts returns the rows of a sharded table on each shard (shard_num
// order), read from the local table of the first replica of each shard that
// answers, without FINAL: how the cluster spreads the table. It fails on a
// single server and for a table that is not sharded.
func (db *DB) ShardCounts(ctx context.Context, table string) ([]uint64, error) {
	if db.shards == nil || shardKeys[table] == "" {
		return nil, fmt.Errorf("clickhouse: %s is not a sharded table of a cluster", table)
	}
	l, err := db.shards.loadLayout(ctx)
	if err != nil {
		return nil, err
	}
	counts := make([]uint64, len(l.replicas))
	for s, replicas := range l.replicas {
		err = nil
		for _, addr := range replicas {
			var p driver.Conn
			if p, err = db.shards.pool(addr); err == nil {
				err = p.QueryRow(ctx, fmt.Sprintf("SELECT count() FROM %s.%s_local", db.database, table)).Scan(&counts[s])
			}
			if err == nil {
				break
			}
		}
		if err != nil {
			return nil, fmt.Errorf("clickhouse: rows of %s on shard %d: %w", table, s+1, err)
		}
	}
	return counts, nil
}

// ShardOf returns the shard (its shard_num) that holds the rows of table
// whose sharding key (shardKeys: the MMSI or the IMO) is key, as the
// Distributed table and the direct writer both compute it.
func (db *DB) ShardOf(ctx context.Context, table string, key uint32) (int, error) {
	if db.shards == nil || shardKeys[table] == "" {
		return 0, fmt.Errorf("clickhouse: %s is not a sharded table of a cluster", table)
	}
	l, err := db.shards.loadLayout(ctx)
	if err != nil {
		return 0, err
	}
	return l.shardOf(key) + 1, nil
}

var shardLocalTables = regexp.MustCompile(`(?i)\b(INTO|FROM|JOIN)(\s+)(positions|port_positions|static_reports)\b`)

// execOnShards runs an INSERT ... SELECT that reads and writes only tables
// sharded by MMSI, and keeps each row's MMSI, on each shard's local tables
// (one replica of each shard): its rows are on the shard they are read
// from, so the statement needs neither a distributed read nor a
// distributed write. A shard that fails is run again like execRetrying;
// the shard that succeeded drops the identical blocks of the rerun.
func (db *DB) execOnShards(ctx context.Context, stmt string, args ...any) error {
	if db.conn.cluster == nil {
		return db.execRetrying(ctx, stmt, args...)
	}
	local := shardLocalTables.ReplaceAllString(stmt, "${1}${2}"+db.database+".${3}_local")
	return db.retrying(ctx, func() error {
		return db.conn.onNodes(ctx, statement{sql: local, target: onShards}, args)
	})
}
