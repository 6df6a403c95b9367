-- Every static and voyage report (types 5, 19, 24 and the static half of
-- feed records), deduplicated like positions.
CREATE TABLE IF NOT EXISTS static_reports (
    mmsi UInt32,
    imo UInt32,
    source Enum8('none' = 0, 'aishub' = 1, 'aisstream' = 2, 'satellite' = 3, 'spire' = 4),
    ts DateTime('UTC'),
    msg_type UInt8,
    part UInt8,
    name String,
    call_sign String,
    ship_type UInt8,
    to_bow UInt16,
    to_stern UInt16,
    to_port UInt16,
    to_starboard UInt16,
    draft_m Nullable(Float32),
    destination String,
    eta Nullable(DateTime('UTC')),
    received_at DateTime('UTC'),
    dedup_key UInt64
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (mmsi, ts, dedup_key);

-- The vessel registry: the current state of each IMO, the newest update
-- winning at merge (read with FINAL).
CREATE TABLE IF NOT EXISTS vessels (
    imo UInt32,
    mmsi UInt32,
    name String,
    call_sign String,
    ship_type UInt8,
    ship_type_text String,
    flag String,
    length_m UInt16,
    beam_m UInt16,
    draft_m Nullable(Float32),
    max_draft_m Nullable(Float32),
    destination String,
    eta Nullable(DateTime('UTC')),
    first_seen DateTime('UTC'),
    last_seen DateTime('UTC'),
    updated_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY imo;

-- Identity history: one row each time a vessel's MMSI, name, call sign,
-- flag or ship type took new values.
CREATE TABLE IF NOT EXISTS vessel_identity (
    imo UInt32,
    valid_from DateTime('UTC'),
    mmsi UInt32,
    name String,
    call_sign String,
    flag String,
    ship_type UInt8,
    source Enum8('none' = 0, 'aishub' = 1, 'aisstream' = 2, 'satellite' = 3, 'spire' = 4)
) ENGINE = ReplacingMergeTree
ORDER BY (imo, valid_from, mmsi, name, call_sign, flag, ship_type);

-- Positions inside the area of one of the reference ports, tagged when
-- written: the table for queries by port area and time.
CREATE TABLE IF NOT EXISTS port_positions (
    port String,
    ts DateTime('UTC'),
    imo UInt32,
    mmsi UInt32,
    source Enum8('none' = 0, 'aishub' = 1, 'aisstream' = 2, 'satellite' = 3, 'spire' = 4),
    lat Float64,
    lon Float64,
    speed_kt Nullable(Float32),
    nav_status UInt8,
    draft_m Nullable(Float32),
    dedup_key UInt64
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (port, ts, imo, dedup_key);
