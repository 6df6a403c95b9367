package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/read"
)

var _ read.EmissionsQuery = (*DB)(nil)

// EmissionsVoyages implements read.EmissionsQuery through the read cache
// (readcache.go): the current voyages of the filter, newest arrival first,
// then by IMO and ID, their results decoded once per cached answer, their
// inputs only when asked for.
func (db *DB) EmissionsVoyages(ctx context.Context, f read.EmissionsFilter, withInput bool) ([]read.StoredVoyage, error) {
	f.From, f.To = minute(f.From), minute(f.To)
	return cached(ctx, db, fmt.Sprintf("emissions|%d|%s|%d|%d|%v", f.IMO, f.Port, f.From.Unix(), f.To.Unix(), withInput), sliceLen,
		func() ([]read.StoredVoyage, error) { return db.emissionsVoyages(ctx, f, withInput) })
}

// EmissionsFactorNames implements read.EmissionsQuery: the distinct names
// of the factors the stored voyages of the filter used.
func (db *DB) EmissionsFactorNames(ctx context.Context, f read.EmissionsFilter) ([]string, error) {
	f.From, f.To = minute(f.From), minute(f.To)
	return cached(ctx, db, fmt.Sprintf("emissionsFactors|%d|%s|%d|%d", f.IMO, f.Port, f.From.Unix(), f.To.Unix()), sliceLen,
		func() ([]string, error) {
			where, args := emissionsWhere(f)
			rows, err := db.conn.Query(ctx, `SELECT DISTINCT arrayJoin(factors) AS name FROM voyage_emissions
				WHERE `+current("voyage_emissions")+where+` ORDER BY name`, args...)
			if err != nil {
				return nil, fmt.Errorf("clickhouse: emission factors: %w", err)
			}
			defer rows.Close()
			var out []string
			for rows.Next() {
				var name string
				if err := rows.Scan(&name); err != nil {
					return nil, fmt.Errorf("clickhouse: emission factors: %w", err)
				}
				out = append(out, name)
			}
			return out, rows.Err()
		})
}

// emissionsWhere is the filter's condition (after current()) and its arguments.
func emissionsWhere(f read.EmissionsFilter) (string, []any) {
	if epoch := time.Unix(0, 0); f.From.Before(epoch) {
		f.From = epoch // no floor
	}
	where := " AND day >= toDate(?) AND day <= toDate(?) AND arrival >= ? AND arrival < ?"
	args := []any{f.From.UTC(), f.To.UTC(), f.From.UTC(), f.To.UTC()}
	if f.IMO != 0 {
		where += " AND imo = ?"
		args = append(args, f.IMO)
	}
	if f.Port != "" {
		where += " AND (from_port = ? OR to_port = ?)"
		args = append(args, f.Port, f.Port)
	}
	return where, args
}

func (db *DB) emissionsVoyages(ctx context.Context, f read.EmissionsFilter, withInput bool) ([]read.StoredVoyage, error) {
	where, args := emissionsWhere(f)
	input := "''"
	if withInput {
		input = "input"
	}
	rows, err := db.conn.Query(ctx, `SELECT id, `+input+`, result FROM voyage_emissions
		WHERE `+current("voyage_emissions")+where+`
		ORDER BY arrival DESC, imo, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: voyage emissions: %w", err)
	}
	defer rows.Close()
	var out []read.StoredVoyage
	strs := interner{}
	for rows.Next() {
		var (
			v             read.StoredVoyage
			input, result string
		)
		if err := rows.Scan(&v.ID, &input, &result); err != nil {
			return nil, fmt.Errorf("clickhouse: voyage emissions: %w", err)
		}
		if v.Result, err = decodeVoyageResult([]byte(result), strs); err != nil {
			return nil, fmt.Errorf("clickhouse: voyage %s: %w", v.ID, err)
		}
		if withInput {
			v.Input = []byte(input)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
