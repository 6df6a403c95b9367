-- The state of the scheduled jobs: the watermark (the newest input a
-- derivation has taken into account) and the outcome of the last run.
CREATE TABLE IF NOT EXISTS job_state (
    name             text PRIMARY KEY,
    watermark        timestamptz,
    last_run         timestamptz,
    last_success     timestamptz,
    last_duration_ms bigint NOT NULL DEFAULT 0,
    last_error       text NOT NULL DEFAULT '',
    last_rows        bigint NOT NULL DEFAULT 0,
    last_from        timestamptz,
    last_to          timestamptz,
    runs             bigint NOT NULL DEFAULT 0,
    failures         bigint NOT NULL DEFAULT 0
);

-- When each job was last claimed, and by which instance: with several
-- instances a job runs once per tick, even when their clocks differ a little.
CREATE TABLE IF NOT EXISTS job_claims (
    name       text PRIMARY KEY,
    claimed_at timestamptz NOT NULL,
    owner      text NOT NULL
);
