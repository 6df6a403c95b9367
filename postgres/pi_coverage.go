package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"overwatch"
	"overwatch/jobs"
	"overwatch/read"
	"overwatch/write"
)

var (
	_ write.PICoverageStore = (*DB)(nil)
	_ read.PICoverageQuery  = (*DB)(nil)
)

func piDate(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// ImportPICoverage implements write.PICoverageStore: in one transaction,
// the rows are copied into a temporary table, and the last row of each
// vessel, insurer and start is inserted as the account's record (NULL
// account: the shared base) or replaces the record already there.
func (db *DB) ImportPICoverage(ctx context.Context, accountID int64, rows []write.PICoverageRow, source string) (int, error) {
	var account any
	if accountID != 0 {
		account = accountID
	}
	stored := 0
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `CREATE TEMP TABLE pi_import (ord integer, imo integer, club_id text, club_key text, club_name text,
			vessel_name text, effective_from date, effective_to date) ON COMMIT DROP`); err != nil {
			return err
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"pi_import"},
			[]string{"ord", "imo", "club_id", "club_key", "club_name", "vessel_name", "effective_from", "effective_to"},
			pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
				r := rows[i]
				return []any{int32(i), int32(r.IMO), r.ClubID, r.ClubKey, r.ClubName, r.VesselName, piDate(r.From), piDate(r.To)}, nil
			})); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO pi_coverage AS p (account_id, imo, club_id, club_key, club_name, vessel_name, effective_from, effective_to, source)
			SELECT DISTINCT ON (imo, club_key, effective_from) $1::bigint, imo, club_id, club_key, club_name, vessel_name, effective_from, effective_to, $2
			FROM pi_import ORDER BY imo, club_key, effective_from, ord DESC
			ON CONFLICT ON CONSTRAINT pi_coverage_unique DO UPDATE SET club_id = EXCLUDED.club_id, club_name = EXCLUDED.club_name,
				vessel_name = EXCLUDED.vessel_name, effective_to = EXCLUDED.effective_to, source = EXCLUDED.source, created_at = now()`,
			account, source)
		if err != nil {
			return err
		}
		stored = int(tag.RowsAffected())
		return nil
	})
	if err != nil {
		return 0, pgErr(err, "import P&I coverage")
	}
	return stored, nil
}

// PICoverage implements read.PICoverageQuery: the vessel's base records
// and the account's, never another account's.
func (db *DB) PICoverage(ctx context.Context, accountID int64, imo overwatch.IMO) ([]read.PICoverageRecord, error) {
	rows, err := db.pool.Query(ctx, `SELECT imo, account_id IS NOT NULL, club_id, club_key, club_name, vessel_name, effective_from, effective_to, source
		FROM pi_coverage WHERE imo = $1 AND (account_id IS NULL OR account_id = $2)
		ORDER BY effective_from DESC NULLS LAST, id LIMIT 5000`, int64(imo), accountID)
	if err != nil {
		return nil, pgErr(err, "P&I coverage")
	}
	return scanPICoverage(rows)
}

// PICoverageList implements read.PICoverageQuery: the account's records
// layered over the base in SQL (a base record is left out when the
// account has one of the same vessel, insurer and start), of the vessels
// imos or of every vessel, by IMO, newest start first (open starts last),
// own before base, then by insurer; at most limit (0: all).
func (db *DB) PICoverageList(ctx context.Context, accountID int64, imos []overwatch.IMO, limit int) ([]read.PICoverageRecord, error) {
	var only []int32 // nil: every vessel
	if len(imos) > 0 {
		only = make([]int32, len(imos))
		for i, imo := range imos {
			only[i] = int32(imo)
		}
	}
	var lim any // NULL: LIMIT ALL
	if limit > 0 {
		lim = limit
	}
	rows, err := db.pool.Query(ctx, `SELECT p.imo, p.account_id IS NOT NULL, p.club_id, p.club_key, p.club_name, p.vessel_name,
			p.effective_from, p.effective_to, p.source
		FROM pi_coverage p
		WHERE ($2::integer[] IS NULL OR p.imo = ANY ($2))
		  AND (p.account_id = $1 OR p.account_id IS NULL AND NOT EXISTS (
			SELECT 1 FROM pi_coverage o WHERE o.account_id = $1 AND o.imo = p.imo AND o.club_key = p.club_key
			   AND o.effective_from IS NOT DISTINCT FROM p.effective_from))
		ORDER BY p.imo, p.effective_from DESC NULLS LAST, p.account_id IS NULL, p.club_key, p.id
		LIMIT $3`, accountID, only, lim)
	if err != nil {
		return nil, pgErr(err, "P&I coverage list")
	}
	return scanPICoverage(rows)
}

// scanPICoverage reads the rows of the coverage queries.
func scanPICoverage(rows pgx.Rows) ([]read.PICoverageRecord, error) {
	defer rows.Close()
	out := []read.PICoverageRecord{}
	for rows.Next() {
		var r read.PICoverageRecord
		var imo int32
		var from, to *time.Time
		if err := rows.Scan(&imo, &r.Own, &r.ClubID, &r.ClubKey, &r.ClubName, &r.VesselName, &from, &to, &r.Source); err != nil {
			return nil, pgErr(err, "P&I coverage")
		}
		r.IMO = overwatch.IMO(imo)
		if from != nil {
			r.From = from.UTC()
		}
		if to != nil {
			r.To = to.UTC()
		}
		out = append(out, r)
	}
	return out, pgErr(rows.Err(), "P&I coverage")
}

// PIBaseCurrent implements jobs.PICoverBase: the shared base's records in
// force on day (open ends in force), never an account's own.
func (db *DB) PIBaseCurrent(ctx context.Context, day time.Time) ([]jobs.PICover, error) {
	rows, err := db.pool.Query(ctx, `SELECT imo, club_id, club_name FROM pi_coverage
		WHERE account_id IS NULL
		  AND (effective_from IS NULL OR effective_from <= $1)
		  AND (effective_to IS NULL OR effective_to >= $1)
		ORDER BY imo, id`, day)
	if err != nil {
		return nil, pgErr(err, "P&I coverage base")
	}
	defer rows.Close()
	var out []jobs.PICover
	for rows.Next() {
		var r jobs.PICover
		var imo int64
		if err := rows.Scan(&imo, &r.ClubID, &r.ClubName); err != nil {
			return nil, pgErr(err, "P&I coverage base")
		}
		r.IMO = overwatch.IMO(imo)
		out = append(out, r)
	}
	return out, pgErr(rows.Err(), "P&I coverage base")
}

// PIBaseUnlisted implements read.PICoverageQuery: the unmatched insurer
// names of the shared base only.
func (db *DB) PIBaseUnlisted(ctx context.Context, limit int) ([]string, error) {
	rows, err := db.pool.Query(ctx, `SELECT DISTINCT club_name FROM pi_coverage
		WHERE account_id IS NULL AND club_id = '' ORDER BY club_name LIMIT $1`, limit)
	if err != nil {
		return nil, pgErr(err, "P&I unlisted insurers")
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if names == nil {
		names = []string{}
	}
	return names, pgErr(err, "P&I unlisted insurers")
}
