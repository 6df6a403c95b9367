-- Sanctions lists (write/sanctions.go: the vessel entries of the OFAC SDN
-- list and any other list imported the same way), imported with
-- `overwatch import sanctions` or the scheduled refresh. An import of a
-- list writes all its entries under a new generation number, then records
-- (list_source, gen) in sanctions_imports; readers see, for each list,
-- only the newest recorded generation:
--   (list_source, gen) IN (SELECT list_source, max(gen) FROM sanctions_imports
--                          GROUP BY list_source)
-- so an import replaces the previous one whole (entries delisted vanish),
-- an import that fails half-way is never seen, and the import deletes the
-- rows of the generations it supersedes. gen is in the sorting key: were it
-- not, the rows of an import that failed half-way would, once merged,
-- replace those of the complete import readers see. ReplacingMergeTree
-- drops rows written twice (a retried batch).
CREATE TABLE IF NOT EXISTS sanctions_entries (
    list_source String,
    gen UInt64,
    entry_id String,
    name String,
    aliases Array(String),
    imo UInt32,
    mmsi UInt32,
    flag String,
    former_flags Array(String),
    program String,
    vessel_type String,
    call_sign String,
    owner String,
    tonnage UInt32,
    grt UInt32,
    remarks String,
    imported_at DateTime('UTC')
) ENGINE = ReplacingMergeTree(imported_at)
ORDER BY (list_source, gen, entry_id);

CREATE TABLE IF NOT EXISTS sanctions_imports (
    list_source String,
    gen UInt64,
    entries UInt64,
    imported_at DateTime('UTC')
) ENGINE = MergeTree
ORDER BY (list_source, gen);
