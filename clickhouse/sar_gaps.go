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
	sql := `SELECT name, product_type, platform, mode, start, stop, absolute_orbit, relative_orbit, direction, size_mb, lons, lats, source
		FROM sar_products FINAL
		WHERE ` + strings.Join(where, " OR ") + `
		ORDER BY greatest(greatest(toInt64(start) - ?, ? - toInt64(start)), 0), name, product_type LIMIT ?`
	args = append(args, q.To.Unix(), q.From.Unix(), sarGapLimit)
	var out []sar.Product
	err := db.scanAll(ctx, "SAR gap products", sql, args, func(rows interface{ Scan(...any) error }) error {
		var p sar.Product
		var abs uint32
		var rel uint16
		var lons, lats []float64
		if err := rows.Scan(&p.Name, &p.Type, &p.Platform, &p.Mode, &p.Start, &p.Stop, &abs, &rel, &p.Direction, &p.SizeMB,
			&lons, &lats, &p.Source); err != nil {
			return err
		}
		p.AbsoluteOrbit, p.RelativeOrbit = int(abs), int(rel)
		p.Start, p.Stop = p.Start.UTC(), p.Stop.UTC()
		p.Footprint = make(sar.Polygon, 0, min(len(lons), len(lats)))
		for i := range min(len(lons), len(lats)) {
			p.Footprint = append(p.Footprint, sar.LonLat{Lon: lons[i], Lat: lats[i]})
		}
		out = append(out, p)
		return nil
	})
	return out, err
}
