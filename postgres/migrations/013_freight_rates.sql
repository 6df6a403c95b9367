-- Freight rates submitted by accounts (POST /v1/freight-rates):
-- each record owned by its account (gone with it), the ports by slug.
-- GET /v1/freight-rates lists an account's own records and, for the
-- others, only aggregates per route and ISO week over at least three
-- accounts (docs/freight-rates.md).
CREATE TABLE IF NOT EXISTS freight_rates (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    vessel_type text NOT NULL,
    origin      text NOT NULL,
    destination text NOT NULL,
    rate        double precision NOT NULL CHECK (rate > 0),
    unit        text NOT NULL CHECK (unit IN ('usd_per_tonne', 'usd_per_day', 'worldscale')),
    date        date NOT NULL,
    notes       text NOT NULL DEFAULT '' CHECK (length(notes) <= 500),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS freight_rates_account ON freight_rates (account_id, date DESC, id DESC);
CREATE INDEX IF NOT EXISTS freight_rates_route ON freight_rates (vessel_type, date);

-- Submissions per account and UTC day, for the daily cap: deleting a
-- record does not give its submission back.
CREATE TABLE IF NOT EXISTS freight_rate_submissions (
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    day        date NOT NULL,
    n          integer NOT NULL CHECK (n > 0),
    PRIMARY KEY (account_id, day)
);
