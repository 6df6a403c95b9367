// Package market is the market sources: their parsers, the refreshes of
// the price and transport-rate tables (Prices, Transport) and the fetch of
// their files. One package for four publishers, because one detector
// (Detect) tells their formats apart for `overwatch import market` and the
// samples, their output is the same two tables (prices and rates), and
// the World Bank and AMS parsers share the workbook and JSON helpers.
//
// The publishers and their terms: FRED (Federal Reserve Bank of St.
// Louis; series of the IMF and the U.S. EIA, cited as "retrieved from
// FRED"), base URL OVERWATCH_FRED_URL; the World Bank Pink Sheet (CC BY
// 4.0), OVERWATCH_WORLDBANK_URL; USDA AMS Market News MARS (public domain,
// an API key), OVERWATCH_AMS_URL; USDA AgTransport (Socrata, public
// domain), OVERWATCH_AGTRANSPORT_URL. A file that fails to fetch or parse
// stores nothing: the observations last stored stay, the other files of
// the run are stored, and the run fails.
//
// The parsers read the published price and transport-rate files: FRED series downloads (CSV, both header styles), the
// World Bank "Pink Sheet" workbook (xlsx), USDA AMS Market News MARS
// report JSON (export bids), and USDA AgTransport Socrata JSON (barge,
// ocean, rail and truck rates). Every parser streams from its reader
// (memory flat in the file's size), caps the bytes it reads at MaxBytes,
// names the line or row of what it refuses, and never panics on bad
// input. Detect tells the formats apart for `overwatch import`; the
// refreshes call the parsers directly. docs/market-sources.md describes the sources.
package market
