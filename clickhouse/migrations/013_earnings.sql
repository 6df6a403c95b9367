-- Voyage earnings (jobs/earnings_job.go, maritime/earnings),
-- derived from the port calls, the voyage_emissions legs and the market
-- tables with generations like the tables of 004_derived.sql: day is the
-- Monday of the ISO week of departure from the loading port, a run
-- rewrites whole weeks and records them in derivation_days. computed_at
-- is when the row was computed (ReplacingMergeTree keeps the newest of a
-- key written twice).

-- One row per completed laden voyage (a loading call and the vessel's
-- next discharging call at another port): the inputs (cargo, distance,
-- fuel, freight rate and its source, bunker price and its source, port
-- and voyage days) beside the revenue, costs and TCE with their bounds.
CREATE TABLE IF NOT EXISTS voyage_earnings (
    day Date,
    gen UInt64,
    imo UInt32,
    name String,
    origin String,
    destination String,
    commodity String,
    load_arrival DateTime('UTC'),
    departure DateTime('UTC'),
    arrival DateTime('UTC'),
    discharge_departure DateTime('UTC'),
    dwt Float64,
    distance_nm Float64,
    tonnes Array(Float64),
    fuel_tonnes Array(Float64),
    fuel_source String,
    voyage_days Float64,
    port_days Float64,
    sea_days Float64,
    rate Array(Float64),
    rate_basis String,
    rate_source String,
    rate_date Date,
    bunker Array(Float64),
    bunker_basis String,
    bunker_source String,
    bunker_date Date,
    brent_usd_per_barrel Float64,
    revenue Array(Float64),
    fuel_cost Array(Float64),
    load_port_cost Array(Float64),
    port_costs Array(Float64),
    tce Array(Float64),
    computed_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(computed_at)
ORDER BY (day, imo, departure, gen);

-- Per loading port and ISO week of departure: the voyages, their tonnes,
-- the estimated freight revenue of the departing cargo and the port-cost
-- estimate of their calls there, each as [low, central, high].
CREATE TABLE IF NOT EXISTS port_revenue_weekly (
    day Date,
    gen UInt64,
    port String,
    voyages UInt32,
    tonnes Float64,
    revenue Array(Float64),
    port_cost Array(Float64),
    computed_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(computed_at)
ORDER BY (port, day, gen);
