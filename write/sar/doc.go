// Package sar parses Sentinel-1 catalogue answers into sar.Products: the
// ASF search API's jsonlite, jsonlite2, CSV and GeoJSON outputs and its
// KML downloads, the Copernicus Data Space (CDSE) OData products answer
// and STAC items. Parse tells the formats apart. Every parser caps what
// it reads at MaxBytes, refuses what it cannot read with an error naming
// the record, and never panics on bad input. docs/sar-coverage.md
// describes the catalogues.
package sar
