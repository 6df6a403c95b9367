-- Accounts and their API keys. A key is stored only as the SHA-256 of the
-- whole key; prefix is its first characters, shown to help users tell keys
-- apart. Revoked keys stay for the audit trail.
CREATE TABLE IF NOT EXISTS accounts (
    id         bigserial PRIMARY KEY,
    email      text NOT NULL,
    plan       text NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'supply_chain_risk')),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_email ON accounts (lower(email));

CREATE TABLE IF NOT EXISTS api_keys (
    id           bigserial PRIMARY KEY,
    account_id   bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name         text NOT NULL DEFAULT '',
    prefix       text NOT NULL,
    hash         bytea NOT NULL UNIQUE CHECK (length(hash) = 32),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id);
