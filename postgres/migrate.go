package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the advisory-lock key that serialises migrators.
const migrationLock = 7_406_119_300_001

// Migrate creates the database if needed and applies, in name order and
// each in its own transaction, every embedded migration not yet recorded in
// schema_migrations. An advisory lock keeps two instances from migrating at
// once. It returns the names applied.
func (db *DB) Migrate(ctx context.Context) ([]string, error) {
	if err := db.ensureDatabase(ctx); err != nil {
		return nil, fmt.Errorf("postgres: create database: %w", err)
	}
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return nil, fmt.Errorf("postgres: migration lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock) //nolint:errcheck
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version text PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, fmt.Errorf("postgres: migrations table: %w", err)
	}
	rows, _ := conn.Query(ctx, "SELECT version FROM schema_migrations")
	versions, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: read migrations: %w", err)
	}
	done := map[string]bool{}
	for _, v := range versions {
		done[v] = true
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var applied []string
	for _, name := range names {
		version := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
		if done[version] {
			continue
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return applied, err
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version) VALUES ($1)", version)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("postgres: migration %s: %w", version, err)
		}
		applied = append(applied, version)
	}
	return applied, nil
}
