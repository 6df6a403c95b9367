// Package crop is the crop-health sources: their parsers, the refresh of
// the NDVI series (NDVI) and the import of their files (ImportFile). One
// package for three publishers, because one detector (Parse) tells their
// files apart by their header and they fill the one crop-health view.
//
// Publishers: USDA FAS PSD Online and USDA OCE WASDE (public domain, U.S.
// Government works; imported from files, no refresh), and NASA AppEEARS
// (MODIS vegetation index, NASA LP DAAC, no restriction on reuse), base
// URL OVERWATCH_CROP_NDVI_URL. An NDVI fetch that fails keeps the series
// last stored.
//
// The parsers read the files into the records of maritime/crop: USDA FAS PSD Online CSVs (psd.go), the USDA OCE WASDE
// report data CSV (wasde.go) and NASA AppEEARS point-sample CSVs of the
// MODIS vegetation index (appeears.go). Parse tells them apart by their
// header. Each file parses whole or fails with an error naming the line:
// nothing of a bad file is kept.
package crop
