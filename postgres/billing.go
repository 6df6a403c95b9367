package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"overwatch"
	"overwatch/write"
)

var _ write.PlanChanger = (*DB)(nil)

// ApplyPayment sets the account's plan for a completed payment, once per
// provider event id: a retried event changes nothing and reports applied
// false. The change applies to the account's next request (every request
// reads the plan with its key). An unknown account is NotFound.
func (db *DB) ApplyPayment(ctx context.Context, eventID string, accountID int64, plan overwatch.Plan) (bool, error) {
	applied := false
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var old string
		err := tx.QueryRow(ctx, `SELECT plan FROM accounts WHERE id = $1 FOR UPDATE`, accountID).Scan(&old)
		if errors.Is(err, pgx.ErrNoRows) {
			return overwatch.Errorf(overwatch.NotFound, "no account %d", accountID)
		}
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO billing_events (event_id, account_id, plan, old_plan) VALUES ($1, $2, $3, $4)
			ON CONFLICT (event_id) DO NOTHING`, eventID, accountID, string(plan), old)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE accounts SET plan = $2 WHERE id = $1`, accountID, string(plan)); err != nil {
			return err
		}
		applied = true
		return nil
	})
	var oe *overwatch.Error
	if errors.As(err, &oe) {
		return false, err
	}
	if err != nil {
		return false, fmt.Errorf("postgres: apply payment: %w", err)
	}
	return applied, nil
}
