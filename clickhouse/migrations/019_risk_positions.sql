-- Whether a risk event's position (lat, lon) and end position (end_lat,
-- end_lon) are known: an event with no observed position (a sanctions
-- match, an identity change with no position near it in time) is stored
-- with 0 here and served with a null position, never 0,0. Rows written
-- before these columns had 0,0 for an unknown position: the defaults read
-- them so. ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS: Migrate takes
-- "column already exists" from a concurrent instance as done.
ALTER TABLE risk_events ADD COLUMN has_position UInt8 DEFAULT lat != 0 OR lon != 0;
ALTER TABLE risk_events ADD COLUMN has_end_position UInt8 DEFAULT end_lat != 0 OR end_lon != 0;
