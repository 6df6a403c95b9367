// Package chaos holds the chaos test of cluster mode: a private
// ClickHouse cluster (clickhouse/local/cluster.sh with its own port offset
// and directory), a private PostgreSQL 15, and separate processes of the
// built binary (two `overwatch ingest`, two `overwatch serve`, two
// `overwatch jobs`) fed by a local NMEA source, while the test kills a
// ClickHouse replica, the node the writers talk to, ZooKeeper, PostgreSQL and
// one API instance. Afterwards it checks that every message the source sent
// is stored exactly once, that the public lookup never answered anything but
// 200 or `lookup failed`, that the per-IP limits held across the API
// instances, that every webhook delivery arrived exactly once and that the
// jobs ran once per schedule across instances.
//
// The test runs only with OVERWATCH_CHAOS=full (`make chaos`, minutes) or
// OVERWATCH_CHAOS=smoke (`make test`: short outages, under two minutes). The
// package has no code besides its tests.
package chaos
