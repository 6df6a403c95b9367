package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"overwatch"
	"overwatch/jobs"
	"overwatch/read"
	"overwatch/write"
)

var (
	_ write.WebhookStore = (*DB)(nil)
	_ read.WebhookQuery  = (*DB)(nil)
	_ jobs.DeliveryStore = (*DB)(nil)
)

// CreateWebhook stores a webhook unless the account holds max (Conflict).
func (db *DB) CreateWebhook(ctx context.Context, accountID int64, w write.NewWebhook, max int) (int64, time.Time, error) {
	var (
		id      int64
		created time.Time
	)
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, accountID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM webhooks WHERE account_id = $1`, accountID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return overwatch.Errorf(overwatch.Conflict, "an account holds at most %d webhooks", max)
		}
		return tx.QueryRow(ctx, `INSERT INTO webhooks (account_id, url, event_types, secret) VALUES ($1, $2, $3, $4) RETURNING id, created_at`,
			accountID, w.URL, w.EventTypes, w.Secret).Scan(&id, &created)
	})
	return id, created, pgErr(err, "create webhook")
}

// Webhooks returns the account's webhooks (never their secrets).
func (db *DB) Webhooks(ctx context.Context, accountID int64) ([]read.Webhook, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, url, event_types, paused, disabled_at, disabled_reason, consecutive_failures, created_at
		FROM webhooks WHERE account_id = $1 ORDER BY id`, accountID)
	if err != nil {
		return nil, pgErr(err, "webhooks")
	}
	defer rows.Close()
	out := []read.Webhook{}
	for rows.Next() {
		var w read.Webhook
		if err := rows.Scan(&w.ID, &w.URL, &w.EventTypes, &w.Paused, &w.DisabledAt, &w.DisabledReason, &w.ConsecutiveFailures, &w.CreatedAt); err != nil {
			return nil, pgErr(err, "webhooks")
		}
		out = append(out, w)
	}
	return out, pgErr(rows.Err(), "webhooks")
}

// DeleteWebhook deletes one of the account's webhooks with its deliveries.
func (db *DB) DeleteWebhook(ctx context.Context, accountID, id int64) error {
	tag, err := db.pool.Exec(ctx, `DELETE FROM webhooks WHERE id = $1 AND account_id = $2`, id, accountID)
	if err != nil {
		return pgErr(err, "delete webhook")
	}
	if tag.RowsAffected() == 0 {
		return overwatch.Errorf(overwatch.NotFound, "no webhook %d", id)
	}
	return nil
}

// PauseWebhook pauses (or resumes) one of the account's webhooks; resuming
// also re-enables a disabled one and clears its failure count.
func (db *DB) PauseWebhook(ctx context.Context, accountID, id int64, paused bool) error {
	tag, err := db.pool.Exec(ctx, `UPDATE webhooks SET paused = $3,
		disabled_at = CASE WHEN $3 THEN disabled_at END, disabled_reason = CASE WHEN $3 THEN disabled_reason ELSE '' END,
		consecutive_failures = CASE WHEN $3 THEN consecutive_failures ELSE 0 END
		WHERE id = $1 AND account_id = $2`, id, accountID, paused)
	if err != nil {
		return pgErr(err, "pause webhook")
	}
	if tag.RowsAffected() == 0 {
		return overwatch.Errorf(overwatch.NotFound, "no webhook %d", id)
	}
	return nil
}

// Deliveries returns the newest deliveries of one of the account's
// webhooks with their attempts.
func (db *DB) Deliveries(ctx context.Context, accountID, webhookID int64, limit int) ([]read.DeliveryView, error) {
	var owner int64
	if err := db.pool.QueryRow(ctx, `SELECT account_id FROM webhooks WHERE id = $1`, webhookID).Scan(&owner); errors.Is(err, pgx.ErrNoRows) || err == nil && owner != accountID {
		return nil, overwatch.Errorf(overwatch.NotFound, "no webhook %d", webhookID)
	} else if err != nil {
		return nil, pgErr(err, "deliveries")
	}
	rows, err := db.pool.Query(ctx, `SELECT d.id, d.event_id, d.event_type, d.status, d.attempts, d.next_attempt_at, d.created_at, d.delivered_at,
		COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'at', a.at, 'status_code', a.status_code, 'error', a.error,
			'duration_ms', a.duration_ms) ORDER BY a.attempt) FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]')::text
		FROM webhook_deliveries d WHERE d.webhook_id = $1 ORDER BY d.id DESC LIMIT $2`, webhookID, limit)
	if err != nil {
		return nil, pgErr(err, "deliveries")
	}
	defer rows.Close()
	out := []read.DeliveryView{}
	for rows.Next() {
		var d read.DeliveryView
		if err := rows.Scan(&d.ID, &d.EventID, &d.EventType, &d.Status, &d.Attempts, &d.NextAttemptAt, &d.CreatedAt, &d.DeliveredAt, &d.AttemptsJSON); err != nil {
			return nil, pgErr(err, "deliveries")
		}
		out = append(out, d)
	}
	return out, pgErr(rows.Err(), "deliveries")
}

// webhookPlans are the plans whose accounts' webhooks are delivered to
// (overwatch.FeatureWebhooks). An account on another plan (moved down from
// Pro) keeps its webhooks, but nothing is queued for them and their queued
// deliveries wait, as a paused webhook's do, until it is on one of these
// again.
var webhookPlans = func() []string {
	var out []string
	for _, p := range overwatch.Plans() {
		if p.ID.Includes(overwatch.FeatureWebhooks) {
			out = append(out, string(p.ID))
		}
	}
	return out
}()

// activeWebhook is the condition on a webhook w that is delivered to: not
// paused, not disabled, its account's plan (the parameter given: the
// webhookPlans) including webhooks.
func activeWebhook(w, plans string) string {
	return `NOT ` + w + `.paused AND ` + w + `.disabled_at IS NULL AND EXISTS (SELECT 1 FROM accounts acct
		WHERE acct.id = ` + w + `.account_id AND acct.plan = ANY(` + plans + `::text[]))`
}

// EnqueueEvent queues an event for every active webhook of the account
// subscribed to its type (activeWebhook), once per webhook and event id (a
// repeated enqueue changes nothing); it returns how many deliveries were
// queued.
func (db *DB) EnqueueEvent(ctx context.Context, accountID int64, eventType, eventID string, payload []byte) (int, error) {
	tag, err := db.pool.Exec(ctx, `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload)
		SELECT w.id, $3, $2, $4 FROM webhooks w
		 WHERE w.account_id = $1 AND $2 = ANY(w.event_types) AND `+activeWebhook("w", "$5")+`
		ON CONFLICT (webhook_id, event_id) DO NOTHING`, accountID, eventType, eventID, string(payload), webhookPlans)
	if err != nil {
		return 0, pgErr(err, "enqueue")
	}
	return int(tag.RowsAffected()), nil
}

// ClaimDeliveries takes up to max due deliveries of active webhooks
// (activeWebhook: the deliveries of a paused or disabled webhook, or of an
// account whose plan has no webhooks, wait), each by one caller (SKIP
// LOCKED), and pushes their next attempt lease ahead, so that a worker that
// dies with a claim leaves it due again then.
func (db *DB) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, max int) ([]jobs.Delivery, error) {
	rows, err := db.pool.Query(ctx, `
WITH due AS (
    SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND `+activeWebhook("w", "$4")+`
     ORDER BY d.next_attempt_at, d.id LIMIT $3
       FOR UPDATE OF d SKIP LOCKED)
UPDATE webhook_deliveries d SET next_attempt_at = $1 + $2::interval FROM due, webhooks w
 WHERE d.id = due.id AND w.id = d.webhook_id
RETURNING d.id, d.webhook_id, w.account_id, w.url, w.secret, d.event_id, d.event_type, d.payload, d.attempts`,
		now.UTC(), fmt.Sprintf("%d milliseconds", lease.Milliseconds()), max, webhookPlans)
	if err != nil {
		return nil, pgErr(err, "claim deliveries")
	}
	defer rows.Close()
	var out []jobs.Delivery
	for rows.Next() {
		var d jobs.Delivery
		var payload string
		if err := rows.Scan(&d.ID, &d.WebhookID, &d.AccountID, &d.URL, &d.Secret, &d.EventID, &d.Type, &payload, &d.Attempts); err != nil {
			return nil, pgErr(err, "claim deliveries")
		}
		d.Payload = []byte(payload)
		out = append(out, d)
	}
	return out, pgErr(rows.Err(), "claim deliveries")
}

// ReleaseClaims makes the claimed deliveries due at now (a worker stopping
// before it finished them).
func (db *DB) ReleaseClaims(ctx context.Context, ids []int64, now time.Time) error {
	_, err := db.pool.Exec(ctx, `UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE id = ANY($1) AND status = 'pending'`, ids, now.UTC())
	return pgErr(err, "release claims")
}

// RecordAttempt stores an attempt and the delivery's new state; a dead
// delivery counts against its webhook, which is disabled after
// jobs.WebhookDisableAfter dead ones in a row (a delivered one resets the
// count), with the reason shown in GET /v1/webhooks. An attempt (delivery
// and number) is recorded once: given again, it changes nothing.
func (db *DB) RecordAttempt(ctx context.Context, d jobs.Delivery, r jobs.AttemptResult, now time.Time) error {
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var status *int
		if r.Status != 0 {
			status = &r.Status
		}
		tag, err := tx.Exec(ctx, `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, d.ID, d.Attempts+1, now.UTC(), status, r.Err, int(r.Duration.Milliseconds()))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return nil // recorded already: a retry whose first commit landed unanswered
		}
		switch {
		case r.Err == "" && !r.Dead && r.Next.IsZero():
			if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = $2,
				last_status = $3, last_error = '' WHERE id = $1`, d.ID, now.UTC(), status); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `UPDATE webhooks SET consecutive_failures = 0 WHERE id = $1`, d.WebhookID)
			return err
		case r.Dead:
			if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET status = 'dead', attempts = attempts + 1, last_status = $2, last_error = $3
				WHERE id = $1`, d.ID, status, r.Err); err != nil {
				return err
			}
			var (
				failures int
				url      string
				reason   string
			)
			err := tx.QueryRow(ctx, `UPDATE webhooks SET consecutive_failures = consecutive_failures + 1,
				disabled_at = CASE WHEN consecutive_failures + 1 >= $2 THEN $3 ELSE disabled_at END,
				disabled_reason = CASE WHEN consecutive_failures + 1 >= $2
				  THEN format('disabled after %s deliveries in a row failed every attempt; last: %s', consecutive_failures + 1, $4::text)
				  ELSE disabled_reason END
				WHERE id = $1 RETURNING consecutive_failures, url, disabled_reason`, d.WebhookID, jobs.WebhookDisableAfter, now.UTC(), r.Err).
				Scan(&failures, &url, &reason)
			if err != nil || failures != jobs.WebhookDisableAfter {
				return err
			}
			// Disabled now: the owner gets an alert.
			_, err = tx.Exec(ctx, `INSERT INTO alerts (account_id, type, severity, title, message, event_key, event_at)
				VALUES ($1, 'webhook_disabled', 'warning', $2, $3, $4, $5) ON CONFLICT (account_id, event_key) DO NOTHING`,
				d.AccountID, fmt.Sprintf("Webhook %d disabled", d.WebhookID),
				fmt.Sprintf("Webhook %d (%s) was %s. Fix the endpoint, then POST /v1/webhooks/%d/resume.", d.WebhookID, url, reason, d.WebhookID),
				fmt.Sprintf("webhook_disabled/%d/%d", d.WebhookID, now.UnixNano()), now.UTC())
			return err
		default:
			_, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = $2, last_status = $3, last_error = $4
				WHERE id = $1`, d.ID, r.Next.UTC(), status, r.Err)
			return err
		}
	})
	return pgErr(err, "record attempt")
}

// pgErr wraps a database error with what was done, leaving the service's
// own errors (NotFound, Conflict, ...) as they are.
func pgErr(err error, what string) error {
	var oe *overwatch.Error
	if err == nil || errors.As(err, &oe) {
		return err
	}
	return fmt.Errorf("postgres: %s: %w", what, err)
}
