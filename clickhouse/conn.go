package clickhouse

import (
	"context"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"overwatch"
)

// conn is the pool with every query's arguments made bindable first.
// clickhouse-go binds arguments on the client, and binds a fmt.Stringer as
// quoted text: an overwatch.IMO would become '9321483', which ClickHouse
// refuses to compare with a UInt32 column. conn binds IMOs as numbers.
// In cluster mode (cluster set) it also renders each statement for the
// cluster (cluster.go).
type conn struct {
	driver.Conn
	cluster *cluster
	opts    *ch.Options
}

// Query runs a query with its arguments made bindable.
func (c conn) Query(ctx context.Context, query string, args ...any) (driver.Rows, error) {
	return c.Conn.Query(ctx, c.cluster.qualify(query), bindable(args)...)
}

// QueryRow runs a one-row query with its arguments made bindable.
func (c conn) QueryRow(ctx context.Context, query string, args ...any) driver.Row {
	return c.Conn.QueryRow(ctx, c.cluster.qualify(query), bindable(args)...)
}

// Exec runs a statement with its arguments made bindable.
func (c conn) Exec(ctx context.Context, query string, args ...any) error {
	return c.exec(ctx, query, args)
}

// Select runs a query into dest with its arguments made bindable.
func (c conn) Select(ctx context.Context, dest any, query string, args ...any) error {
	return c.Conn.Select(ctx, dest, c.cluster.qualify(query), bindable(args)...)
}

// bindable replaces IMOs (and slices of them) by their numbers.
func bindable(args []any) []any {
	var out []any
	for i, a := range args {
		var v any
		switch a := a.(type) {
		case overwatch.IMO:
			v = uint32(a)
		case []overwatch.IMO:
			u := make([]uint32, len(a))
			for j, n := range a {
				u[j] = uint32(n)
			}
			v = u
		default:
			continue
		}
		if out == nil {
			out = append([]any(nil), args...)
		}
		out[i] = v
	}
	if out == nil {
		return args
	}
	return out
}
