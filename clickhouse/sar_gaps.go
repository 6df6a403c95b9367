package clickhouse

import (
	"context"
	"strings"

	"overwatch/maritime/sar"
	"overwatch/read"
)

var _ read.SARGapStore = (*DB)(nil)

// sarGapLimit bounds the products a page of gaps reads: the nearest in
// time to the page's span, enough for every relative orbit over a page's
// areas.
const sarGapLimit = 5000

// SARGapProducts implements read.SARGapStore: in one query, the stored
// products whose footprint's bounding box meets any of the query's boxes,
// of any time (each is a known pass of its relative orbit), those within
// From..To first, then the nearest in time to it.
func (db *DB) SARGapProducts(ctx context.Context, q read.SARGapQuery) ([]sar.Product, error) {
	if len(q.Boxes) == 0 {
		return nil, nil
	}
	var where []string
	args := make([]any, 0, 4*len(q.Boxes)+3)
	for _, b := range q.Boxes {
		where = append(where, "(max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?)")
		args = append(args, b.MinLat, b.MaxLat, b.MinLon, b.MaxLon)
	}
	sql := `SELECT ` + sarProductColumns + `
		FROM sar_products FINAL
		WHERE ` + strings.Join(where, " OR ") + `
		ORDER BY greatest(greatest(toInt64(start) - ?, ? - toInt64(start)), 0), name, product_type LIMIT ?`
	args = append(args, q.To.Unix(), q.From.Unix(), sarGapLimit)
	return db.sarProducts(ctx, "SAR gap products", sql, args)
}
