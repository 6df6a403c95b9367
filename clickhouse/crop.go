package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/maritime/crop"
	"overwatch/read"
)

var _ read.CropStore = (*DB)(nil)

// InsertPSD writes the rows of a PSD file as one batch; the newest import
// of a row wins.
func (db *DB) InsertPSD(ctx context.Context, rows []crop.PSDRow) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "crop_psd", "commodity_code, commodity, country_code, country, market_year, revised, attribute_id, attribute, unit_id, unit, value, fetched_at",
		func(add func(...any) error) error {
			for _, r := range rows {
				if r.MarketYear < 0 || r.MarketYear > 65535 {
					continue
				}
				if err := add(r.CommodityCode, r.Commodity, r.CountryCode, r.Country, uint16(r.MarketYear), dayOf(later(r.Revised, dateFloor)),
					r.AttributeID, r.Attribute, r.UnitID, r.Unit, r.Value, now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert psd: %w", err)
	}
	return nil
}

// InsertWASDE writes the rows of a WASDE file as one batch.
func (db *DB) InsertWASDE(ctx context.Context, rows []crop.WASDERow) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "crop_wasde", "wasde_number, released, report_title, attribute, projection, commodity, region, market_year, flag, period, value, unit, fetched_at",
		func(add func(...any) error) error {
			for _, r := range rows {
				if r.WasdeNumber < 0 || r.WasdeNumber > 1<<31 {
					continue
				}
				if err := add(uint32(r.WasdeNumber), dayOf(later(r.Released, dateFloor)), r.Table, r.Attribute, r.Projection, r.Commodity, r.Region,
					r.MarketYear, r.Flag, r.Period, r.Value, r.Unit, now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert wasde: %w", err)
	}
	return nil
}

// InsertNDVI writes NDVI samples (with their region) as one batch;
// samples before 1970 are left out (dateFloor).
func (db *DB) InsertNDVI(ctx context.Context, rows []crop.NDVISample) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "crop_ndvi", "region, category, pixel, latitude, longitude, date, ndvi, modland, product, fetched_at",
		func(add func(...any) error) error {
			for _, s := range rows {
				if s.Date.Before(dateFloor) {
					continue
				}
				if err := add(s.Region, s.Category, s.Pixel, s.Latitude, s.Longitude, dayOf(s.Date), s.NDVI, s.MODLAND, s.Product, now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert ndvi: %w", err)
	}
	return nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// CropRows counts the rows of the PSD and WASDE tables (the samples are
// loaded into empty ones).
func (db *DB) CropRows(ctx context.Context) (psd, wasde uint64, err error) {
	err = db.conn.QueryRow(ctx, `SELECT (SELECT count() FROM crop_psd), (SELECT count() FROM crop_wasde)`).Scan(&psd, &wasde)
	if err != nil {
		return 0, 0, fmt.Errorf("clickhouse: crop rows: %w", err)
	}
	return psd, wasde, nil
}

// cropWASDETables are the WASDE tables the regions read.
var cropWASDETables = []string{"World Soybean Supply and Use", "U.S. Soybeans and Products Supply and Use (Domestic Measure)",
	"U.S. Wheat by Class: Supply and Use"}

// CropInputs implements read.CropStore: the PSD rows of the regions'
// countries, the WASDE rows of the tables they read, every usable NDVI
// composite (mean of the usable pixels per region and date) and the
// service's estimated tonnage at the regions' ports over the last
// r.ExportDays days (the current generation of estimates_weekly).
func (db *DB) CropInputs(ctx context.Context, r read.CropInputsRequest) (crop.Inputs, error) {
	var in crop.Inputs
	var countries []string
	for _, reg := range crop.Regions() {
		countries = append(countries, reg.PSDCountry)
	}
	err := db.scanAll(ctx, "crop psd", `SELECT commodity_code, commodity, country_code, country, market_year, revised, attribute_id, attribute,
			unit_id, unit, value FROM crop_psd FINAL WHERE has(?, country_code)`, []any{countries},
		func(rows interface{ Scan(...any) error }) error {
			var p crop.PSDRow
			var my uint16
			if err := rows.Scan(&p.CommodityCode, &p.Commodity, &p.CountryCode, &p.Country, &my, &p.Revised, &p.AttributeID, &p.Attribute,
				&p.UnitID, &p.Unit, &p.Value); err != nil {
				return err
			}
			p.MarketYear = int(my)
			in.PSD = append(in.PSD, p)
			return nil
		})
	if err != nil {
		return in, err
	}
	err = db.scanAll(ctx, "crop wasde", `SELECT wasde_number, released, report_title, attribute, projection, commodity, region, market_year,
			flag, period, value, unit FROM crop_wasde FINAL WHERE has(?, report_title)`, []any{cropWASDETables},
		func(rows interface{ Scan(...any) error }) error {
			var w crop.WASDERow
			var n uint32
			if err := rows.Scan(&n, &w.Released, &w.Table, &w.Attribute, &w.Projection, &w.Commodity, &w.Region, &w.MarketYear,
				&w.Flag, &w.Period, &w.Value, &w.Unit); err != nil {
				return err
			}
			w.WasdeNumber = int(n)
			in.WASDE = append(in.WASDE, w)
			return nil
		})
	if err != nil {
		return in, err
	}
	err = db.scanAll(ctx, "crop ndvi", `SELECT region, date, avg(ndvi), toUInt32(count()) FROM crop_ndvi FINAL
			WHERE modland IN ('0b00', '0b01') AND ndvi >= -1 AND ndvi <= 1 AND region != ''
			GROUP BY region, date ORDER BY region, date`, nil,
		func(rows interface{ Scan(...any) error }) error {
			var c crop.Composite
			var n uint32
			if err := rows.Scan(&c.Region, &c.Date, &c.NDVI, &n); err != nil {
				return err
			}
			c.Pixels = int(n)
			in.NDVI = append(in.NDVI, c)
			return nil
		})
	if err != nil {
		return in, err
	}
	in.PortTonnes = map[string]float64{}
	if r.ExportDays <= 0 {
		return in, nil
	}
	err = db.scanAll(ctx, "crop port tonnage", `SELECT port, sum(tonnage) FROM estimates_weekly
			WHERE `+current("estimates_weekly")+` AND has(?, port) AND day >= toDate(?) GROUP BY port`,
		[]any{crop.Ports(), date(r.Today.UTC().AddDate(0, 0, -r.ExportDays))},
		func(rows interface{ Scan(...any) error }) error {
			var p string
			var t float64
			if err := rows.Scan(&p, &t); err != nil {
				return err
			}
			in.PortTonnes[p] = t
			return nil
		})
	return in, err
}
