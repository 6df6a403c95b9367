-- Alerts: what each account watches, the alerts the alerts job
-- raises for it, and the account's state of each alert.

-- The vessels (IMO numbers) and ports (slugs) an account watches.
CREATE TABLE IF NOT EXISTS watchlist (
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('vessel', 'port')),
    value      text NOT NULL,
    added_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, kind, value)
);

-- Portfolios: named sets of vessels and ports of an account (the companion
-- product's portfolio id is the id).
CREATE TABLE IF NOT EXISTS portfolios (
    id         text PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       text NOT NULL,
    vessels    text[] NOT NULL DEFAULT '{}',
    ports      text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS portfolios_account ON portfolios (account_id);

-- Alerts: raised once per account and event (event_key).
CREATE TABLE IF NOT EXISTS alerts (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    type       text NOT NULL CHECK (type IN ('sanctions_match', 'dark_fleet', 'river_level')),
    severity   text NOT NULL CHECK (severity IN ('critical', 'warning', 'info')),
    title      text NOT NULL,
    message    text NOT NULL,
    imo        text NOT NULL DEFAULT '',
    port       text NOT NULL DEFAULT '',
    event_key  text NOT NULL,
    event_at   timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- The account's state of the alert (alerts.md): open while all three
    -- are null (or the snooze has passed).
    read_at       timestamptz,
    resolved_at   timestamptz,
    snoozed_until timestamptz,
    UNIQUE (account_id, event_key)
);
CREATE INDEX IF NOT EXISTS alerts_feed ON alerts (account_id, created_at DESC, id DESC);
