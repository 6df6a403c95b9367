-- River gauges: the USGS instantaneous values of the gauges
-- that govern grain barges to the Gulf (maritime/river.Gauges), and a log
-- of the river job's fetches (the `source` status of /v1/river-levels).
--
-- A value fetched again replaces the earlier fetch (ReplacingMergeTree on
-- fetched_at; read with FINAL). No-data values (-999999) are never stored.
CREATE TABLE IF NOT EXISTS river_readings (
    site String,
    parameter String,
    time DateTime('UTC'),
    value Float64,
    qualifiers Array(String),
    source String,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
PARTITION BY toYYYYMM(time)
ORDER BY (site, parameter, time);

-- One row per fetch of the river job: ok 1 with the readings stored, or
-- ok 0 with the error (the readings stored before are kept); seq is the
-- fetch time in nanoseconds, which orders fetches within one second.
CREATE TABLE IF NOT EXISTS river_fetches (
    fetched_at DateTime('UTC'),
    seq UInt64,
    url String,
    ok UInt8,
    readings UInt32,
    error String
) ENGINE = MergeTree
ORDER BY seq;
