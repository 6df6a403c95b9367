package clickhouse

// current is the filter that keeps, of a derived table, the newest
// recorded generation of every day (see migrations/004_derived.sql): rows
// of a generation still being written, or superseded, are not seen.
func current(table string) string {
	return "(day, gen) IN (SELECT day, max(gen) FROM derivation_days WHERE name = '" + table + "' GROUP BY day)"
}
