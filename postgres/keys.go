package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"overwatch"
	"overwatch/read"
	"overwatch/write"
)

var (
	_ read.KeyLister   = (*DB)(nil)
	_ write.KeyCreator = (*DB)(nil)
)

// Authenticate returns the account behind an active key, or a NotFound
// error. It records last_used_at at most once a minute per key, so a busy
// key does not turn every request into a row update.
func (db *DB) Authenticate(ctx context.Context, hash overwatch.KeyHash) (*overwatch.Caller, error) {
	const q = `
WITH k AS (
    SELECT k.id, k.account_id, k.last_used_at, a.email, a.plan
      FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.hash = $1 AND k.revoked_at IS NULL
), touched AS (
    UPDATE api_keys SET last_used_at = now()
     WHERE id IN (SELECT id FROM k WHERE last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
)
SELECT id, account_id, email, plan FROM k`
	var c overwatch.Caller
	var plan string
	err := db.pool.QueryRow(ctx, q, hash[:]).Scan(&c.KeyID, &c.AccountID, &c.Email, &plan)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, overwatch.Errorf(overwatch.NotFound, "no such key")
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: authenticate: %w", err)
	}
	c.Plan = overwatch.Plan(plan)
	return &c, nil
}

// ListKeys returns an account's keys, newest first, with the account's plan.
func (db *DB) ListKeys(ctx context.Context, accountID int64) ([]read.Key, error) {
	rows, _ := db.pool.Query(ctx, `
SELECT k.id, k.name, k.prefix, a.plan, k.created_at, k.last_used_at, k.revoked_at
  FROM api_keys k JOIN accounts a ON a.id = k.account_id
 WHERE k.account_id = $1
 ORDER BY k.created_at DESC, k.id DESC`, accountID)
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (read.Key, error) {
		var k read.Key
		err := r.Scan(&k.ID, &k.Name, &k.Prefix, &k.Plan, &k.CreatedAt, &k.LastUsedAt, &k.RevokedAt)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: list keys: %w", err)
	}
	return keys, nil
}

// CreateKey stores a key for the account unless it already holds maxActive
// unrevoked keys; the account row is locked so concurrent creations cannot
// pass the cap together.
func (db *DB) CreateKey(ctx context.Context, key write.NewKey, maxActive int) (int64, error) {
	var id int64
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		return createKey(ctx, tx, key, maxActive, &id)
	})
	return id, err
}

func createKey(ctx context.Context, tx pgx.Tx, key write.NewKey, maxActive int, id *int64) error {
	// Lock the account first; the count below is a new statement, so in READ
	// COMMITTED it sees keys committed by whoever held the lock before us.
	var locked int64
	err := tx.QueryRow(ctx, "SELECT id FROM accounts WHERE id = $1 FOR UPDATE", key.AccountID).Scan(&locked)
	if errors.Is(err, pgx.ErrNoRows) {
		return overwatch.Errorf(overwatch.NotFound, "no such account")
	}
	if err != nil {
		return fmt.Errorf("postgres: create key: %w", err)
	}
	var active int
	err = tx.QueryRow(ctx, "SELECT count(*) FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL", key.AccountID).Scan(&active)
	if err != nil {
		return fmt.Errorf("postgres: create key: %w", err)
	}
	if active >= maxActive {
		return overwatch.Errorf(overwatch.Conflict, "this account already has %d active keys; revoke one first", active)
	}
	err = tx.QueryRow(ctx, `
INSERT INTO api_keys (account_id, name, prefix, hash) VALUES ($1, $2, $3, $4) RETURNING id`,
		key.AccountID, key.Name, key.Prefix, key.Hash[:]).Scan(id)
	if err != nil {
		return fmt.Errorf("postgres: create key: %w", err)
	}
	return nil
}

// CreateAccountKey is the operator's path (overwatch keys create): it
// creates the account for email if there is none, sets its plan, and adds a
// key. It returns the account and key IDs.
func (db *DB) CreateAccountKey(ctx context.Context, email string, plan overwatch.Plan, key write.NewKey, maxActive int) (accountID, keyID int64, err error) {
	email = strings.TrimSpace(email)
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
INSERT INTO accounts (email, plan) VALUES ($1, $2)
ON CONFLICT (lower(email)) DO UPDATE SET plan = EXCLUDED.plan
RETURNING id`, email, string(plan)).Scan(&accountID)
		if err != nil {
			return fmt.Errorf("postgres: account: %w", err)
		}
		key.AccountID = accountID
		return createKey(ctx, tx, key, maxActive, &keyID)
	})
	return accountID, keyID, err
}

// RevokeKey revokes one of the account's active keys; accountID 0 is the
// operator, who may revoke any key. A key that is not the account's, or is
// already revoked, is NotFound.
func (db *DB) RevokeKey(ctx context.Context, accountID, keyID int64) error {
	tag, err := db.pool.Exec(ctx, `
UPDATE api_keys SET revoked_at = now()
 WHERE id = $1 AND revoked_at IS NULL AND ($2 = 0 OR account_id = $2)`, keyID, accountID)
	if err != nil {
		return fmt.Errorf("postgres: revoke key: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return overwatch.Errorf(overwatch.NotFound, "no active key %d", keyID)
	}
	return nil
}
