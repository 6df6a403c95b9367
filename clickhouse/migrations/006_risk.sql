-- Risk intelligence (jobs/risk.go and the detectors): the events found,
-- each vessel's score, the hotspots and the baselines. All four are
-- derived tables written with generations like those of 004_derived.sql:
-- readers see, per day, the newest generation recorded in derivation_days
-- under the table's name.

-- Risk events: one row per event, under the UTC day it ENDED (the day of
-- the end of the data while it goes on; the sanctions matches under
-- 1970-01-01), like the port calls under their departure: a run over a
-- window of days rewrites every event stored in those days, and only
-- those. An ongoing event is always under the newest day, which every run
-- rewrites, so the run that closes it replaces it; the risk job re-reads
-- the vessels of ongoing events from their start (OpenRiskEvents). Events
-- that ended before the window are not written (they belong to days the
-- run does not replace).
-- ended_at is NULL while the event goes on (ongoing = 1). detail is the
-- event's Detail as a JSON object. The vessel's identity (name, flag, ITU
-- ship type, its category) is resolved when the event is written, that of
-- the other vessel of a ship-to-ship transfer too (other = 0 otherwise).
CREATE TABLE IF NOT EXISTS risk_events (
    day Date,
    gen UInt64,
    type String,
    subtype String,
    imo UInt32,
    other UInt32,
    started_at DateTime('UTC'),
    ended_at Nullable(DateTime('UTC')),
    ongoing UInt8,
    lat Float64,
    lon Float64,
    end_lat Float64,
    end_lon Float64,
    port String,
    severity String,
    detail String,
    name String,
    flag String,
    ship_type UInt8,
    category String,
    other_name String,
    other_flag String,
    other_ship_type UInt8,
    other_category String
) ENGINE = MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (type, imo, started_at, gen);

-- Vessel risk scores: one generation per run over every vessel (one
-- window: day 1970-01-01, like destination_reliability). factors is the
-- JSON array of the factors: [{name, weight, value, contribution, reason}].
CREATE TABLE IF NOT EXISTS vessel_risk (
    day Date,
    gen UInt64,
    imo UInt32,
    name String,
    flag String,
    ship_type UInt8,
    category String,
    score Float64,
    tier String,
    factors String,
    computed_at DateTime('UTC')
) ENGINE = MergeTree
ORDER BY (imo, gen);

-- Hotspots: grid cells where recent risk events cluster (one window: day
-- 1970-01-01). by_type is a JSON object {event type: events}.
CREATE TABLE IF NOT EXISTS risk_hotspots (
    day Date,
    gen UInt64,
    id String,
    lat Float64,
    lon Float64,
    cell_deg Float64,
    events UInt32,
    vessels UInt32,
    by_type String,
    first_event DateTime('UTC'),
    last_event DateTime('UTC'),
    active UInt8,
    severity String
) ENGINE = MergeTree
ORDER BY (id, gen);

-- Baselines: the normal rates of risk events per area and vessel category
-- over [from_ts, to_ts) (one window: day 1970-01-01).
CREATE TABLE IF NOT EXISTS risk_baselines (
    day Date,
    gen UInt64,
    area String,
    category String,
    vessel_days Float64,
    gaps_per_vessel_day Float64,
    loiter_hours_per_day Float64,
    transfers_per_day Float64,
    from_ts DateTime('UTC'),
    to_ts DateTime('UTC')
) ENGINE = MergeTree
ORDER BY (area, category, gen);
