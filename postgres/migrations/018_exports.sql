-- Bulk exports (docs/exports.md): one row per export an account asked for,
-- its state as the worker pool moves it (queued → running → completed or
-- failed; expired once its file is deleted), the file it wrote under
-- OVERWATCH_EXPORT_DIR, and the lease of the worker running it: an export
-- left running by a worker that stopped is claimed again once its lease
-- has ended, at most a few times, then failed.
CREATE TABLE IF NOT EXISTS exports (
    id           text PRIMARY KEY,
    account_id   bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    dataset      text NOT NULL,
    format       text NOT NULL,
    filters      jsonb NOT NULL,
    status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed', 'expired')),
    rows         bigint,
    bytes        bigint,
    progress     double precision NOT NULL DEFAULT 0,
    estimated    bigint NOT NULL DEFAULT 0,
    max_rows     bigint NOT NULL,
    error        text,
    file         text NOT NULL DEFAULT '',
    attempts     integer NOT NULL DEFAULT 0,
    lease_until  timestamptz,
    created_at   timestamptz NOT NULL,
    completed_at timestamptz,
    expires_at   timestamptz
);
CREATE INDEX IF NOT EXISTS exports_account ON exports (account_id, created_at DESC);
CREATE INDEX IF NOT EXISTS exports_due ON exports (created_at) WHERE status IN ('queued', 'running');
CREATE INDEX IF NOT EXISTS exports_expiry ON exports (expires_at) WHERE status = 'completed';
