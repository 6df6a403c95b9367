-- Disruption signals (GET /v1/disruptions): news articles found
-- by the GDELT job's queries for the ports and chokepoints, and the AIS
-- signals of the chokepoint job (transit_drop, diversion).
--
-- A signal is stored once per URL (an AIS signal's URL is
-- overwatch:ais/chokepoint/<slug>/<kind>/<day>): ReplacingMergeTree on
-- fetched_at keyed by url, read with FINAL; a later fetch of the same
-- article replaces it. tone is NaN where unknown (GDELT's ArtList does not
-- carry it). recent, norm, alternative, alt_recent and alt_norm are the AIS
-- signals' figures (transits a day), zero and '' for news.
CREATE TABLE IF NOT EXISTS disruption_signals (
    url String,
    kind String,
    source String,
    title String,
    source_name String,
    published_at DateTime('UTC'),
    tone Float64,
    port String,
    chokepoint String,
    language String,
    country String,
    recent Float64,
    norm Float64,
    alternative String,
    alt_recent Float64,
    alt_norm Float64,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY url;

-- Daily transits of the chokepoints by vessel type, counted from the
-- service's own AIS positions (jobs/chokepoints_job.go, maritime/chokepoint).
-- A run rewrites whole days with every (chokepoint, vessel type) pair,
-- zeros included, so the newest computation of a day replaces all of it
-- (ReplacingMergeTree on computed_at, read with FINAL).
CREATE TABLE IF NOT EXISTS chokepoint_transits_daily (
    chokepoint String,
    day Date,
    vessel_type String,
    transits UInt32,
    computed_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(computed_at)
ORDER BY (chokepoint, day, vessel_type);

-- IMF PortWatch's daily chokepoint transits, fetched live only where an
-- operator sets OVERWATCH_PORTWATCH_URL (its terms do not allow
-- redistributing them; nothing is bundled): the ships of each PortWatch
-- type that passed each watched chokepoint each day. The newest fetch of
-- a day wins.
CREATE TABLE IF NOT EXISTS portwatch_chokepoint_daily (
    chokepoint String,
    day Date,
    n_container UInt32,
    n_dry_bulk UInt32,
    n_general_cargo UInt32,
    n_roro UInt32,
    n_tanker UInt32,
    n_total UInt32,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (chokepoint, day);
