-- The receiving station of each position, when the feed names one (an
-- NMEA tag block's "s:" field); empty when it does not. Rows written
-- before this column read as empty: their station is unknown. ClickHouse
-- 18.16 has no ADD COLUMN IF NOT EXISTS: Migrate takes "column already
-- exists" from a concurrent instance as done.
ALTER TABLE positions ADD COLUMN station String DEFAULT '';
