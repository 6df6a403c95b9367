-- Each vessel's predicted next ports, one row per vessel under way and
-- refresh (computed_at): the predictions job writes every vessel of a
-- refresh with the same computed_at, so the newest set is the rows of
-- max(computed_at) and the one before it what the ETA alert compares with.
-- port and eta are the first port and its ETA; next_ports (up to three,
-- with probability, ETA and its 80% interval, distance) and evidence are
-- JSON. lat/lon are the vessel's last position before as_of.
CREATE TABLE IF NOT EXISTS predictions (
    imo UInt32,
    computed_at DateTime('UTC'),
    as_of DateTime('UTC'),
    category String,
    lat Float64,
    lon Float64,
    port String,
    eta DateTime('UTC'),
    next_ports String,
    evidence String
) ENGINE = ReplacingMergeTree(computed_at)
PARTITION BY toYYYYMM(computed_at)
ORDER BY (imo, computed_at);
