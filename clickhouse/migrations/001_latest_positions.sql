-- The latest-position store: one row per IMO per source. ReplacingMergeTree
-- keeps the row with the greatest report time at merge; readers take the
-- freshest row themselves (argMax or the in-memory replica), because
-- duplicates vanish only when parts merge. ingested_at is set by the server
-- at insert time and lets readers follow changes incrementally.
CREATE TABLE IF NOT EXISTS latest_positions (
    imo UInt32,
    source Enum8('none' = 0, 'aishub' = 1, 'aisstream' = 2, 'satellite' = 3, 'spire' = 4),
    ts DateTime('UTC'),
    mmsi UInt32,
    vessel_name Nullable(String),
    vessel_type Nullable(String),
    flag Nullable(String),
    lat Nullable(Float64),
    lon Nullable(Float64),
    speed_kt Nullable(Float64),
    course_deg Nullable(Float64),
    draft_m Nullable(Float64),
    destination Nullable(String),
    nav_status Nullable(String),
    received_at DateTime('UTC'),
    ingested_at DateTime('UTC') DEFAULT now()
) ENGINE = ReplacingMergeTree(ts)
ORDER BY (imo, source);
