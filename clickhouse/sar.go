package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/maritime/sar"
	"overwatch/read"
)

var _ read.SARStore = (*DB)(nil)

// InsertSARProducts writes catalogue products as one batch; the newest
// fetch of a product wins. Products without a valid footprint are left
// out.
func (db *DB) InsertSARProducts(ctx context.Context, products []sar.Product) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "sar_products", `name, product_type, platform, mode, start, stop, absolute_orbit, relative_orbit,
		direction, size_mb, lons, lats, min_lat, max_lat, min_lon, max_lon, source, fetched_at`,
		func(add func(...any) error) error {
			for _, p := range products {
				if !p.Footprint.Valid() || p.Start.Before(dateFloor) {
					continue
				}
				lons, lats := make([]float64, len(p.Footprint)), make([]float64, len(p.Footprint))
				for i, v := range p.Footprint {
					lons[i], lats[i] = v.Lon, v.Lat
				}
				minLat, maxLat, minLon, maxLon := p.Footprint.Bounds()
				stop := p.Stop
				if stop.Before(p.Start) {
					stop = p.Start
				}
				if err := add(p.Name, p.Type, p.Platform, p.Mode, p.Start.UTC(), stop.UTC(), uint32(max(p.AbsoluteOrbit, 0)),
					uint16(min(max(p.RelativeOrbit, 0), 65535)), p.Direction, p.SizeMB, lons, lats, minLat, maxLat, minLon, maxLon,
					p.Source, now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert SAR products: %w", err)
	}
	return nil
}

// RecordSARArea records a catalogue's answer for an area and day.
func (db *DB) RecordSARArea(ctx context.Context, area string, day time.Time, catalogue string, products int, at time.Time) error {
	err := db.derivedBatch(ctx, "sar_catalogue_areas", "area, day, catalogue, products, fetched_at", func(add func(...any) error) error {
		return add(area, dayOf(day), catalogue, uint32(max(products, 0)), at.UTC())
	})
	if err != nil {
		return fmt.Errorf("clickhouse: record SAR area: %w", err)
	}
	return nil
}

// SARAreaFetched is when a catalogue last answered for an area and day
// (ok false: never).
func (db *DB) SARAreaFetched(ctx context.Context, area string, day time.Time, catalogue string) (at time.Time, ok bool, err error) {
	var n uint64
	err = db.conn.QueryRow(ctx, `SELECT max(fetched_at), count() FROM sar_catalogue_areas WHERE area = ? AND day = toDate(?) AND catalogue = ?`,
		area, dayOf(day), catalogue).Scan(&at, &n)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("clickhouse: SAR area fetched: %w", err)
	}
	return at.UTC(), n > 0, nil
}

// sarKnownLimit bounds the products a coverage query reads: the nearest
// in time to its date, enough for every relative orbit over an area.
const sarKnownLimit = 2000

// SARProducts implements read.SARStore: the products whose footprint's
// bounding box meets the query's box, of any time (each is a known pass
// of its relative orbit), the nearest in time to the query's first.
func (db *DB) SARProducts(ctx context.Context, q read.SARQuery) ([]sar.Product, error) {
	sql := `SELECT ` + sarProductColumns + `
		FROM sar_products FINAL
		WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
		ORDER BY abs(toInt64(start) - ?), name, product_type LIMIT ?`
	args := []any{q.MinLat, q.MaxLat, q.MinLon, q.MaxLon, q.At.Unix(), sarKnownLimit}
	return db.sarProducts(ctx, "SAR products", sql, args)
}

// sarProductColumns are the columns scanSARProduct reads, in its order.
const sarProductColumns = `name, product_type, platform, mode, start, stop, absolute_orbit, relative_orbit, direction, size_mb, lons, lats, source`

// sarProducts runs a query of sarProductColumns and reads its products.
func (db *DB) sarProducts(ctx context.Context, what, sql string, args []any) ([]sar.Product, error) {
	var out []sar.Product
	err := db.scanAll(ctx, what, sql, args, func(rows interface{ Scan(...any) error }) error {
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

// SARRows counts the stored products (the samples are loaded into an
// empty table).
func (db *DB) SARRows(ctx context.Context) (uint64, error) {
	var n uint64
	if err := db.conn.QueryRow(ctx, `SELECT count() FROM sar_products`).Scan(&n); err != nil {
		return 0, fmt.Errorf("clickhouse: SAR rows: %w", err)
	}
	return n, nil
}
