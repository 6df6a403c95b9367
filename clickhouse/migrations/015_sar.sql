-- Radar-satellite coverage: the Sentinel-1 catalogue cache.
--
-- sar_products holds every product a catalogue answer (ASF search API or
-- Copernicus Data Space) or a bundled sample held: its times, orbits and
-- footprint (lons/lats, the outer ring; the bounding box beside it for the
-- area filter). Each is a known pass of its relative orbit, from which
-- the 12-day cycle predicts the orbit's passes. The newest fetch of a
-- product wins (ReplacingMergeTree on fetched_at, read with FINAL).
CREATE TABLE IF NOT EXISTS sar_products (
    name String,
    product_type String,
    platform String,
    mode String,
    start DateTime('UTC'),
    stop DateTime('UTC'),
    absolute_orbit UInt32,
    relative_orbit UInt16,
    direction String,
    size_mb Float64,
    lons Array(Float64),
    lats Array(Float64),
    min_lat Float64,
    max_lat Float64,
    min_lon Float64,
    max_lon Float64,
    source String,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (name, product_type);

-- sar_catalogue_areas records each catalogue query answered: the area
-- (a box snapped to whole degrees), the day its window is centred on, the
-- catalogue asked, how many products it held and when: the cache per
-- area and day.
CREATE TABLE IF NOT EXISTS sar_catalogue_areas (
    area String,
    day Date,
    catalogue String,
    products UInt32,
    fetched_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY (area, day, catalogue);
