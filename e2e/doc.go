// Package e2e holds the end-to-end tests: each starts the real service
// in process (through apptest, on a free port, against the local
// ClickHouse and PostgreSQL) and talks to it over HTTP or runs its
// commands, checking every answer against the OpenAPI document. Run them
// with `go test ./e2e/`.
package e2e
