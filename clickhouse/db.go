package clickhouse

import (
	"context"
	"fmt"
	neturl "net/url"
	"regexp"
	"strings"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// DB is a connection pool to one ClickHouse database.
type DB struct {
	conn     conn
	opts     *ch.Options
	database string
	cluster  string       // the cluster's name in cluster mode, else ""
	shards   *shardWriter // cluster mode: the direct writer of the sharded tables
	newest   newestPredictions
}

var databaseName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Open parses a clickhouse:// URL and returns a pool for its database. It
// does not connect; Migrate creates the database when it is missing.
//
// The URL may name several nodes (clickhouse://h1:9000,h2:9000/db): a
// connection goes to the first that answers. With the parameter
// cluster=<name> (the cluster in the servers' remote_servers) the pool works
// in cluster mode: see cluster.go.
func Open(url string) (*DB, error) {
	url, clusterArg, err := splitCluster(url)
	if err != nil {
		return nil, err
	}
	opts, err := ch.ParseDSN(url)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: parse %q: %w", url, err)
	}
	if opts.Auth.Database == "" {
		opts.Auth.Database = "default"
	}
	if !databaseName.MatchString(opts.Auth.Database) {
		return nil, fmt.Errorf("clickhouse: bad database name %q", opts.Auth.Database)
	}
	if opts.DialTimeout == 0 || opts.DialTimeout > 5*time.Second {
		opts.DialTimeout = 2 * time.Second
	}
	if opts.MaxOpenConns == 0 {
		opts.MaxOpenConns = 16
	}
	opts.MaxIdleConns = opts.MaxOpenConns
	opts.ConnMaxLifetime = 10 * time.Minute
	var cl *cluster
	if clusterArg != "" {
		if cl, err = newCluster(clusterArg, opts.Auth.Database); err != nil {
			return nil, err
		}
		if opts.Settings == nil {
			opts.Settings = ch.Settings{}
		}
		// An acknowledged insert is stored on every shard it touches;
		// a retried identical block is deduplicated. (18.16 takes only
		// numeric settings from clickhouse-go: distributed_product_mode
		// is set in the queries, by cluster.qualify.)
		opts.Settings["insert_distributed_sync"] = 1
		opts.Settings["insert_deduplicate"] = 1
	}
	c, err := ch.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: open: %w", err)
	}
	db := &DB{conn: conn{Conn: c, cluster: cl, opts: opts}, opts: opts, database: opts.Auth.Database, cluster: clusterArg}
	if cl != nil {
		db.shards = newShardWriter(db.conn, opts, db.database)
	}
	return db, nil
}

// splitCluster takes the cluster=<name> parameter out of a URL.
func splitCluster(raw string) (string, string, error) {
	u, err := neturl.Parse(raw)
	if err != nil {
		return "", "", fmt.Errorf("clickhouse: parse URL: %w", err)
	}
	q := u.Query()
	name := q.Get("cluster")
	if !q.Has("cluster") {
		return raw, "", nil
	}
	if !clusterName.MatchString(name) {
		return "", "", fmt.Errorf("clickhouse: bad cluster name %q", name)
	}
	q.Del("cluster")
	u.RawQuery = q.Encode()
	return u.String(), name, nil
}

// WithCluster returns url with the parameter cluster=<name> that Open
// reads (the setting OVERWATCH_CLICKHOUSE_CLUSTER); url unchanged when name
// is empty or url names a cluster already.
func WithCluster(url, name string) string {
	if name == "" || strings.Contains(url, "cluster=") {
		return url
	}
	if strings.Contains(url, "?") {
		return url + "&cluster=" + neturl.QueryEscape(name)
	}
	return url + "?cluster=" + neturl.QueryEscape(name)
}

// Cluster is the cluster's name in cluster mode, or "" on a single node.
func (db *DB) Cluster() string { return db.cluster }

// Database returns the name of the database the pool works in.
func (db *DB) Database() string { return db.database }

// Close closes the pool.
func (db *DB) Close() error {
	if db.conn.cluster != nil {
		db.conn.cluster.nodes.close()
		db.shards.close()
	}
	return db.conn.Close()
}

// Ping checks that the server answers.
func (db *DB) Ping(ctx context.Context) error { return db.conn.Ping(ctx) }

// ensureDatabase creates the pool's database through a connection to the
// server's default database.
func (db *DB) ensureDatabase(ctx context.Context) error {
	opts := *db.opts
	opts.Auth.Database = "default"
	opts.MaxOpenConns = 1
	conn, err := ch.Open(&opts)
	if err != nil {
		return err
	}
	defer conn.Close()
	if db.cluster != "" {
		return conn.Exec(ctx, "CREATE DATABASE IF NOT EXISTS "+db.database+" ON CLUSTER "+db.cluster)
	}
	return conn.Exec(ctx, "CREATE DATABASE IF NOT EXISTS "+db.database)
}

// Count runs a query that returns one unsigned count; for tests and
// operator tools.
func (db *DB) Count(ctx context.Context, query string, args ...any) (uint64, error) {
	var n uint64
	err := db.conn.QueryRow(ctx, query, args...).Scan(&n)
	return n, err
}

// Exec runs one statement; for operator tools and tests.
func (db *DB) Exec(ctx context.Context, query string, args ...any) error {
	return db.conn.Exec(ctx, query, args...)
}
