// Package bulk is the bulk feed: exports of whole datasets (positions, port
// calls, risk events, voyages, emissions) as files, asked for with POST
// /v1/exports, written in the background by a bounded pool of workers that
// stream the rows from the analytics store to a file (CSV, gzipped CSV,
// Parquet or GeoJSON), and downloaded, resumable, until they expire.
//
// It owns the datasets' columns, the request's validation (the service's
// one position filter grammar, read.ParsePositionFilter), the routes, the
// worker pool and the file formats; the stores it works through are the
// small interfaces of store.go (PostgreSQL keeps the exports, ClickHouse
// reads the rows).
package bulk
