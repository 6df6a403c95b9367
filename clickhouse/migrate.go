package clickhouse

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrate creates the database if needed and applies, in name order, every
// embedded migration not yet recorded in schema_migrations. Migrations are
// forward-only and written with IF NOT EXISTS, so two instances migrating at
// once do no harm. In cluster mode it then brings the Distributed tables to
// the sharding of shardKeys (reshard). It returns the names applied.
func (db *DB) Migrate(ctx context.Context) ([]string, error) {
	if err := db.ensureDatabase(ctx); err != nil {
		return nil, fmt.Errorf("clickhouse: create database %s: %w", db.database, err)
	}
	if err := db.conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version String,
		applied_at DateTime('UTC')
	) ENGINE = MergeTree ORDER BY version`); err != nil {
		return nil, fmt.Errorf("clickhouse: migrations table: %w", err)
	}
	done := map[string]bool{}
	rows, err := db.conn.Query(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("clickhouse: read migrations: %w", err)
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return nil, err
		}
		done[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
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
		for _, stmt := range splitStatements(string(body)) {
			if err := db.conn.Exec(ctx, stmt); err != nil && !columnExists(stmt, err) {
				return applied, fmt.Errorf("clickhouse: migration %s: %w", version, err)
			}
		}
		batch, err := db.prepareBatch(ctx, "INSERT INTO schema_migrations (version, applied_at)")
		if err != nil {
			return applied, err
		}
		if err := batch.Append(version, time.Now().UTC()); err != nil {
			return applied, err
		}
		if err := batch.Send(); err != nil {
			return applied, fmt.Errorf("clickhouse: record migration %s: %w", version, err)
		}
		applied = append(applied, version)
	}
	if db.conn.cluster != nil {
		if err := db.reshard(ctx); err != nil {
			return applied, err
		}
	}
	return applied, nil
}

// columnExists reports an ADD COLUMN that failed because the column is
// there: another instance applied the migration at the same time (18.16
// has no ADD COLUMN IF NOT EXISTS). The code is 44 on 18.16 and 15
// (DUPLICATE_COLUMN) on later servers; 49 wraps it in an ON CLUSTER
// statement's answer.
func columnExists(stmt string, err error) bool {
	var ex *ch.Exception
	return strings.Contains(strings.ToUpper(stmt), "ADD COLUMN") && errors.As(err, &ex) &&
		(ex.Code == 44 || ex.Code == 15 || ex.Code == 49) && strings.Contains(ex.Message, "already exists")
}

// splitStatements splits a migration file into statements at semicolons
// that end a line, dropping comment lines; ClickHouse runs one statement per
// request.
func splitStatements(body string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(trimmed, ";") {
			stmt := strings.TrimSuffix(strings.TrimSpace(cur.String()), ";")
			out = append(out, stmt)
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}
