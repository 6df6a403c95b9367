-- Trade routes (jobs/trade_routes_job.go, maritime/trade), derived from the
-- port calls with generations like the tables of 004_derived.sql.

-- Weekly origin→destination flows of completed voyages (a loading call
-- and the vessel's next discharging call at another port), per ISO week
-- of departure (day = its Monday) and commodity.
CREATE TABLE IF NOT EXISTS route_flows_weekly (
    day Date,
    gen UInt64,
    origin String,
    destination String,
    commodity String,
    vessels UInt32,
    voyages UInt32,
    tonnes Float64,
    median_transit_days Float64
) ENGINE = MergeTree
ORDER BY (origin, destination, commodity, day, gen);

-- Shifts of an origin's flows between destinations, as of the newest
-- complete week (one window: day 1970-01-01, rewritten whole each run).
CREATE TABLE IF NOT EXISTS route_shifts (
    day Date,
    gen UInt64,
    as_of Date,
    origin String,
    commodity String,
    destination String,
    baseline_share Float64,
    current_share Float64,
    change Float64,
    severity String,
    baseline_voyages UInt32,
    current_voyages UInt32,
    baseline_tonnes Float64,
    current_tonnes Float64,
    started Date,
    gaining Array(String),
    gaining_change Array(Float64),
    losing Array(String),
    losing_change Array(Float64)
) ENGINE = MergeTree
ORDER BY (origin, commodity, destination, gen);

-- Voyages whose declared AIS destination named another port than the one
-- reached, per ISO week of arrival (day = its Monday).
CREATE TABLE IF NOT EXISTS route_deceptions (
    day Date,
    gen UInt64,
    imo UInt32,
    name String,
    origin String,
    departure DateTime('UTC'),
    arrival DateTime('UTC'),
    actual_port String,
    declared String,
    declared_port String,
    distance_km Float64,
    same_country UInt8,
    destination_changes UInt16,
    changes_source String,
    changed_at Nullable(DateTime('UTC')),
    suspicious UInt8,
    reason String
) ENGINE = MergeTree
ORDER BY (day, imo, arrival, gen);
