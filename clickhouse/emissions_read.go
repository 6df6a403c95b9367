package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/read"
)

var _ read.EmissionsStore = (*DB)(nil)

// EmissionsFactorNames implements read.EmissionsStore: the distinct names
// of the factors the stored voyages of the filter used.
func (db *DB) EmissionsFactorNames(ctx context.Context, f read.EmissionsFilter) ([]string, error) {
	where, args := emissionsWhere(f)
	var out []string
	err := db.scanAll(ctx, "emission factors", `SELECT DISTINCT arrayJoin(factors) AS name FROM voyage_emissions
		WHERE `+current("voyage_emissions")+where+` ORDER BY name`, args, func(rows interface{ Scan(...any) error }) error {
		var name string
		err := rows.Scan(&name)
		out = append(out, name)
		return err
	})
	return out, err
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

// EmissionsVoyages implements read.EmissionsStore: the current voyages of
// the filter, newest arrival first, then by IMO and ID, their inputs only
// when asked for.
func (db *DB) EmissionsVoyages(ctx context.Context, r read.EmissionsVoyagesRequest) ([]read.StoredVoyage, error) {
	where, args := emissionsWhere(r.EmissionsFilter)
	input := "''"
	if r.WithInput {
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
		if r.WithInput {
			v.Input = []byte(input)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
