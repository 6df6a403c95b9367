// Package market parses the published price and transport-rate files the
// service imports: FRED series downloads (CSV, both header styles), the
// World Bank "Pink Sheet" workbook (xlsx), USDA AMS Market News MARS
// report JSON (export bids), and USDA AgTransport Socrata JSON (barge,
// ocean, rail and truck rates). Every parser streams from its reader
// (memory flat in the file's size), caps the bytes it reads at MaxBytes,
// names the line or row of what it refuses, and never panics on bad
// input. Detect tells the formats apart for `overwatch import`; the jobs
// call the parsers directly. docs/market-sources.md describes the sources.
package market
