-- Webhooks: endpoints of Pro accounts, and the durable queue of
-- their deliveries with every attempt (docs/webhooks.md).
CREATE TABLE IF NOT EXISTS webhooks (
    id                   bigserial PRIMARY KEY,
    account_id           bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    url                  text NOT NULL,
    event_types          text[] NOT NULL,
    secret               text NOT NULL,
    paused               boolean NOT NULL DEFAULT false,
    disabled_at          timestamptz,
    disabled_reason      text NOT NULL DEFAULT '',
    consecutive_failures integer NOT NULL DEFAULT 0,
    created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS webhooks_account ON webhooks (account_id);

-- One delivery per webhook and event (event_id: the webhook-id header, the
-- same on every attempt), retried until delivered or dead.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id              bigserial PRIMARY KEY,
    webhook_id      bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        text NOT NULL,
    event_type      text NOT NULL,
    payload         text NOT NULL,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_status     integer,
    last_error      text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    UNIQUE (webhook_id, event_id)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE TABLE IF NOT EXISTS webhook_attempts (
    delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     integer NOT NULL,
    at          timestamptz NOT NULL DEFAULT now(),
    status_code integer,
    error       text NOT NULL DEFAULT '',
    duration_ms integer NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);
