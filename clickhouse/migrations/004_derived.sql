-- Derived tables written by the scheduled jobs. Each derivation recomputes
-- whole grain-aligned windows (days, or weeks named by their Monday) and
-- writes every row of a window under a new generation number; when all of
-- them are written it records (name, day, gen) in derivation_days. Readers
-- see, for each day, only the newest recorded generation:
--   (day, gen) IN (SELECT day, max(gen) FROM derivation_days
--                  WHERE name = '<table>' GROUP BY day)
-- so a re-run replaces a window whole (rows that no longer exist vanish),
-- a run that fails half-way is never seen, and superseded generations are
-- deleted later by the derived_cleanup job.
CREATE TABLE IF NOT EXISTS derivation_days (
    name String,
    day Date,
    gen UInt64,
    rows UInt64,
    computed_at DateTime('UTC')
) ENGINE = MergeTree
ORDER BY (name, day, gen);

-- Port calls (jobs/portcalls.go): one row per call, under the day of its
-- departure (of the end of the data while it goes on: departure is NULL). The vessel's identity
-- and the cargo estimate are resolved when the call is derived.
CREATE TABLE IF NOT EXISTS port_calls (
    day Date,
    gen UInt64,
    imo UInt32,
    port String,
    arrival DateTime('UTC'),
    departure Nullable(DateTime('UTC')),
    entry_seen UInt8,
    exit_seen UInt8,
    anchorage String,
    anchor_start Nullable(DateTime('UTC')),
    anchor_end Nullable(DateTime('UTC')),
    berth_zone String,
    berth_start Nullable(DateTime('UTC')),
    berth_end Nullable(DateTime('UTC')),
    wait_hours Float64,
    berth_hours Float64,
    port_hours Float64,
    confidence UInt8,
    in_port_gaps UInt16,
    positions UInt32,
    draft_before Float32,
    draft_after Float32,
    operation String,
    cargo_tonnes Float64,
    cargo_quality String,
    dwt_estimate Float64,
    declared String,
    declared_port String,
    name String,
    flag String,
    ship_type UInt8,
    category String,
    build_year UInt16,
    build_year_estimated UInt8
) ENGINE = MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (port, day, imo, arrival, gen);

-- Congestion per port, day and vessel category ('all' for every vessel):
-- vessels at anchor and at berth at the end of the day, arrivals and
-- departures in the day, waiting time at anchor (median, p90) of the
-- anchor periods that ended in the day, time in port (median) of the calls
-- that ended in the day.
CREATE TABLE IF NOT EXISTS congestion_daily (
    day Date,
    gen UInt64,
    port String,
    vessel_type String,
    waiting UInt32,
    at_berth UInt32,
    in_port UInt32,
    arrivals UInt32,
    departures UInt32,
    waits UInt32,
    median_wait_hours Float64,
    p90_wait_hours Float64,
    median_port_hours Float64
) ENGINE = MergeTree
ORDER BY (port, vessel_type, day, gen);

-- Berth utilisation per berth zone and week (day = the Monday): occupied
-- vessel-hours over available hours (hours in the week x the zone's
-- capacity in berths), vessels served, mean dwell of the stays that ended.
CREATE TABLE IF NOT EXISTS berth_weekly (
    day Date,
    gen UInt64,
    port String,
    zone_id String,
    zone_name String,
    capacity UInt16,
    occupied_hours Float64,
    available_hours Float64,
    utilization Float64,
    vessels UInt32,
    stays UInt32,
    mean_dwell_hours Float64
) ENGINE = MergeTree
ORDER BY (port, zone_id, day, gen);

-- The age of the vessels calling each port per week (day = the Monday), by
-- vessel category ('all' for every vessel) and age bucket.
CREATE TABLE IF NOT EXISTS fleet_age_weekly (
    day Date,
    gen UInt64,
    port String,
    vessel_type String,
    bucket String,
    vessels UInt32,
    estimated UInt32,
    mean_age Float64
) ENGINE = MergeTree
ORDER BY (port, vessel_type, day, bucket, gen);

-- Export estimates per port and ISO week (day = the Monday): the cargo
-- loaded, from the draught-based estimates of the calls that departed in
-- the week.
CREATE TABLE IF NOT EXISTS estimates_weekly (
    day Date,
    gen UInt64,
    port String,
    iso_year UInt16,
    iso_week UInt8,
    vessels UInt32,
    calls UInt32,
    calls_with_draught UInt32,
    tonnage Float64,
    confidence Float64
) ENGINE = MergeTree
ORDER BY (port, day, gen);

-- Destination reliability per vessel over its whole history (one window:
-- day 1970-01-01): of the calls it made, how many it had declared.
CREATE TABLE IF NOT EXISTS destination_reliability (
    day Date,
    gen UInt64,
    imo UInt32,
    name String,
    flag String,
    ship_type UInt8,
    category String,
    calls UInt32,
    declared UInt32,
    matched UInt32,
    share Float64,
    tier String,
    last_call DateTime('UTC')
) ENGINE = MergeTree
ORDER BY (imo, gen);

-- Official export figures (USDA export inspections and the like) imported
-- with `overwatch import actuals FILE`, per port, ISO week (day = the
-- Monday) and commodity; the newest import of a key wins.
CREATE TABLE IF NOT EXISTS export_actuals (
    port String,
    day Date,
    commodity String,
    tonnes Float64,
    source String,
    imported_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(imported_at)
ORDER BY (port, day, commodity);
