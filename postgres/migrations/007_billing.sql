-- Payments applied to accounts: one row per payment-provider event that
-- changed a plan, so that the provider's retries of an event apply it
-- once (ApplyPayment), and the history of plan changes stays.
CREATE TABLE IF NOT EXISTS billing_events (
    event_id   text PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    plan       text NOT NULL,
    old_plan   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS billing_events_account ON billing_events (account_id);
