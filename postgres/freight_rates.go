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

// CreateFreightRate implements write.FreightRateStore: the day's
// submission counter of the account goes up by one unless it holds limit
// already (then nothing is stored, ok false), and the record is stored,
// in one transaction.
func (db *DB) CreateFreightRate(ctx context.Context, accountID int64, r write.NewFreightRate, day time.Time, limit int) (write.FreightRecord, bool, error) {
	rec := write.FreightRecord{Source: read.FreightSourceOwn, VesselType: r.VesselType, Origin: r.Origin, Destination: r.Destination,
		Rate: r.Rate, Unit: r.Unit, Date: r.Date.UTC().Format(time.DateOnly), Period: "day", Notes: r.Notes}
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
		return tx.QueryRow(ctx, `INSERT INTO freight_rates (account_id, vessel_type, origin, destination, rate, unit, date, notes)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, created_at`,
			accountID, r.VesselType, r.Origin, r.Destination, r.Rate, r.Unit, r.Date.UTC(), r.Notes).Scan(&rec.ID, &rec.CreatedAt)
	})
	if err != nil || !ok {
		return write.FreightRecord{}, false, pgErr(err, "create freight rate")
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
func (db *DB) OwnFreightRates(ctx context.Context, accountID int64, vesselType string, limit int) ([]read.FreightRecord, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, vessel_type, origin, destination, rate, unit, date, notes, created_at
		FROM freight_rates WHERE account_id = $1 AND ($2 = '' OR vessel_type = $2)
		ORDER BY date DESC, id DESC LIMIT $3`, accountID, vesselType, limit)
	if err != nil {
		return nil, pgErr(err, "own freight rates")
	}
	defer rows.Close()
	out := []read.FreightRecord{}
	for rows.Next() {
		var r read.FreightRecord
		if err := rows.Scan(&r.ID, &r.VesselType, &r.Origin, &r.Destination, &r.Rate, &r.Unit, &r.Date, &r.Notes, &r.CreatedAt); err != nil {
			return nil, pgErr(err, "own freight rates")
		}
		out = append(out, r)
	}
	return out, pgErr(rows.Err(), "own freight rates")
}

// FreightAggregates implements read.FreightRateQuery: per route (vessel
// type, origin, destination, unit) and ISO week (its Monday), over the
// records of the accounts other than the caller's, each account's value
// (the continuous median of its records), ascending, and the count of
// records, only where at least MinContributors accounts contributed.
func (db *DB) FreightAggregates(ctx context.Context, r read.FreightAggregateRequest) ([]read.FreightAggregate, error) {
	since := r.Since.UTC()
	if since.IsZero() {
		since = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	rows, err := db.pool.Query(ctx, `WITH accounts AS (
			SELECT vessel_type, origin, destination, unit, date - (EXTRACT(ISODOW FROM date)::int - 1) AS week, account_id,
				percentile_cont(0.5) WITHIN GROUP (ORDER BY rate) AS rate, count(*) AS records
			FROM freight_rates
			WHERE account_id <> $1 AND ($2 = '' OR vessel_type = $2) AND date >= $3::date
			GROUP BY vessel_type, origin, destination, unit, week, account_id)
		SELECT vessel_type, origin, destination, unit, week, array_agg(rate ORDER BY rate), sum(records)
		FROM accounts
		GROUP BY vessel_type, origin, destination, unit, week
		HAVING count(*) >= $4
		ORDER BY week DESC, vessel_type, origin, destination, unit
		LIMIT $5`, r.AccountID, r.VesselType, since, max(r.MinContributors, 1), r.Limit)
	if err != nil {
		return nil, pgErr(err, "freight aggregates")
	}
	defer rows.Close()
	out := []read.FreightAggregate{}
	for rows.Next() {
		var a read.FreightAggregate
		var count int64
		if err := rows.Scan(&a.VesselType, &a.Origin, &a.Destination, &a.Unit, &a.Week, &a.Values, &count); err != nil {
			return nil, pgErr(err, "freight aggregates")
		}
		a.Count = int(count)
		out = append(out, a)
	}
	return out, pgErr(rows.Err(), "freight aggregates")
}
