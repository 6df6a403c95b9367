-- Market data from public sources: commodity prices (FRED, the
-- World Bank's Pink Sheet, USDA AMS export bids) and transport rates (USDA
-- AgTransport: barge, ocean, rail, truck).
--
-- A refresh writes a whole file as one batch: one block with no
-- partition key is one part, so a series is replaced whole or not at all
-- (an offline import streams a file in batches of 5,000 after a first pass
-- has checked it whole).
-- The newest fetch of an observation wins (ReplacingMergeTree on
-- fetched_at, read with FINAL). usd_per_tonne is NaN where no published
-- conversion exists; published is 1970-01-01 where the file does not say.
CREATE TABLE IF NOT EXISTS commodity_prices (
    source String,
    series String,
    name String,
    commodity String,
    date Date,
    frequency String,
    value Float64,
    unit String,
    currency String,
    usd_per_tonne Float64,
    detail String,
    published Date,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (commodity, source, series, date, detail);

CREATE TABLE IF NOT EXISTS transport_rates (
    mode String,
    dataset String,
    source String,
    commodity String,
    region String,
    origin String,
    destination String,
    vessel_size String,
    date Date,
    frequency String,
    rate Float64,
    unit String,
    usd_per_tonne Float64,
    benchmark Float64,
    published Date,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (mode, dataset, region, origin, destination, vessel_size, commodity, date);
