// Package read is the query side: request parsing with the tier caps, the
// GET handlers and the read models they serve. It declares the small store
// interfaces it needs; the clickhouse and postgres packages implement them.
package read
