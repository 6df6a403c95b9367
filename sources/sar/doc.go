// Package sar is the Sentinel-1 catalogue source: its parsers, the
// catalogue client the coverage endpoint asks (Catalogue: once per area
// and day, rate-limited, one request per area at a time) and the bundled
// samples (LoadSamples).
//
// Publishers: the Alaska Satellite Facility's search API (NASA Earthdata;
// the catalogue metadata is free to use) or the Copernicus Data Space
// Ecosystem OData catalogue (ESA; free, full and open). Base URL:
// OVERWATCH_SAR_URL, with OVERWATCH_SAR_CATALOGUE saying which. A fetch
// that fails keeps the cache, which answers meanwhile.
//
// The parsers read Sentinel-1 catalogue answers into sar.Products: the
// ASF search API's jsonlite, jsonlite2, CSV and GeoJSON outputs and its
// KML downloads, the Copernicus Data Space (CDSE) OData products answer
// and STAC items. Parse tells the formats apart. Every parser caps what
// it reads at MaxBytes, refuses what it cannot read with an error naming
// the record, and never panics on bad input. docs/sar-coverage.md
// describes the catalogues.
package sar
