-- Crop health: USDA PSD Online rows, WASDE report rows and
-- MODIS NDVI point samples (AppEEARS), read whole by GET
-- /v1/satellite/health and /v1/satellite/production (maritime/crop).
--
-- PSD codes stay zero-padded strings ('0440000'), and revised is the row's
-- Calendar_Year/Month (when USDA last revised it), not its period. A
-- file is stored as one batch; the newest import of a row wins
-- (ReplacingMergeTree on fetched_at, read with FINAL).
CREATE TABLE IF NOT EXISTS crop_psd (
    commodity_code String,
    commodity String,
    country_code String,
    country String,
    market_year UInt16,
    revised Date,
    attribute_id String,
    attribute String,
    unit_id String,
    unit String,
    value Float64,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (country_code, commodity_code, market_year, attribute_id, unit_id);

CREATE TABLE IF NOT EXISTS crop_wasde (
    wasde_number UInt32,
    released Date,
    report_title String,
    attribute String,
    projection String,
    commodity String,
    region String,
    market_year String,
    flag String,
    period String,
    value Float64,
    unit String,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (report_title, commodity, region, attribute, projection, market_year, period, unit, wasde_number);

CREATE TABLE IF NOT EXISTS crop_ndvi (
    region String,
    category String,
    pixel String,
    latitude Float64,
    longitude Float64,
    date Date,
    ndvi Float64,
    modland String,
    product String,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (region, category, pixel, date, product);
