// Package crop is the vocabulary and arithmetic of crop health in the
// regions that feed the service's grain export ports: the regions
// (crops, polygon, USDA PSD country code, ports), the records the parsers
// in sources/crop produce (PSD rows, WASDE rows, AppEEARS NDVI samples), the
// health assessment of a region and crop (NDVI anomaly against the same
// 16-day period's multi-year mean, or, where no NDVI series exists, the
// official view: USDA's latest yield forecast against its 5-year average),
// and the production forecast with the exportable volume per mapped port.
// It imports no storage and no HTTP; docs/crop-health.md documents the
// thresholds, the yield-factor mapping and the sources.
package crop
