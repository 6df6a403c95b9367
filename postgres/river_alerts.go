package postgres

import (
	"context"
	"fmt"
	"time"

	"overwatch/jobs"
)

var _ jobs.AlertResolver = (*DB)(nil)

// ResolveAlerts implements jobs.AlertResolver: every account's alert of
// the event keys not yet resolved is resolved at at (an event that has
// ended: a river gauge back to normal); read and snooze are kept.
func (db *DB) ResolveAlerts(ctx context.Context, eventKeys []string, at time.Time) (int, error) {
	if len(eventKeys) == 0 {
		return 0, nil
	}
	tag, err := db.pool.Exec(ctx, `UPDATE alerts SET resolved_at = $2 WHERE event_key = ANY($1) AND resolved_at IS NULL`,
		eventKeys, at.UTC())
	if err != nil {
		return 0, fmt.Errorf("postgres: resolve alerts: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
