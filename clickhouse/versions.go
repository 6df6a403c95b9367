package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/read"
)

var _ read.TableVersions = (*DB)(nil)

// TableVersions implements read.TableVersions: a derived table's version
// is its newest recorded generation with the number of (day, generation)
// sets recorded (a cleanup changes it too); the imported actuals' is their
// newest import with their rows, the sanctions lists' their newest import, the market
// tables' (commodity_prices, transport_rates) their newest fetch with their rows.
// Tables never derived are absent (version 0).
func (db *DB) TableVersions(ctx context.Context) (map[string]uint64, error) {
	out := map[string]uint64{}
	err := db.scanAll(ctx, "table versions", `SELECT name, max(gen), count() FROM derivation_days GROUP BY name`, nil,
		func(rows interface{ Scan(...any) error }) error {
			var name string
			var gen, n uint64
			if err := rows.Scan(&name, &gen, &n); err != nil {
				return err
			}
			out[name] = gen ^ n<<48
			return nil
		})
	if err != nil {
		return nil, err
	}
	var imported, pricesAt, ratesAt time.Time
	var actuals, sanctions, prices, rates uint64
	err = db.conn.QueryRow(ctx, `SELECT (SELECT max(imported_at) FROM export_actuals), (SELECT count() FROM export_actuals),
		(SELECT max(gen) FROM sanctions_imports),
		(SELECT max(fetched_at) FROM commodity_prices), (SELECT count() FROM commodity_prices),
		(SELECT max(fetched_at) FROM transport_rates), (SELECT count() FROM transport_rates)`).Scan(&imported, &actuals, &sanctions,
		&pricesAt, &prices, &ratesAt, &rates)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: table versions: %w", err)
	}
	out["export_actuals"] = uint64(imported.UnixNano()) ^ actuals<<48
	out["sanctions_entries"] = sanctions
	out["commodity_prices"] = uint64(pricesAt.UnixNano()) ^ prices<<48
	out["transport_rates"] = uint64(ratesAt.UnixNano()) ^ rates<<48
	return out, nil
}
