package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"overwatch"
	"overwatch/jobs"
	"overwatch/read"
	"overwatch/write"
)

var (
	_ write.AlertStore      = (*DB)(nil)
	_ write.WatchlistEditor = (*DB)(nil)
	_ read.AlertQuery       = (*DB)(nil)
	_ jobs.AlertSink        = (*DB)(nil)
)

// Watchlist returns the account's watched vessels (IMO numbers) and ports.
func (db *DB) Watchlist(ctx context.Context, accountID int64) (read.Watchlist, error) {
	w := read.Watchlist{Vessels: []string{}, Ports: []string{}}
	rows, err := db.pool.Query(ctx, `SELECT kind, value FROM watchlist WHERE account_id = $1 ORDER BY kind, value`, accountID)
	if err != nil {
		return w, fmt.Errorf("postgres: watchlist: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind, value string
		if err := rows.Scan(&kind, &value); err != nil {
			return w, fmt.Errorf("postgres: watchlist: %w", err)
		}
		if kind == "vessel" {
			w.Vessels = append(w.Vessels, value)
		} else {
			w.Ports = append(w.Ports, value)
		}
	}
	return w, rows.Err()
}

// ReplaceWatchlist replaces the account's watchlist whole.
func (db *DB) ReplaceWatchlist(ctx context.Context, accountID int64, vessels, ports []string) error {
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM watchlist WHERE account_id = $1`, accountID); err != nil {
			return fmt.Errorf("postgres: watchlist: %w", err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO watchlist (account_id, kind, value)
			SELECT $1::bigint, 'vessel', unnest($2::text[]) UNION SELECT $1::bigint, 'port', unnest($3::text[])`, accountID, vessels, ports)
		if err != nil {
			return fmt.Errorf("postgres: watchlist: %w", err)
		}
		return nil
	})
}

// Portfolios returns the account's portfolios, oldest first.
func (db *DB) Portfolios(ctx context.Context, accountID int64) ([]read.Portfolio, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, name, vessels, ports, created_at FROM portfolios WHERE account_id = $1 ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("postgres: portfolios: %w", err)
	}
	defer rows.Close()
	out := []read.Portfolio{}
	for rows.Next() {
		var p read.Portfolio
		if err := rows.Scan(&p.ID, &p.Name, &p.Vessels, &p.Ports, &p.CreatedAt); err != nil {
			return nil, fmt.Errorf("postgres: portfolios: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Portfolio returns one of the account's portfolios: NotFound for another
// account's or an unknown id.
func (db *DB) Portfolio(ctx context.Context, accountID int64, id string) (read.Portfolio, error) {
	var p read.Portfolio
	err := db.pool.QueryRow(ctx, `SELECT id, name, vessels, ports, created_at FROM portfolios WHERE account_id = $1 AND id = $2`,
		accountID, id).Scan(&p.ID, &p.Name, &p.Vessels, &p.Ports, &p.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, overwatch.Errorf(overwatch.NotFound, "no portfolio %q", id)
	}
	if err != nil {
		return p, fmt.Errorf("postgres: portfolio: %w", err)
	}
	return p, nil
}

// CreatePortfolio stores a portfolio under its id unless the account
// holds max already (Conflict), and returns when it was created.
func (db *DB) CreatePortfolio(ctx context.Context, accountID int64, p write.WatchedSet, max int) (time.Time, error) {
	var created time.Time
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		// One account's creations queue on its row, so the count holds.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, accountID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM portfolios WHERE account_id = $1`, accountID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return overwatch.Errorf(overwatch.Conflict, "an account holds at most %d portfolios", max)
		}
		return tx.QueryRow(ctx, `INSERT INTO portfolios (id, account_id, name, vessels, ports) VALUES ($1, $2, $3, $4, $5) RETURNING created_at`,
			p.ID, accountID, p.Name, p.Vessels, p.Ports).Scan(&created)
	})
	var oe *overwatch.Error
	if err != nil && !errors.As(err, &oe) {
		err = fmt.Errorf("postgres: create portfolio: %w", err)
	}
	return created, err
}

// DeletePortfolio deletes one of the account's portfolios (NotFound for
// another account's).
func (db *DB) DeletePortfolio(ctx context.Context, accountID int64, id string) error {
	tag, err := db.pool.Exec(ctx, `DELETE FROM portfolios WHERE account_id = $1 AND id = $2`, accountID, id)
	if err != nil {
		return fmt.Errorf("postgres: delete portfolio: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return overwatch.Errorf(overwatch.NotFound, "no portfolio %q", id)
	}
	return nil
}

// Watchers returns, for every account that watches something (in its
// watchlist or a portfolio), what it watches.
func (db *DB) Watchers(ctx context.Context) ([]jobs.Watcher, error) {
	rows, err := db.pool.Query(ctx, `
SELECT account_id, array_agg(DISTINCT v) FILTER (WHERE k = 'vessel'), array_agg(DISTINCT v) FILTER (WHERE k = 'port')
  FROM (SELECT account_id, kind AS k, value AS v FROM watchlist
        UNION ALL SELECT account_id, 'vessel', unnest(vessels) FROM portfolios
        UNION ALL SELECT account_id, 'port', unnest(ports) FROM portfolios) w
 GROUP BY account_id ORDER BY account_id`)
	if err != nil {
		return nil, fmt.Errorf("postgres: watchers: %w", err)
	}
	defer rows.Close()
	var out []jobs.Watcher
	for rows.Next() {
		var w jobs.Watcher
		var vessels, ports []string
		if err := rows.Scan(&w.AccountID, &vessels, &ports); err != nil {
			return nil, fmt.Errorf("postgres: watchers: %w", err)
		}
		w.Vessels, w.Ports = map[string]bool{}, map[string]bool{}
		for _, v := range vessels {
			w.Vessels[v] = true
		}
		for _, p := range ports {
			w.Ports[p] = true
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// severityRank orders the alert severities in SQL (info < warning <
// critical).
func severityRank(col string) string {
	return `(CASE ` + col + ` WHEN 'critical' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END)`
}

// RaiseAlerts stores the alerts, each once per account and event key, and
// queues each new one for the account's active webhooks subscribed to its
// type (activeWebhook; event id "alert_<id>"). An alert raised again with
// a higher severity (an ongoing event that got worse) is escalated unless
// the account resolved it: its severity, title and message are replaced,
// it is open again (read and snooze cleared), and it is queued again
// (event id "alert_<id>_<severity>", "escalated": true). It returns how
// many alerts were new or escalated.
func (db *DB) RaiseAlerts(ctx context.Context, alerts []jobs.Alert) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		for _, a := range alerts {
			var id int64
			var created time.Time
			eventID, escalated := "", false
			err := tx.QueryRow(ctx, `INSERT INTO alerts (account_id, type, severity, title, message, imo, port, event_key, event_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (account_id, event_key) DO NOTHING RETURNING id, created_at`,
				a.AccountID, a.Type, a.Severity, a.Title, a.Message, a.IMO, a.Port, a.EventKey, a.EventAt.UTC()).Scan(&id, &created)
			switch {
			case err == nil:
				eventID = fmt.Sprintf("alert_%d", id)
			case errors.Is(err, pgx.ErrNoRows): // raised before: escalated?
				err = tx.QueryRow(ctx, `UPDATE alerts SET severity = $3, title = $4, message = $5, read_at = NULL, snoozed_until = NULL
					WHERE account_id = $1 AND event_key = $2 AND resolved_at IS NULL AND `+severityRank("severity")+` < `+severityRank("$3::text")+`
					RETURNING id, created_at`, a.AccountID, a.EventKey, a.Severity, a.Title, a.Message).Scan(&id, &created)
				if errors.Is(err, pgx.ErrNoRows) {
					continue
				}
				if err != nil {
					return err
				}
				eventID, escalated = fmt.Sprintf("alert_%d_%s", id, a.Severity), true
			default:
				return err
			}
			n++
			// The alert's webhook deliveries, queued in the same
			// transaction (an outbox: an alert is never without them).
			payload, err := json.Marshal(map[string]any{"type": a.Type, "escalated": escalated, "alert": map[string]any{
				"alert_id": fmt.Sprintf("overwatch:%d", id), "type": a.Type, "severity": a.Severity, "title": a.Title,
				"message": a.Message, "imo": a.IMO, "port": a.Port, "event_at": a.EventAt.UTC(), "created_at": created.UTC()}})
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload)
				SELECT w.id, $3, $2, $4 FROM webhooks w
				 WHERE w.account_id = $1 AND $2 = ANY(w.event_types) AND `+activeWebhook("w", "$5")+`
				ON CONFLICT (webhook_id, event_id) DO NOTHING`, a.AccountID, a.Type, eventID, string(payload), webhookPlans); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: raise alerts: %w", err)
	}
	return n, nil
}

const alertColumns = `id, type, severity, title, message, imo, port, event_at, created_at, read_at, resolved_at, snoozed_until`

func scanAlert(row interface{ Scan(...any) error }) (read.AlertRow, error) {
	var a read.AlertRow
	err := row.Scan(&a.ID, &a.Type, &a.Severity, &a.Title, &a.Message, &a.IMO, &a.Port, &a.EventAt, &a.CreatedAt,
		&a.Times.ReadAt, &a.Times.ResolvedAt, &a.Times.SnoozedUntil)
	return a, err
}

// alertWhere is the WHERE clause (and its bound arguments) of the
// account's alerts matching f: the filters, the watch set, the state as of
// f.Now and the cursor.
func alertWhere(accountID int64, f read.AlertFilter) (string, []any) {
	args := []any{accountID}
	where := "account_id = $1"
	add := func(cond string, v any) {
		args = append(args, v)
		where += " AND " + fmt.Sprintf(cond, "$"+strconv.Itoa(len(args)))
	}
	if f.Severity != "" {
		add("severity = %s", f.Severity)
	}
	if f.Type != "" {
		add("type = %s", f.Type)
	}
	if f.Watch != nil {
		args = append(args, f.Watch.Vessels, f.Watch.Ports)
		where += fmt.Sprintf(" AND (imo = ANY($%d) OR port = ANY($%d))", len(args)-1, len(args))
	}
	if f.Unacknowledged {
		where += " AND read_at IS NULL AND resolved_at IS NULL"
	}
	now := f.Now.UTC()
	switch f.State {
	case overwatch.AlertOpen:
		add("resolved_at IS NULL AND read_at IS NULL AND (snoozed_until IS NULL OR snoozed_until <= %s)", now)
	case overwatch.AlertRead:
		add("resolved_at IS NULL AND read_at IS NOT NULL AND (snoozed_until IS NULL OR snoozed_until <= %s)", now)
	case overwatch.AlertSnoozed:
		add("resolved_at IS NULL AND snoozed_until > %s", now)
	case overwatch.AlertResolved:
		where += " AND resolved_at IS NOT NULL"
	}
	if f.BeforeID > 0 {
		args = append(args, f.BeforeAt.UTC(), f.BeforeID)
		where += fmt.Sprintf(" AND (created_at, id) < ($%d, $%d)", len(args)-1, len(args))
	}
	return where, args
}

// CountAlerts counts all the account's alerts matching f (its limit
// aside).
func (db *DB) CountAlerts(ctx context.Context, accountID int64, f read.AlertFilter) (int, error) {
	where, args := alertWhere(accountID, f)
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM alerts WHERE `+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count alerts: %w", err)
	}
	return n, nil
}

// Alerts returns the account's alerts matching f, newest first, at most
// f.Limit after the cursor (f.Before: created_at, id), with the watch
// and state filters applied as of f.Now.
func (db *DB) Alerts(ctx context.Context, accountID int64, f read.AlertFilter) ([]read.AlertRow, error) {
	where, args := alertWhere(accountID, f)
	args = append(args, f.Limit)
	rows, err := db.pool.Query(ctx, `SELECT `+alertColumns+` FROM alerts WHERE `+where+
		fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d`, len(args)), args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: alerts: %w", err)
	}
	defer rows.Close()
	out := []read.AlertRow{}
	for rows.Next() {
		a, err := scanAlert(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: alerts: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// SetAlertState applies an action to one of the account's alerts
// atomically (the row is locked while the transition is computed, so
// concurrent actions apply one after the other): NotFound for another
// account's alert, Conflict for an action its state refuses.
func (db *DB) SetAlertState(ctx context.Context, accountID, alertID int64, action overwatch.AlertAction, now, snoozeUntil time.Time) (overwatch.AlertTimes, error) {
	var out overwatch.AlertTimes
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var t overwatch.AlertTimes
		err := tx.QueryRow(ctx, `SELECT read_at, resolved_at, snoozed_until FROM alerts WHERE id = $1 AND account_id = $2 FOR UPDATE`,
			alertID, accountID).Scan(&t.ReadAt, &t.ResolvedAt, &t.SnoozedUntil)
		if errors.Is(err, pgx.ErrNoRows) {
			return overwatch.Errorf(overwatch.NotFound, "no alert overwatch:%d", alertID)
		}
		if err != nil {
			return err
		}
		next, err := t.Transition(action, now, snoozeUntil)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE alerts SET read_at = $3, resolved_at = $4, snoozed_until = $5 WHERE id = $1 AND account_id = $2`,
			alertID, accountID, next.ReadAt, next.ResolvedAt, next.SnoozedUntil)
		out = next
		return err
	})
	var oe *overwatch.Error
	if err != nil && !errors.As(err, &oe) {
		err = fmt.Errorf("postgres: alert state: %w", err)
	}
	return out, err
}

// AddWatched watches one vessel or port (kind) unless it is watched
// already; Conflict when the account watches max of the kind. The
// account's row is locked, so concurrent additions cannot pass the cap
// together.
func (db *DB) AddWatched(ctx context.Context, accountID int64, kind, value string, max int) error {
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, accountID); err != nil {
			return err
		}
		var n int
		var has bool
		if err := tx.QueryRow(ctx, `SELECT count(*), coalesce(bool_or(value = $3), false) FROM watchlist WHERE account_id = $1 AND kind = $2`,
			accountID, kind, value).Scan(&n, &has); err != nil {
			return err
		}
		if has {
			return nil
		}
		if n >= max {
			return overwatch.Errorf(overwatch.Conflict, "a watchlist holds at most %d %ss", max, kind)
		}
		_, err := tx.Exec(ctx, `INSERT INTO watchlist (account_id, kind, value) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, accountID, kind, value)
		return err
	})
	var oe *overwatch.Error
	if err != nil && !errors.As(err, &oe) {
		err = fmt.Errorf("postgres: add watched: %w", err)
	}
	return err
}

// RemoveWatched stops watching one vessel or port (kind): NotFound when
// the account does not watch it.
func (db *DB) RemoveWatched(ctx context.Context, accountID int64, kind, value string) error {
	tag, err := db.pool.Exec(ctx, `DELETE FROM watchlist WHERE account_id = $1 AND kind = $2 AND value = $3`, accountID, kind, value)
	if err != nil {
		return fmt.Errorf("postgres: remove watched: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return overwatch.Errorf(overwatch.NotFound, "you do not watch %s %s", kind, value)
	}
	return nil
}
