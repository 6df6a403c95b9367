// Package write is the command side: every state change of the service,
// from AIS decoding and ingest to the commands users send (API keys,
// webhooks, alert state). It declares the store interfaces it needs; the
// clickhouse and postgres packages implement them.
package write
