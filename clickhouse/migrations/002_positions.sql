-- Raw position history, one row per decoded position report and source.
-- Partitioned by month and ordered by vessel and time for the queries by
-- vessel and time window; dedup_key (a hash of source, report time and the
-- message) is in the sorting key so that a batch retried after an ambiguous
-- failure collapses at merge instead of being counted twice.
CREATE TABLE IF NOT EXISTS positions (
    imo UInt32,
    mmsi UInt32,
    source Enum8('none' = 0, 'aishub' = 1, 'aisstream' = 2, 'satellite' = 3, 'spire' = 4),
    ts DateTime('UTC'),
    lat Float64,
    lon Float64,
    speed_kt Nullable(Float32),
    course_deg Nullable(Float32),
    heading_deg Nullable(UInt16),
    nav_status UInt8,
    draft_m Nullable(Float32),
    destination String,
    msg_type UInt8,
    received_at DateTime('UTC'),
    dedup_key UInt64
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (imo, ts, dedup_key);
