package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"overwatch"
	"overwatch/bulk"
)

var _ bulk.Store = (*DB)(nil)

// exportColumns are the columns scanExport reads.
const exportColumns = `id, account_id, dataset, format, filters, status, rows, bytes, progress, error, file, created_at, completed_at, expires_at`

func scanExport(row pgx.Row) (bulk.Export, error) {
	var e bulk.Export
	var filters []byte
	var dataset, format, status string
	err := row.Scan(&e.ID, &e.AccountID, &dataset, &format, &filters, &status, &e.Rows, &e.Bytes, &e.Progress, &e.Error, &e.File,
		&e.CreatedAt, &e.CompletedAt, &e.ExpiresAt)
	if err != nil {
		return e, err
	}
	e.Dataset, e.Format, e.Status = bulk.Dataset(dataset), bulk.Format(format), bulk.Status(status)
	if err := json.Unmarshal(filters, &e.Filters); err != nil {
		return e, err
	}
	return e, nil
}

// CreateExport implements bulk.Store: the account row locked while its
// exports of the day are counted, so that two requests at once cannot
// both take the last one.
func (db *DB) CreateExport(ctx context.Context, n bulk.NewExport, q bulk.Quota) (bulk.Export, error) {
	var e bulk.Export
	filters, err := json.Marshal(n.Filters)
	if err != nil {
		return e, err
	}
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, n.AccountID); err != nil {
			return err
		}
		var today int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM exports WHERE account_id = $1 AND created_at >= $2`, n.AccountID, q.DayStart).Scan(&today); err != nil {
			return err
		}
		if today >= q.PerDay {
			return overwatch.Errorf(overwatch.TooManyRequests, "this account has started %d exports today, its plan's limit (exports_per_day is %d); more can be started after 00:00 UTC",
				today, q.PerDay)
		}
		e, err = scanExport(tx.QueryRow(ctx, `INSERT INTO exports (id, account_id, dataset, format, filters, estimated, max_rows, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING `+exportColumns,
			n.ID, n.AccountID, string(n.Dataset), string(n.Format), filters, n.Estimated, n.MaxRows, n.CreatedAt))
		return err
	})
	return e, pgErr(err, "create export")
}

// Export implements bulk.Store.
func (db *DB) Export(ctx context.Context, accountID int64, id string) (bulk.Export, error) {
	e, err := scanExport(db.pool.QueryRow(ctx, `SELECT `+exportColumns+` FROM exports WHERE id = $1 AND account_id = $2`, id, accountID))
	if errors.Is(err, pgx.ErrNoRows) {
		return e, overwatch.Errorf(overwatch.NotFound, "no export %s", id)
	}
	return e, pgErr(err, "export")
}

// Exports implements bulk.Store.
func (db *DB) Exports(ctx context.Context, accountID int64, limit int) ([]bulk.Export, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+exportColumns+` FROM exports WHERE account_id = $1 ORDER BY created_at DESC, id LIMIT $2`, accountID, limit)
	if err != nil {
		return nil, pgErr(err, "exports")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (bulk.Export, error) { return scanExport(r) })
	return out, pgErr(err, "exports")
}

// ClaimExport implements bulk.Store: the oldest due export (queued, or
// running with its lease ended), taken by one caller (SKIP LOCKED); one
// already tried maxAttempts times is failed with gaveUp instead.
func (db *DB) ClaimExport(ctx context.Context, now time.Time, lease time.Duration, maxAttempts int, gaveUp string) (*bulk.Claim, error) {
	for {
		var c bulk.Claim
		var dataset, format string
		var filters []byte
		var exhausted bool
		err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			err := tx.QueryRow(ctx, `SELECT id, account_id, dataset, format, filters, estimated, max_rows, attempts
				  FROM exports
				 WHERE status = 'queued' OR (status = 'running' AND lease_until < $1)
				 ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`, now).
				Scan(&c.ID, &c.AccountID, &dataset, &format, &filters, &c.Estimated, &c.MaxRows, &c.Attempt)
			if err != nil {
				return err
			}
			if c.Attempt >= maxAttempts {
				exhausted = true
				_, err := tx.Exec(ctx, `UPDATE exports SET status = 'failed', error = $2, lease_until = NULL WHERE id = $1`, c.ID, gaveUp)
				return err
			}
			c.Attempt++
			_, err = tx.Exec(ctx, `UPDATE exports SET status = 'running', attempts = $2, progress = 0, lease_until = $3 WHERE id = $1`,
				c.ID, c.Attempt, now.Add(lease))
			return err
		})
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, pgErr(err, "claim export")
		}
		if exhausted {
			continue
		}
		c.Dataset, c.Format = bulk.Dataset(dataset), bulk.Format(format)
		if err := json.Unmarshal(filters, &c.Filters); err != nil {
			return nil, err
		}
		return &c, nil
	}
}

// ProgressExport implements bulk.Store.
func (db *DB) ProgressExport(ctx context.Context, id string, progress float64, leaseUntil time.Time) error {
	_, err := db.pool.Exec(ctx, `UPDATE exports SET progress = $2, lease_until = $3 WHERE id = $1 AND status = 'running'`, id, progress, leaseUntil)
	return pgErr(err, "export progress")
}

// CompleteExport implements bulk.Store: the export completed and its event
// queued for the account's webhooks in one transaction (an outbox).
func (db *DB) CompleteExport(ctx context.Context, id, file string, rows, bytes int64, completedAt, expiresAt time.Time, ev bulk.Event) error {
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var account int64
		err := tx.QueryRow(ctx, `UPDATE exports SET status = 'completed', file = $2, rows = $3, bytes = $4, progress = 1,
			completed_at = $5, expires_at = $6, lease_until = NULL, error = NULL WHERE id = $1 RETURNING account_id`,
			id, file, rows, bytes, completedAt, expiresAt).Scan(&account)
		if err != nil {
			return err
		}
		return enqueueTx(ctx, tx, account, ev)
	})
	return pgErr(err, "complete export")
}

// FailExport implements bulk.Store.
func (db *DB) FailExport(ctx context.Context, id, message string, ev bulk.Event) error {
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var account int64
		err := tx.QueryRow(ctx, `UPDATE exports SET status = 'failed', error = $2, lease_until = NULL WHERE id = $1 RETURNING account_id`,
			id, message).Scan(&account)
		if err != nil {
			return err
		}
		return enqueueTx(ctx, tx, account, ev)
	})
	return pgErr(err, "fail export")
}

// enqueueTx queues an event for the account's active webhooks subscribed
// to its type, as EnqueueEvent does, in the transaction tx.
func enqueueTx(ctx context.Context, tx pgx.Tx, accountID int64, ev bulk.Event) error {
	if ev.Type == "" {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload)
		SELECT w.id, $3, $2, $4 FROM webhooks w
		 WHERE w.account_id = $1 AND $2 = ANY(w.event_types) AND `+activeWebhook("w", "$5")+`
		ON CONFLICT (webhook_id, event_id) DO NOTHING`, accountID, ev.Type, ev.ID, string(ev.Payload), webhookPlans)
	return err
}

// ReleaseExport implements bulk.Store.
func (db *DB) ReleaseExport(ctx context.Context, id string) error {
	_, err := db.pool.Exec(ctx, `UPDATE exports SET status = 'queued', progress = 0, lease_until = NULL,
		attempts = greatest(attempts - 1, 0) WHERE id = $1 AND status = 'running'`, id)
	return pgErr(err, "release export")
}

// ExpireExports implements bulk.Store.
func (db *DB) ExpireExports(ctx context.Context, now time.Time) ([]string, error) {
	rows, err := db.pool.Query(ctx, `UPDATE exports SET status = 'expired' WHERE status = 'completed' AND expires_at <= $1 RETURNING file`, now)
	if err != nil {
		return nil, pgErr(err, "expire exports")
	}
	files, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return files, pgErr(err, "expire exports")
}
