package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"overwatch/jobs"
	"overwatch/read"
)

var _ jobs.FreightPublisher = (*DB)(nil)

// freightWeek is the Monday 00:00 UTC of t's ISO week.
func freightWeek(t time.Time) time.Time {
	d := t.UTC().Truncate(24 * time.Hour)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

// PublishFreightWeeks implements read.FreightRateQuery and
// jobs.FreightPublisher: it publishes, oldest first, each week that has
// ended by now (UTC) and is not marked in freight_rate_weeks, from the week
// after the newest marked one (none marked: the week of the oldest record,
// or else the last ended week alone). When the last ended week is marked,
// it costs one lookup.
func (db *DB) PublishFreightWeeks(ctx context.Context, now time.Time, minContributors int) (weeks, aggregates int, err error) {
	last := freightWeek(now).AddDate(0, 0, -7)
	var newest, oldest *time.Time
	if err := db.pool.QueryRow(ctx, `SELECT max(week) FROM freight_rate_weeks`).Scan(&newest); err != nil {
		return 0, 0, pgErr(err, "freight weeks")
	}
	if newest != nil && !newest.Before(last) {
		return 0, 0, nil
	}
	start := last
	if newest != nil {
		start = newest.AddDate(0, 0, 7)
	} else {
		if err := db.pool.QueryRow(ctx, `SELECT min(created_at) FROM freight_rates`).Scan(&oldest); err != nil {
			return 0, 0, pgErr(err, "freight weeks")
		}
		if oldest != nil && freightWeek(*oldest).Before(last) {
			start = freightWeek(*oldest)
		}
	}
	for w := start; !w.After(last); w = w.AddDate(0, 0, 7) {
		published, n, err := db.publishFreightWeek(ctx, w, minContributors)
		if err != nil {
			return weeks, aggregates, err
		}
		if published {
			weeks++
			aggregates += n
		}
	}
	return weeks, aggregates, nil
}

// publishFreightWeek publishes the week starting on the Monday week, in
// one transaction: it marks the week (ON CONFLICT DO NOTHING: when another
// publisher marked it, it waits for that one's transaction and then does
// nothing) and, only when it marked it, stores the aggregate of each route
// that at least minContributors accounts submitted records to that week
// (by created_at), each once (ON CONFLICT DO NOTHING).
func (db *DB) publishFreightWeek(ctx context.Context, week time.Time, minContributors int) (published bool, n int, err error) {
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO freight_rate_weeks (week) VALUES ($1) ON CONFLICT DO NOTHING`, week)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		published = true
		contributions, err := freightContributions(ctx, tx, week)
		if err != nil {
			return err
		}
		batch := &pgx.Batch{}
		for _, c := range contributions {
			a, ok := read.PublishFreightAggregate(c, week, minContributors)
			if !ok {
				continue
			}
			batch.Queue(`INSERT INTO freight_rate_aggregates (week, vessel_type, origin, destination, unit, rate, count, contributors)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
				week, a.VesselType, a.Origin, a.Destination, a.Unit, a.Rate, a.Count, a.Contributors)
			n++
		}
		if batch.Len() == 0 {
			return nil
		}
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		return false, 0, pgErr(err, "publish freight week")
	}
	return published, n, nil
}

// freightContributions are the records submitted in the week starting on
// the Monday week, per route: each account's value (the continuous median
// of its records there), ascending, and the count of records.
func freightContributions(ctx context.Context, tx pgx.Tx, week time.Time) ([]read.FreightContributions, error) {
	rows, err := tx.Query(ctx, `WITH accounts AS (
			SELECT vessel_type, origin, destination, unit, account_id,
				percentile_cont(0.5) WITHIN GROUP (ORDER BY rate) AS rate, count(*) AS records
			FROM freight_rates
			WHERE created_at >= $1 AND created_at < $2
			GROUP BY vessel_type, origin, destination, unit, account_id)
		SELECT vessel_type, origin, destination, unit, array_agg(rate ORDER BY rate), sum(records)
		FROM accounts
		GROUP BY vessel_type, origin, destination, unit
		ORDER BY vessel_type, origin, destination, unit`, week, week.AddDate(0, 0, 7))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []read.FreightContributions
	for rows.Next() {
		var c read.FreightContributions
		var count int64
		if err := rows.Scan(&c.VesselType, &c.Origin, &c.Destination, &c.Unit, &c.Values, &count); err != nil {
			return nil, err
		}
		c.Count = int(count)
		out = append(out, c)
	}
	return out, rows.Err()
}

// FreightAggregates implements read.FreightRateQuery: the published
// aggregates of the weeks that ended after r.Since, newest week first.
func (db *DB) FreightAggregates(ctx context.Context, r read.FreightAggregateRequest) ([]read.FreightAggregate, error) {
	from := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	if !r.Since.IsZero() {
		// A week ends after Since when it starts on or after the Monday
		// of the week holding Since (a Since on a Monday midnight ends
		// the week before it).
		from = freightWeek(r.Since)
	}
	rows, err := db.pool.Query(ctx, `SELECT week, vessel_type, origin, destination, unit, rate, count, contributors
		FROM freight_rate_aggregates
		WHERE ($1 = '' OR vessel_type = $1) AND week >= $2
		ORDER BY week DESC, vessel_type, origin, destination, unit
		LIMIT $3`, r.VesselType, from, r.Limit)
	if err != nil {
		return nil, pgErr(err, "freight aggregates")
	}
	defer rows.Close()
	out := []read.FreightAggregate{}
	for rows.Next() {
		var a read.FreightAggregate
		if err := rows.Scan(&a.Week, &a.VesselType, &a.Origin, &a.Destination, &a.Unit, &a.Rate, &a.Count, &a.Contributors); err != nil {
			return nil, pgErr(err, "freight aggregates")
		}
		out = append(out, a)
	}
	return out, pgErr(rows.Err(), "freight aggregates")
}
