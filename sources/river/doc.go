// Package river is the USGS river-gauge source: its parser, the fetch of
// the gauges' readings and the refresh of the river tables (Levels).
//
// The parser reads the USGS water services' answers: the legacy
// instantaneous-values service (NWIS IV, WaterML 1.1 as JSON) and the
// Water Data OGC API (a GeoJSON FeatureCollection of the continuous and
// latest-continuous collections).
//
// Publisher: the U.S. Geological Survey (public domain, U.S. Government
// work). Base URL: OVERWATCH_RIVER_URL (the IV service or an OGC API
// collection). A run that fails (timeout, 429, 5xx, an HTML page, a
// truncated or malformed answer, an empty series) keeps the readings last
// stored; every fetch, failed or not, is logged in the fetch log that the
// source status of /v1/river-levels reads.
package river
