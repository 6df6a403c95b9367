-- Calibration against official actuals.
--
-- The publication date of an imported figure (a USDA WA_GR101 report's
-- issue date; 1970-01-01 when the file does not say). ClickHouse 18.16 has
-- no ADD COLUMN IF NOT EXISTS: Migrate takes "column already exists" from
-- a concurrent instance as done.
ALTER TABLE export_actuals ADD COLUMN published Date DEFAULT toDate('1970-01-01');

-- Self-calibrated factors per port and commodity ('all': the port's
-- estimates as a whole), fitted by the calibration job over the whole
-- history (one window: day 1970-01-01, generations as the derived tables
-- of 004_derived.sql): actual ≈ factor × estimate over `weeks`
-- overlapping ISO weeks from first_week to last_week, with the mean
-- absolute percentage error before and after the factor.
CREATE TABLE IF NOT EXISTS calibration_factors (
    day Date,
    gen UInt64,
    port String,
    commodity String,
    factor Float64,
    weeks UInt32,
    first_week Date,
    last_week Date,
    estimate_tonnes Float64,
    actual_tonnes Float64,
    mape_before Float64,
    mape_after Float64,
    computed_at DateTime('UTC')
) ENGINE = MergeTree
ORDER BY (port, commodity, gen);
