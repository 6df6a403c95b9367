package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"sync"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// Cluster mode: the same migrations and queries on a ClickHouse cluster
// (remote_servers, ZooKeeper and the {shard}/{replica} macros configured on
// every node). Each CREATE TABLE of the migrations is rendered for the
// cluster and run on every node (through a connection to each node of
// system.clusters, in parallel: ON CLUSTER DDL takes 18.16 about 0.3 s a
// statement, 10 s a migration of a fresh database):
//
//   - the ingest tables (shardedTables) become a Replicated* table <name>_local
//     on every node, replicated within its shard, plus a Distributed table
//     under the original name, sharded by the table's key in shardKeys
//     (the MMSI or the IMO) so that every version of a row lands on one
//     shard and FINAL stays exact; ingest writes the shards' local tables
//     directly (shard_writer.go), other inserts go through the Distributed
//     table;
//   - every other table (what the jobs derive, imports, schema_migrations)
//     becomes one Replicated* table with a copy on every node (its ZooKeeper
//     path has no {shard}), read directly.
//
// Writes through Distributed tables are synchronous (insert_distributed_sync):
// an acknowledged insert is stored on a replica of each shard. A retried
// identical block is dropped by the replicas' block deduplication. Queries
// name tables unqualified; a Distributed query sends its subqueries to the
// shards, where the connection's database is the server's default, so in
// cluster mode every table after FROM or JOIN is qualified with the
// database, and distributed_product_mode = global runs a subquery over a
// Distributed table once, on the node the query came to.

// shardedTables are the tables sharded across the cluster; their columns
// hold per-vessel data written at the ingest rate.
var shardedTables = map[string]bool{
	"positions": true, "latest_positions": true, "port_positions": true,
	"static_reports": true, "vessels": true, "vessel_identity": true,
}

// cluster is the rendering of statements for one database on a cluster.
type cluster struct {
	name     string // the cluster's name in remote_servers
	database string
	tables   *regexp.Regexp // FROM|JOIN followed by a known table name
	nodes    *clusterNodes
	// noMutations: ALTER ... DELETE and UPDATE are not run. ClickHouse
	// 18.16 replicas crashed (segfault in ReplicatedMergeTreeQueue::
	// tryFinalizeMutations, twice in the cluster tests here) on the
	// mutations that delete superseded generations; every reader
	// filters those out by generation, so on 18.x cluster mode keeps
	// them (they take disk space) rather than lose a replica.
	noMutations bool
}

var clusterName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// newCluster prepares the rendering for database on cluster name.
func newCluster(name, database string) (*cluster, error) {
	if !clusterName.MatchString(name) {
		return nil, fmt.Errorf("clickhouse: bad cluster name %q", name)
	}
	names, err := migrationTables()
	if err != nil {
		return nil, err
	}
	names = append(names, "schema_migrations")
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	re := regexp.MustCompile(`(?i)\b(FROM|JOIN)(\s+)(` + strings.Join(names, "|") + `)\b`)
	return &cluster{name: name, database: database, tables: re, nodes: &clusterNodes{conns: map[string]driver.Conn{}}}, nil
}

var createTable = regexp.MustCompile(`(?is)^\s*CREATE TABLE IF NOT EXISTS (\w+)\s*\((.*)\)\s*ENGINE\s*=\s*(\w+)(?:\(([^)]*)\))?\s*(.*)$`)

// migrationTables are the names of the tables the migrations create.
func migrationTables() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var tables []string
	for _, name := range names {
		body, err := migrations.ReadFile(name)
		if err != nil {
			return nil, err
		}
		for _, stmt := range splitStatements(string(body)) {
			if m := createTable.FindStringSubmatch(stmt); m != nil {
				tables = append(tables, m[1])
			}
		}
	}
	return tables, nil
}

// qualify prefixes the tables named after FROM and JOIN with the database.
// A SELECT that reads sharded tables more than once (a Distributed table in
// a subquery of a Distributed query) gets distributed_product_mode =
// 'global': the subquery runs once, on the node the query came to, and its
// result goes to the shards (18.16 denies such queries by default).
func (c *cluster) qualify(query string) string {
	if c == nil {
		return query
	}
	sharded := 0
	out := c.tables.ReplaceAllStringFunc(query, func(m string) string {
		sub := c.tables.FindStringSubmatch(m)
		if shardedTables[strings.ToLower(sub[3])] {
			sharded++
		}
		return sub[1] + sub[2] + c.database + "." + sub[3]
	})
	if sharded > 1 && selectQuery.MatchString(out) && !strings.Contains(strings.ToUpper(out), "SETTINGS") {
		out += "\nSETTINGS distributed_product_mode = 'global'"
	}
	return out
}

var selectQuery = regexp.MustCompile(`(?is)^\s*(SELECT|WITH)\b`)

// target is where a rendered statement runs.
type target int

const (
	onPool   target = iota // the node the pool talks to
	onShards               // one replica of every shard (the first that answers)
	onHosts                // every node of the cluster
)

// statement is one rendered statement.
type statement struct {
	sql      string
	settings ch.Settings
	target   target
}

var (
	alterTable    = regexp.MustCompile(`(?is)^\s*ALTER TABLE (\w+)\s+(ADD COLUMN|DELETE|UPDATE)\b(.*)$`)
	optimizeTable = regexp.MustCompile(`(?is)^\s*OPTIMIZE TABLE (\w+)(.*)$`)
	truncateTable = regexp.MustCompile(`(?is)^\s*TRUNCATE TABLE (?:IF EXISTS )?(\w+)\s*$`)
)

// render turns a single-node statement into its cluster form; statements
// it does not know (queries, INSERTs) are only qualified. A statement on a
// replicated table runs on one replica of it: ALTERs, mutations, OPTIMIZE
// and TRUNCATE reach the others through ZooKeeper.
func (c *cluster) render(stmt string) []statement {
	if m := createTable.FindStringSubmatch(stmt); m != nil {
		return c.renderCreate(m[1], m[2], m[3], m[4], m[5])
	}
	// OPTIMIZE ... FINAL on a Replicated table fails on 18.16 while
	// waiting for the merge (Unknown log entry type) unless it does not
	// wait.
	noAlterWait := ch.Settings{"replication_alter_partitions_sync": 0}
	if m := alterTable.FindStringSubmatch(stmt); m != nil {
		table, op, rest := m[1], strings.ToUpper(m[2]), c.qualify(m[3])
		if op != "ADD COLUMN" && c.noMutations {
			return nil
		}
		if !shardedTables[table] {
			return []statement{{sql: "ALTER TABLE " + table + " " + op + rest}}
		}
		out := []statement{{sql: fmt.Sprintf("ALTER TABLE %s.%s_local %s%s", c.database, table, op, rest), target: onShards}}
		if op == "ADD COLUMN" {
			out = append(out, statement{sql: fmt.Sprintf("ALTER TABLE %s.%s ADD COLUMN%s", c.database, table, rest), target: onHosts})
		}
		return out
	}
	if m := optimizeTable.FindStringSubmatch(stmt); m != nil {
		if !shardedTables[m[1]] {
			return []statement{{sql: "OPTIMIZE TABLE " + m[1] + m[2], settings: noAlterWait}}
		}
		return []statement{{sql: fmt.Sprintf("OPTIMIZE TABLE %s.%s_local%s", c.database, m[1], m[2]), settings: noAlterWait, target: onShards}}
	}
	if m := truncateTable.FindStringSubmatch(stmt); m != nil {
		// TRUNCATE waits like OPTIMIZE (it hung for minutes here).
		if !shardedTables[m[1]] {
			return []statement{{sql: "TRUNCATE TABLE " + m[1], settings: noAlterWait}}
		}
		return []statement{{sql: fmt.Sprintf("TRUNCATE TABLE %s.%s_local", c.database, m[1]), settings: noAlterWait, target: onShards}}
	}
	return []statement{{sql: c.qualify(stmt)}}
}

// renderCreate renders a CREATE TABLE: sharded (local table + Distributed)
// or replicated on every node.
func (c *cluster) renderCreate(table, columns, engine, args, rest string) []statement {
	replicated := func(path, replica string) string {
		a := fmt.Sprintf("'%s', '%s'", path, replica)
		if strings.TrimSpace(args) != "" {
			a += ", " + args
		}
		return "Replicated" + engine + "(" + a + ")"
	}
	if !shardedTables[table] {
		return []statement{{sql: fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s (%s) ENGINE = %s %s",
			c.database, table, columns, replicated("/clickhouse/tables/all/"+c.database+"/"+table, "{shard}-{replica}"), rest), target: onHosts}}
	}
	return []statement{
		{sql: fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s_local (%s) ENGINE = %s %s",
			c.database, table, columns, replicated("/clickhouse/tables/{shard}/"+c.database+"/"+table, "{replica}"), rest), target: onHosts},
		{sql: c.distributed(table), target: onHosts},
	}
}

// distributed is the CREATE of table's Distributed table, sharded by
// shardExpression (shard_writer.go computes the same in Go).
func (c *cluster) distributed(table string) string {
	return fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s AS %s.%s_local ENGINE = Distributed(%s, %s, %s_local, %s)",
		c.database, table, c.database, table, c.name, c.database, table, shardExpression(table))
}

// exec runs the rendered statements of stmt.
func (c conn) exec(ctx context.Context, stmt string, args []any) error {
	if c.cluster == nil {
		return c.Conn.Exec(ctx, stmt, bindable(args)...)
	}
	if err := c.checkVersion(); err != nil {
		return err
	}
	for _, s := range c.cluster.render(stmt) {
		sctx := ctx
		if s.settings != nil {
			sctx = ch.Context(ctx, ch.WithSettings(s.settings))
		}
		var err error
		if s.target == onPool {
			err = c.Conn.Exec(sctx, s.sql, bindable(args)...)
		} else {
			err = c.onNodes(sctx, s, args)
		}
		if err != nil && !columnExists(s.sql, err) {
			return err
		}
	}
	return nil
}

// clusterNodes are connections to each node of the cluster, opened when a
// statement first needs them.
type clusterNodes struct {
	mu           sync.Mutex
	list         []clusterNode
	conns        map[string]driver.Conn
	versionKnown bool
}

type clusterNode struct {
	shard uint32
	addr  string
}

// close closes the connections to the nodes.
func (n *clusterNodes) close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for addr, c := range n.conns {
		c.Close()
		delete(n.conns, addr)
	}
}

// nodes lists the cluster's nodes (system.clusters, read once).
func (c conn) nodes(ctx context.Context) ([]clusterNode, error) {
	n := c.cluster.nodes
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.list != nil {
		return n.list, nil
	}
	rows, err := c.Conn.Query(ctx, "SELECT shard_num, host_address, port FROM system.clusters WHERE cluster = ? ORDER BY shard_num, replica_num", c.cluster.name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []clusterNode
	for rows.Next() {
		var node clusterNode
		var host string
		var port uint16
		if err := rows.Scan(&node.shard, &host, &port); err != nil {
			return nil, err
		}
		node.addr = fmt.Sprintf("%s:%d", host, port)
		list = append(list, node)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("clickhouse: cluster %s is not in system.clusters", c.cluster.name)
	}
	n.list = list
	return list, nil
}

// node returns the connection to one node.
func (c conn) node(addr string) (driver.Conn, error) {
	n := c.cluster.nodes
	n.mu.Lock()
	defer n.mu.Unlock()
	if one, ok := n.conns[addr]; ok {
		return one, nil
	}
	opts := *c.opts
	opts.Addr = []string{addr}
	opts.MaxOpenConns, opts.MaxIdleConns = 2, 2
	opts.Settings = nil
	one, err := ch.Open(&opts)
	if err != nil {
		return nil, err
	}
	n.conns[addr] = one
	return one, nil
}

// onNodes runs a statement on every node of the cluster, in parallel
// (onHosts), or on the first replica of each shard that answers (onShards).
func (c conn) onNodes(ctx context.Context, s statement, args []any) error {
	nodes, err := c.nodes(ctx)
	if err != nil {
		return err
	}
	run := func(addr string) error {
		one, err := c.node(addr)
		if err == nil {
			err = one.Exec(ctx, s.sql, bindable(args)...)
		}
		if err != nil {
			return fmt.Errorf("clickhouse: on %s: %w", addr, err)
		}
		return nil
	}
	if s.target == onHosts {
		errs := make([]error, len(nodes))
		var wg sync.WaitGroup
		for i, node := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = run(node.addr)
			}()
		}
		wg.Wait()
		return errors.Join(errs...)
	}
	done := map[uint32]error{}
	for _, node := range nodes {
		if err, seen := done[node.shard]; seen && err == nil {
			continue
		}
		done[node.shard] = run(node.addr)
	}
	var errs []error
	for _, err := range done {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// checkVersion sets noMutations, once, from the version of the server the
// pool talks to: the cluster's servers run one version.
func (c conn) checkVersion() error {
	n := c.cluster.nodes
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.versionKnown {
		return nil
	}
	v, err := c.Conn.ServerVersion()
	if err != nil {
		return err
	}
	c.cluster.noMutations = v.Version.Major < 19
	n.versionKnown = true
	return nil
}
