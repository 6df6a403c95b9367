-- Voyage emissions (jobs/emissions_job.go): one row per voyage,
-- the leg between two consecutive published port calls of a vessel, under
-- the UTC day the voyage ENDED (its arrival at the second call). A derived
-- table written with generations like those of 004_derived.sql: a run
-- rewrites every voyage that ended on the days of its window.
-- id is "<imo>-<departure unix seconds>", stable while the departure call
-- is. input is the model's input (overwatch.VoyageInput as JSON), kept so
-- that the API recomputes a voyage with the caller's fuel_type,
-- distance_nm or speed_knots without reading the track again; result is
-- the model's output (overwatch.VoyageEmissions in the compact binary form
-- of clickhouse/emissions_codec.go; JSON rows are read too), factors the
-- names of the factors it used, model_version the model that computed it.
-- ttw, wtw and method repeat the result's central values for ad-hoc SQL.
CREATE TABLE IF NOT EXISTS voyage_emissions (
    day Date,
    gen UInt64,
    id String,
    imo UInt32,
    from_port String,
    to_port String,
    departure DateTime('UTC'),
    arrival DateTime('UTC'),
    vessel_class String,
    commodity String,
    method String,
    ttw Float64,
    wtw Float64,
    input String,
    result String,
    factors Array(String),
    model_version String
) ENGINE = MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (day, imo, arrival, gen);
