package clickhouse

import (
	"context"
	"fmt"
	"regexp"
)

var tableName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// StoredBytes merges a table's parts (OPTIMIZE ... FINAL) and returns its
// rows and their compressed bytes on this server (system.parts): what a
// stored row costs on disk, for the benchmarks.
func (db *DB) StoredBytes(ctx context.Context, table string) (rows, bytes uint64, err error) {
	if !tableName.MatchString(table) {
		return 0, 0, fmt.Errorf("clickhouse: bad table name %q", table)
	}
	if err := db.conn.Exec(ctx, "OPTIMIZE TABLE "+table+" FINAL"); err != nil {
		return 0, 0, fmt.Errorf("clickhouse: optimize %s: %w", table, err)
	}
	err = db.conn.QueryRow(ctx, `SELECT sum(rows), sum(data_compressed_bytes) FROM system.parts
		WHERE active AND database = ? AND table = ?`, db.database, table).Scan(&rows, &bytes)
	if err != nil {
		return 0, 0, fmt.Errorf("clickhouse: parts of %s: %w", table, err)
	}
	return rows, bytes, nil
}
