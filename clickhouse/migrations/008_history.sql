-- The days of position data the batches wrote, by the minute they were
-- written. A derivation starts again from the earliest day written since
-- its previous run as well as from its trailing window, so that history
-- that arrives late (an imported archive, a feed catching up) is derived
-- too. Rows of one minute and day add up at merge.
CREATE TABLE IF NOT EXISTS position_days (
    ingested_at DateTime('UTC'),
    day Date,
    rows UInt64
) ENGINE = SummingMergeTree(rows)
PARTITION BY toYYYYMM(ingested_at)
ORDER BY (ingested_at, day);

-- The registry keeps a vessel's static data from its newest static report
-- by report time (captures and archives arrive out of order): static_at is
-- that report's time. Rows written before this column take their last-seen
-- time. (ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS: Migrate takes
-- "column already exists" from a concurrent instance as done.)
ALTER TABLE vessels ADD COLUMN static_at DateTime('UTC') DEFAULT last_seen;

-- One row per history file import (overwatch import history), rewritten
-- as it goes: what was read, kept, skipped and fixed up by reason, and how
-- far it got. file_key identifies the file by content (history.FileKey);
-- version (nanoseconds) orders the rewrites; resume_rows are the rows of an
-- interrupted import already stored.
CREATE TABLE IF NOT EXISTS history_imports (
    file_key String,
    file String,
    size UInt64,
    format String,
    source String,
    status Enum8('running' = 1, 'complete' = 2, 'failed' = 3, 'interrupted' = 4),
    rows_read UInt64,
    kept UInt64,
    reports UInt64,
    resume_rows UInt64,
    line UInt64,
    entry String,
    skipped Array(String),
    skipped_counts Array(UInt64),
    quirks Array(String),
    quirk_counts Array(UInt64),
    vessels UInt64,
    first_ts DateTime('UTC'),
    last_ts DateTime('UTC'),
    error String,
    started_at DateTime('UTC'),
    updated_at DateTime('UTC'),
    version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY file_key;
