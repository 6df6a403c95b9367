-- Area presence summary (jobs/presence_job.go), read by GET
-- /v1/area/vessels. Level 1: per hour, one-degree grid cell (row
-- floor(lat)+90, column floor(lon)+180, maritime/geo/cells.go) and vessel,
-- its fixes (each stored report once), the first and last of them, and the
-- fixes themselves in time order (time, latitude, longitude). Levels 6 and
-- 24: the same sums of each whole 6-hour block and whole day (hour = the
-- block's start), without the fixes. A read takes the sums of the cells
-- wholly inside the area over the whole hours, blocks and days of its
-- range, the fixes of the border cells and partial hours, and the time
-- the summary does not hold yet from positions. Written with generations
-- like the tables of 004_derived.sql (derivation_days name
-- 'presence_hourly'), whole days at a time. A small index granularity: a
-- read takes the rows of a few cells of each hour.
CREATE TABLE IF NOT EXISTS presence_hourly (
    day Date,
    gen UInt64,
    level UInt8,
    hour DateTime('UTC'),
    cell_row Int16,
    cell_col Int16,
    imo UInt32,
    fixes UInt64,
    first_ts DateTime('UTC'),
    first_lat Float64,
    first_lon Float64,
    last_ts DateTime('UTC'),
    last_lat Float64,
    last_lon Float64,
    fix_ts Array(DateTime('UTC')),
    fix_lat Array(Float64),
    fix_lon Array(Float64)
) ENGINE = MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (day, gen, level, hour, cell_row, cell_col, imo)
SETTINGS index_granularity = 1024;

-- How far each generation of a day of presence_hourly reaches: its hours
-- hold every fix stored before through (the day's end, or the newest fix
-- when the run came), under the same (day, gen) as its rows.
CREATE TABLE IF NOT EXISTS presence_days (
    day Date,
    gen UInt64,
    through DateTime('UTC')
) ENGINE = MergeTree
ORDER BY (day, gen);
