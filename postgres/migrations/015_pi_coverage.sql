-- P&I coverage records (POST /v1/pi-coverage/import and GET
-- /v1/pi-coverage): the shared base (account_id NULL, loaded by the
-- operator) and each account's own imports, layered over the base for
-- that account alone (gone with the account). club_id is the insurer's
-- slug in maritime/pandi, '' when the name matched none; club_key is what
-- a record is unique by: the slug, or the normalized name when unmatched.
CREATE TABLE IF NOT EXISTS pi_coverage (
    id             bigserial PRIMARY KEY,
    account_id     bigint REFERENCES accounts (id) ON DELETE CASCADE,
    imo            integer NOT NULL CHECK (imo BETWEEN 1000000 AND 9999999),
    club_id        text NOT NULL,
    club_key       text NOT NULL CHECK (club_key <> ''),
    club_name      text NOT NULL CHECK (length(club_name) BETWEEN 1 AND 300),
    vessel_name    text NOT NULL DEFAULT '' CHECK (length(vessel_name) <= 200),
    effective_from date,
    effective_to   date,
    source         text NOT NULL CHECK (length(source) BETWEEN 1 AND 200),
    created_at     timestamptz NOT NULL DEFAULT now(),
    CHECK (effective_from IS NULL OR effective_to IS NULL OR effective_to >= effective_from),
    CONSTRAINT pi_coverage_unique UNIQUE NULLS NOT DISTINCT (account_id, imo, club_key, effective_from)
);
CREATE INDEX IF NOT EXISTS pi_coverage_vessel ON pi_coverage (imo, account_id);
