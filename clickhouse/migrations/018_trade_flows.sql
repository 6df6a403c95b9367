-- Bilateral trade statistics: UN Comtrade rows as the reporter
-- declares them, read by GET /v1/trade-flows (maritime/tradestats).
--
-- Only totals are stored (all modes of transport, customs procedures and
-- second partners: write/comtrade keeps those rows). Weights in kg and
-- values in USD as reported; -1 means not reported. The newest import of
-- a row wins (ReplacingMergeTree on fetched_at, read with FINAL).
CREATE TABLE IF NOT EXISTS trade_flows (
    reporter_code UInt16,
    reporter_iso3 String,
    reporter_name String,
    partner_code UInt16,
    partner_iso3 String,
    partner_name String,
    flow String,
    hs_code String,
    period String,
    year UInt16,
    month UInt8,
    net_weight_kg Float64,
    quantity Float64,
    quantity_unit String,
    value_usd Float64,
    value_basis String,
    classification String,
    source String,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (reporter_code, partner_code, flow, hs_code, period);
