// Package sources is the vocabulary every external source shares: the one
// fetch (Get: a GET with a timeout, a size cap, the source's status and
// Retry-After kept, an HTML error page refused, no credentials in an
// error), the count of failed fetches by source that /metrics shows
// (Failures), and what a refresh stores (Result, Refresh).
//
// Each external source is one package below, which owns its parser, its
// client (the base URL comes from the configuration, set in cmd) and what
// its refresh does, and declares the small store interfaces it writes
// through (implemented by clickhouse.DB, wired in cmd):
//
//	sources/market     FRED, World Bank Pink Sheet, USDA AMS MARS, USDA AgTransport (prices and transport rates)
//	sources/river      USGS water data (river gauges)
//	sources/crop       NASA AppEEARS NDVI, USDA FAS PSD and WASDE
//	sources/comtrade   UN Comtrade (trade flows)
//	sources/gdelt      GDELT DOC 2.0 (news disruption signals)
//	sources/portwatch  IMF PortWatch (chokepoint transits)
//	sources/sar        Sentinel-1 catalogues: ASF search, Copernicus Data Space (SAR coverage)
//	sources/sanctions  OFAC SDN files (sanctions list)
//	sources/actuals    USDA AMS grain inspections (WA_GR101) and the actuals CSV (export actuals)
//
// The scheduler (jobs) holds when a refresh runs, in its one job table;
// the `overwatch import ...` commands call the same parsers on files.
// A source imports the root vocabulary, the domain packages (maritime/...),
// this package, the standard library and small parsing libraries: never a
// store, the read or write side, or an HTTP framework.
package sources
