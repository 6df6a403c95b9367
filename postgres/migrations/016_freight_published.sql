-- The published aggregates of the contributed freight rates
-- (docs/freight-rates.md): per route (vessel type, origin, destination,
-- unit) and ISO week in which the records were submitted, computed once
-- after the week has ended and never again. A row holds the mean of the
-- accounts' values, the counts and the route, nothing that names an
-- account: deleting a record or an account later leaves it as published.
--
-- freight_rate_weeks marks each week whose aggregates were published (also
-- a week with none): the publisher inserts the mark first, ON CONFLICT DO
-- NOTHING, and writes the week's aggregates only when it inserted it, in
-- the same transaction, so that of concurrent publishers exactly one
-- computes the week.
CREATE TABLE IF NOT EXISTS freight_rate_weeks (
    week         date PRIMARY KEY CHECK (EXTRACT(ISODOW FROM week) = 1),
    published_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS freight_rate_aggregates (
    week         date NOT NULL CHECK (EXTRACT(ISODOW FROM week) = 1),
    vessel_type  text NOT NULL,
    origin       text NOT NULL,
    destination  text NOT NULL,
    unit         text NOT NULL,
    rate         double precision NOT NULL CHECK (rate > 0),
    count        integer NOT NULL CHECK (count >= contributors),
    contributors integer NOT NULL CHECK (contributors >= 4),
    PRIMARY KEY (week, vessel_type, origin, destination, unit)
);
CREATE INDEX IF NOT EXISTS freight_rate_aggregates_class ON freight_rate_aggregates (vessel_type, week DESC);

-- The records of a week of submission, for its publication.
CREATE INDEX IF NOT EXISTS freight_rates_created ON freight_rates (created_at);
