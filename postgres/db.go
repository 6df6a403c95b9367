package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is a pool of connections to one PostgreSQL database, and a pool of
// its own for the scheduler's claims: a claim holds its connection (the
// session's advisory lock) for the whole run of its job, so that with the
// claims in the main pool, as many jobs ticking at once as it has
// connections (at the top of an hour, 20 of the table's jobs do) took
// every connection, the API's keyed requests waited for one, and each job,
// waiting for a connection to record its run before releasing its claim,
// never ended (the soak of 2026-12-06 at 1 h 30 min).
type DB struct {
	pool   *pgxpool.Pool
	claims *pgxpool.Pool
	cfg    *pgxpool.Config
}

// ClaimConns bounds the claims' pool: more than the jobs of the table
// (a claim beyond it waits for a job to end, and holds nothing meanwhile).
const ClaimConns = 48

// Open parses a postgres:// URL and returns a pool sized for this service:
// MaxConns defaults to 16 unless the URL sets pool_max_conns. It does not
// connect; Migrate creates the database when it is missing.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse url: %w", err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 3 * time.Second
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = 16
	}
	cfg.MaxConnIdleTime = 5 * time.Minute
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: pool: %w", err)
	}
	ccfg := cfg.Copy()
	ccfg.MaxConns, ccfg.MinConns = ClaimConns, 0
	claims, err := pgxpool.NewWithConfig(ctx, ccfg)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: claims pool: %w", err)
	}
	return &DB{pool: pool, claims: claims, cfg: cfg}, nil
}

// Close closes the pools.
func (db *DB) Close() {
	db.claims.Close()
	db.pool.Close()
}

// Ping checks that the server answers.
func (db *DB) Ping(ctx context.Context) error { return db.pool.Ping(ctx) }

// ensureDatabase creates the pool's database through the server's postgres
// database when connecting to it fails with "database does not exist".
func (db *DB) ensureDatabase(ctx context.Context) error {
	err := db.pool.Ping(ctx)
	var pgErr *pgconn.PgError
	if err == nil || !errors.As(err, &pgErr) || pgErr.Code != "3D000" {
		return err
	}
	cc := db.cfg.ConnConfig.Copy()
	name := cc.Database
	cc.Database = "postgres"
	conn, err := pgx.ConnectConfig(ctx, cc)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.Code == "42P04" {
		return nil // created meanwhile by another process
	}
	return err
}

// Exec runs one statement without results; for operator tools and tests.
func (db *DB) Exec(ctx context.Context, sql string, args ...any) error {
	_, err := db.pool.Exec(ctx, sql, args...)
	return err
}
