package clickhouse

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"overwatch/maritime/market"
	"overwatch/read"
)

var _ read.MarketStore = (*DB)(nil)

// dateFloor is the first day a Date column holds (ClickHouse's Date
// counts days from 1970-01-01): the World Bank's monthly series start in
// 1960, and their observations before 1970 are not stored.
var dateFloor = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// InsertPrices writes the observations of a fetched or imported file as
// one batch (one block, one part: the file's series are replaced whole or
// not at all); the newest fetch of an observation wins. Observations
// before 1970 are left out (dateFloor).
func (db *DB) InsertPrices(ctx context.Context, rows []market.Price) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "commodity_prices", "source, series, name, commodity, date, frequency, value, unit, currency, usd_per_tonne, detail, published, fetched_at",
		func(add func(...any) error) error {
			for _, p := range rows {
				if p.Date.Before(dateFloor) {
					continue
				}
				if err := add(p.Source, p.Series, p.Name, p.Commodity, dayOf(p.Date), p.Frequency, p.Value, p.Unit, p.Currency,
					p.USDPerTonne, p.Detail, publishedDay(p.Published), now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert prices: %w", err)
	}
	return nil
}

// InsertRates writes the rates of a fetched or imported file as one batch,
// as InsertPrices does (rates before 1970 left out too).
func (db *DB) InsertRates(ctx context.Context, rows []market.Rate) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "transport_rates", `mode, dataset, source, commodity, region, origin, destination, vessel_size, date, frequency,
		rate, unit, usd_per_tonne, benchmark, published, fetched_at`,
		func(add func(...any) error) error {
			for _, r := range rows {
				if r.Date.Before(dateFloor) {
					continue
				}
				if err := add(r.Mode, r.Dataset, r.Source, r.Commodity, r.Region, r.Origin, r.Destination, r.VesselSize, dayOf(r.Date),
					r.Frequency, r.Rate, r.Unit, r.USDPerTonne, r.Benchmark, publishedDay(r.Published), now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert rates: %w", err)
	}
	return nil
}

// dayOf is t's UTC date at midnight.
func dayOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// depthDays is a plan's history depth in whole days (0: unlimited).
func depthDays(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Hours() / 24))
}

// CommodityPrices implements read.MarketStore: observations newest first,
// within the request's depth of their series' newest observation.
func (db *DB) CommodityPrices(ctx context.Context, r read.PriceRequest) ([]market.Price, error) {
	where := []string{"date >= toDate(?)"}
	args := []any{dayOf(r.Since)}
	if r.Commodity != "" {
		where = append(where, "commodity = ?")
		args = append(args, r.Commodity)
	}
	if n := depthDays(r.Depth); n > 0 {
		where = append(where, "date >= newest - ?")
		args = append(args, n)
	}
	args = append(args, r.Limit)
	sql := `SELECT source, series, name, commodity, date, frequency, value, unit, currency, usd_per_tonne, detail, published
		FROM commodity_prices FINAL
		ANY LEFT JOIN (SELECT source, series, max(date) AS newest FROM commodity_prices GROUP BY source, series) USING (source, series)
		WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY date DESC, commodity, source, series, detail LIMIT ?`
	var out []market.Price
	err := db.scanAll(ctx, "commodity prices", sql, args, func(rows interface{ Scan(...any) error }) error {
		var p market.Price
		if err := rows.Scan(&p.Source, &p.Series, &p.Name, &p.Commodity, &p.Date, &p.Frequency, &p.Value, &p.Unit, &p.Currency,
			&p.USDPerTonne, &p.Detail, &p.Published); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// TransportRates implements read.MarketStore: rates newest first, within
// the request's depth of their series' newest observation. A grain
// commodity (wheat, maize, soybeans, sorghum) also selects the rates
// published for grain as a whole.
func (db *DB) TransportRates(ctx context.Context, r read.TransportRequest) ([]market.Rate, error) {
	where := []string{"date >= toDate(?)"}
	args := []any{dayOf(r.Since)}
	if r.Mode != "" {
		where = append(where, "mode = ?")
		args = append(args, r.Mode)
	}
	if r.Commodity != "" {
		where = append(where, "commodity IN (?, ?)")
		general := r.Commodity
		if market.IsGrain(r.Commodity) {
			general = "grain"
		}
		args = append(args, r.Commodity, general)
	}
	if r.Regions != "" {
		where = append(where, "has(?, region)")
		args = append(args, strings.Split(r.Regions, "\n"))
	}
	if n := depthDays(r.Depth); n > 0 {
		where = append(where, "date >= newest - ?")
		args = append(args, n)
	}
	args = append(args, r.Limit)
	sql := `SELECT mode, dataset, source, commodity, region, origin, destination, vessel_size, date, frequency, rate, unit,
			usd_per_tonne, benchmark, published
		FROM transport_rates FINAL
		ANY LEFT JOIN (SELECT dataset, region, origin, destination, max(date) AS newest FROM transport_rates
			GROUP BY dataset, region, origin, destination) USING (dataset, region, origin, destination)
		WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY date DESC, mode, dataset, region, origin, destination, vessel_size, commodity LIMIT ?`
	var out []market.Rate
	err := db.scanAll(ctx, "transport rates", sql, args, func(rows interface{ Scan(...any) error }) error {
		var x market.Rate
		if err := rows.Scan(&x.Mode, &x.Dataset, &x.Source, &x.Commodity, &x.Region, &x.Origin, &x.Destination, &x.VesselSize,
			&x.Date, &x.Frequency, &x.Rate, &x.Unit, &x.USDPerTonne, &x.Benchmark, &x.Published); err != nil {
			return err
		}
		out = append(out, x)
		return nil
	})
	return out, err
}

// TransportRegions implements read.MarketStore: the region names of a
// mode's rates ("" for every mode), for the fuzzy region parameter.
func (db *DB) TransportRegions(ctx context.Context, mode string) ([]string, error) {
	var out []string
	err := db.scanAll(ctx, "transport regions", `SELECT DISTINCT region FROM transport_rates WHERE (? = '' OR mode = ?) ORDER BY region`,
		[]any{mode, mode}, func(rows interface{ Scan(...any) error }) error {
			var s string
			if err := rows.Scan(&s); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		})
	return out, err
}

// MarketRows counts the rows of the market tables (the samples are
// loaded into empty ones).
func (db *DB) MarketRows(ctx context.Context) (prices, rates uint64, err error) {
	err = db.conn.QueryRow(ctx, `SELECT (SELECT count() FROM commodity_prices), (SELECT count() FROM transport_rates)`).Scan(&prices, &rates)
	if err != nil {
		return 0, 0, fmt.Errorf("clickhouse: market rows: %w", err)
	}
	return prices, rates, nil
}
