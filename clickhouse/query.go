package clickhouse

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
)

// The helpers of the read queries. Every read of a derived table keeps
// only the current generation of each day (current), and of the port
// calls only those of confidence 2 or more (publishedCalls).

// publishedCalls is the filter of the port calls the analytics count.
var publishedCalls = current("port_calls") + " AND confidence >= 2"

// query builds a WHERE clause and its bound arguments.
type query struct {
	where []string
	args  []any
}

func (q *query) add(cond string, args ...any) *query {
	q.where = append(q.where, cond)
	q.args = append(q.args, args...)
	return q
}

// ports adds port IN (...) with one placeholder per slug.
func (q *query) ports(slugs []string) *query {
	if len(slugs) == 0 {
		return q.add("0")
	}
	ph := strings.TrimSuffix(strings.Repeat("?, ", len(slugs)), ", ")
	args := make([]any, len(slugs))
	for i, s := range slugs {
		args[i] = s
	}
	return q.add("port IN ("+ph+")", args...)
}

// port adds port = ? unless slug is "" (every port).
func (q *query) port(slug string) *query {
	if slug == "" {
		return q
	}
	return q.add("port = ?", slug)
}

// String is the conditions joined with AND.
func (q *query) String() string { return strings.Join(q.where, " AND ") }

// date is a Date parameter, bound as text for toDate(?): comparing a Date
// column with a bound DateTime is not portable to 18.16.
func date(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// nanNil is v, or nil for NaN (what ClickHouse's -If aggregates return
// over no rows) and the infinities.
func nanNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// scanAll runs the query and calls scan for each row.
func (db *DB) scanAll(ctx context.Context, what, sql string, args []any, scan func(rows interface{ Scan(...any) error }) error) error {
	rows, err := db.conn.Query(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("clickhouse: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("clickhouse: %s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("clickhouse: %s: %w", what, err)
	}
	return nil
}
