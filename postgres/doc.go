// Package postgres is the only importer of pgx. It owns the connection
// pool, the embedded forward-only migrations and the stores of what is
// transactional: accounts, API keys, rate-limit windows and, later,
// webhooks and alert state. Each store method owns its transaction.
package postgres
