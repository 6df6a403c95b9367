package clickhouse

import (
	"context"

	"overwatch/read"
)

var _ read.FreightDatasetStore = (*DB)(nil)

// OceanRates implements read.FreightDatasetStore: the published ocean
// rates of transport_rates (mode 'ocean', the newest fetch of each
// observation), newest first, at most r.Limit.
func (db *DB) OceanRates(ctx context.Context, r read.OceanRateRequest) ([]read.OceanRate, error) {
	const sql = `SELECT dataset, commodity, origin, destination, vessel_size, date, frequency, rate, unit, usd_per_tonne
	  FROM transport_rates FINAL
	 WHERE mode = 'ocean'
	 ORDER BY date DESC, dataset, origin, destination, vessel_size, commodity
	 LIMIT ?`
	limit := r.Limit
	if limit <= 0 {
		limit = 1
	}
	out := []read.OceanRate{}
	err := db.scanAll(ctx, "ocean rates", sql, []any{uint64(limit)}, func(rows interface{ Scan(...any) error }) error {
		var o read.OceanRate
		if err := rows.Scan(&o.Dataset, &o.Commodity, &o.Origin, &o.Destination, &o.VesselSize, &o.Date, &o.Frequency,
			&o.Rate, &o.Unit, &o.USDPerTonne); err != nil {
			return err
		}
		o.Date = o.Date.UTC()
		out = append(out, o)
		return nil
	})
	return out, err
}
