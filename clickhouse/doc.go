// Package clickhouse is the only importer of clickhouse-go. It opens the
// connection, applies the embedded migrations and implements, with
// hand-written SQL and client-side bound parameters, the store interfaces
// that the read, write and jobs packages declare.
//
// Every statement is written for both the ClickHouse 18.16 that installs on
// Debian bookworm and modern ClickHouse: named INSERT columns through
// batches, DateTime('UTC'), no window functions, TTL or server parameters.
//
// The same migrations and queries run on one server or, in cluster mode
// (a URL with cluster=<name>), on a ClickHouse cluster: the ingest tables
// sharded by vessel behind Distributed tables, everything else replicated
// to every node (cluster.go), and batches retried on another node.
package clickhouse
