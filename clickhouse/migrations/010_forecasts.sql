-- Forecasts, their backtest and the volume anomalies (jobs/forecasts_job.go,
-- jobs/anomalies_job.go, maritime/forecast), derived from estimates_weekly
-- (and port_calls, latest_positions for the pipeline) with generations like
-- the tables of 004_derived.sql. Each is recomputed whole on every run: one
-- window, day 1970-01-01.

-- Forecast exports per port, method and week ahead: tonnes with a 95%
-- prediction interval, vessels; origin is the Monday of the last complete
-- week of history, week the Monday of the week forecast.
CREATE TABLE IF NOT EXISTS forecasts (
    day Date,
    gen UInt64,
    port String,
    method String,
    model String,
    origin Date,
    week Date,
    horizon UInt8,
    tonnes Float64,
    lower Float64,
    upper Float64,
    vessels Float64,
    history_weeks UInt32
) ENGINE = MergeTree
ORDER BY (port, method, week, gen);

-- Rolling-origin backtest per port, method and horizon, beside the
-- seasonal-naive baseline on the same weeks (mape NaN: no week scored had
-- enough exports for a percentage).
CREATE TABLE IF NOT EXISTS forecast_accuracy (
    day Date,
    gen UInt64,
    port String,
    method String,
    horizon UInt8,
    forecasts UInt32,
    first_origin Date,
    mae Float64,
    mape Float64,
    directional Float64,
    baseline_mae Float64,
    baseline_mape Float64,
    baseline_directional Float64,
    beats_baseline UInt8
) ENGINE = MergeTree
ORDER BY (port, method, horizon, gen);

-- Weekly export anomalies per port, week and type (z, range_lower and
-- range_upper NaN where they do not apply).
CREATE TABLE IF NOT EXISTS anomalies (
    day Date,
    gen UInt64,
    port String,
    week Date,
    type String,
    expected Float64,
    observed Float64,
    deviation_pct Float64,
    z Float64,
    range_lower Float64,
    range_upper Float64,
    direction String,
    severity String,
    refs UInt16
) ENGINE = MergeTree
ORDER BY (port, week, type, gen);

-- The history each port holds and what it is enough for (one row per
-- port and anomaly type or forecast method).
CREATE TABLE IF NOT EXISTS forecast_maturity (
    day Date,
    gen UInt64,
    port String,
    weeks UInt32,
    first_week Date,
    last_week Date,
    kind String,
    name String,
    needed UInt32,
    ready UInt8,
    missing UInt32,
    model String
) ENGINE = MergeTree
ORDER BY (port, kind, name, gen);
