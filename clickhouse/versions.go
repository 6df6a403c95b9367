package clickhouse

import (
	"context"
	"fmt"
	"strings"
	"time"

	"overwatch/read"
)

var _ read.TableVersions = (*DB)(nil)

// fetchedTables are the tables of the external sources, each with a
// fetched_at column: their version is their newest fetch with their rows.
var fetchedTables = []string{"commodity_prices", "transport_rates", "crop_psd", "crop_wasde", "crop_ndvi", "trade_flows", "sar_products"}

// TableVersions implements read.TableVersions: a derived table's version
// is its newest recorded generation with the number of (day, generation)
// sets recorded (a cleanup changes it too); the imported actuals' is their
// newest import with their rows, the sanctions lists' their newest import, the
// tables of the external sources (fetchedTables) their newest fetch with their rows.
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
	var imported time.Time
	var actuals, sanctions uint64
	err = db.conn.QueryRow(ctx, `SELECT (SELECT max(imported_at) FROM export_actuals), (SELECT count() FROM export_actuals),
		(SELECT max(gen) FROM sanctions_imports)`).Scan(&imported, &actuals, &sanctions)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: table versions: %w", err)
	}
	out["export_actuals"] = uint64(imported.UnixNano()) ^ actuals<<48
	out["sanctions_entries"] = sanctions
	parts := make([]string, len(fetchedTables))
	for i, t := range fetchedTables {
		parts[i] = "SELECT '" + t + "' AS name, max(fetched_at) AS at, count() AS n FROM " + t
	}
	err = db.scanAll(ctx, "table versions", strings.Join(parts, " UNION ALL "), nil, func(rows interface{ Scan(...any) error }) error {
		var name string
		var at time.Time
		var n uint64
		if err := rows.Scan(&name, &at, &n); err != nil {
			return err
		}
		out[name] = uint64(at.UnixNano()) ^ n<<48
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
