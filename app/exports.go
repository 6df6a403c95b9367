package app

import (
	"log/slog"

	"overwatch/bulk"
	"overwatch/clickhouse"
	"overwatch/postgres"
)

// newExportPool is the bulk exports' worker pool: the exports kept in
// PostgreSQL, the rows read from ClickHouse, the files under
// OVERWATCH_EXPORT_DIR kept OVERWATCH_EXPORT_TTL.
func newExportPool(cfg Config, ch *clickhouse.DB, pg *postgres.DB, log *slog.Logger) *bulk.Pool {
	return bulk.NewPool(bulk.PoolConfig{
		Store: pg, Source: ch, Dir: cfg.ExportDir, TTL: cfg.ExportTTL, Workers: cfg.ExportWorkers,
		Now: cfg.clock(), PublicURL: cfg.PublicURL, Log: log,
	})
}
