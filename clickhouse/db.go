package clickhouse

import (
	"context"
	"fmt"
	"regexp"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// DB is a connection pool to one ClickHouse database.
type DB struct {
	conn     conn
	opts     *ch.Options
	database string
}

var databaseName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Open parses a clickhouse:// URL and returns a pool for its database. It
// does not connect; Migrate creates the database when it is missing.
func Open(url string) (*DB, error) {
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
	c, err := ch.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: open: %w", err)
	}
	return &DB{conn: conn{c}, opts: opts, database: opts.Auth.Database}, nil
}

// Database returns the name of the database the pool works in.
func (db *DB) Database() string { return db.database }

// Close closes the pool.
func (db *DB) Close() error { return db.conn.Close() }

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
