// Package write is the command side: every state change of the service,
// from AIS decoding and ingest (write/ais, write/feed, write/ingest) to the
// commands users send (API keys, webhooks, watchlists, alert state,
// billing), whose routes are listed per area beside their handlers
// (Routes). It declares the store interfaces it needs; the clickhouse and
// postgres packages implement them. The external sources the service
// fetches or imports (prices, river gauges, news, trade statistics,
// sanctions lists, ...) are not here: each is its own package under
// sources/.
package write
