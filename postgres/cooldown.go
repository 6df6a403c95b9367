package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"overwatch/write"
)

var _ write.RefreshGate = (*DB)(nil)

// TakeCooldown records a run of key at now unless the last one was less
// than cooldown ago; then it records nothing, ok is false, and next is when
// the key may run again. Every instance sharing the database sees the same
// runs (table cooldowns, migration 011).
func (db *DB) TakeCooldown(ctx context.Context, key string, now time.Time, cooldown time.Duration) (next time.Time, ok bool, err error) {
	var last time.Time
	err = db.pool.QueryRow(ctx, `INSERT INTO cooldowns (key, last_at) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET last_at = $2 WHERE cooldowns.last_at <= $2 - make_interval(secs => $3)
		RETURNING last_at`, key, now.UTC(), cooldown.Seconds()).Scan(&last)
	if err == nil {
		return last.Add(cooldown), true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, false, pgErr(err, "take cooldown")
	}
	if err := db.pool.QueryRow(ctx, `SELECT last_at FROM cooldowns WHERE key = $1`, key).Scan(&last); err != nil {
		return time.Time{}, false, pgErr(err, "take cooldown")
	}
	return last.Add(cooldown), false, nil
}
