package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"overwatch"
	"overwatch/read"
	"overwatch/write"
)

var (
	_ write.FreightRateStore = (*DB)(nil)
	_ read.FreightRateQuery  = (*DB)(nil)
)

// CreateFreightRate implements write.FreightRateStore: the submission
// counter of the account for the UTC day of at goes up by one unless it
// holds limit already (then nothing is stored, ok false), and the record
// is stored, created at at, in one transaction.
func (db *DB) CreateFreightRate(ctx context.Context, accountID int64, r write.NewFreightRate, at time.Time, limit int) (overwatch.FreightRecord, bool, error) {
	rec := overwatch.FreightRecord{VesselType: r.VesselType, Origin: r.Origin, Destination: r.Destination,
		Rate: r.Rate, Unit: r.Unit, Date: r.Date.UTC(), Notes: r.Notes}
	day := at.UTC().Truncate(24 * time.Hour)
	ok := false
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var n int
		err := tx.QueryRow(ctx, `INSERT INTO freight_rate_submissions AS s (account_id, day, n) VALUES ($1, $2, 1)
			ON CONFLICT (account_id, day) DO UPDATE SET n = s.n + 1 WHERE s.n < $3
			RETURNING n`, accountID, day.UTC(), limit).Scan(&n)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // the cap: nothing to store
		}
		if err != nil {
			return err
		}
		if n > limit {
			return nil // a limit of 0
		}
		ok = true
		// Old counters go with the account's next submission.
		if _, err := tx.Exec(ctx, `DELETE FROM freight_rate_submissions WHERE account_id = $1 AND day < $2`,
			accountID, day.UTC().AddDate(0, 0, -7)); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO freight_rates (account_id, vessel_type, origin, destination, rate, unit, date, notes, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id, created_at`,
			accountID, r.VesselType, r.Origin, r.Destination, r.Rate, r.Unit, r.Date.UTC(), r.Notes, at.UTC()).Scan(&rec.ID, &rec.CreatedAt)
	})
	if err != nil || !ok {
		return overwatch.FreightRecord{}, false, pgErr(err, "create freight rate")
	}
	rec.CreatedAt = rec.CreatedAt.UTC()
	return rec, true, nil
}

// DeleteFreightRate implements write.FreightRateStore.
func (db *DB) DeleteFreightRate(ctx context.Context, accountID, id int64) error {
	tag, err := db.pool.Exec(ctx, `DELETE FROM freight_rates WHERE id = $1 AND account_id = $2`, id, accountID)
	if err != nil {
		return pgErr(err, "delete freight rate")
	}
	if tag.RowsAffected() == 0 {
		return overwatch.Errorf(overwatch.NotFound, "no freight rate %d of yours", id)
	}
	return nil
}

// DeleteFreightRates implements write.FreightRateStore.
func (db *DB) DeleteFreightRates(ctx context.Context, accountID int64) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM freight_rates WHERE account_id = $1`, accountID)
	if err != nil {
		return 0, pgErr(err, "delete freight rates")
	}
	return tag.RowsAffected(), nil
}

// OwnFreightRates implements read.FreightRateQuery.
func (db *DB) OwnFreightRates(ctx context.Context, accountID int64, vesselType string, limit int) ([]overwatch.FreightRecord, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, vessel_type, origin, destination, rate, unit, date, notes, created_at
		FROM freight_rates WHERE account_id = $1 AND ($2 = '' OR vessel_type = $2)
		ORDER BY date DESC, id DESC LIMIT $3`, accountID, vesselType, limit)
	if err != nil {
		return nil, pgErr(err, "own freight rates")
	}
	defer rows.Close()
	out := []overwatch.FreightRecord{}
	for rows.Next() {
		var r overwatch.FreightRecord
		if err := rows.Scan(&r.ID, &r.VesselType, &r.Origin, &r.Destination, &r.Rate, &r.Unit, &r.Date, &r.Notes, &r.CreatedAt); err != nil {
			return nil, pgErr(err, "own freight rates")
		}
		out = append(out, r)
	}
	return out, pgErr(rows.Err(), "own freight rates")
}
