// Package crop parses the crop-health sources' files into the records of
// maritime/crop: USDA FAS PSD Online CSVs (psd.go), the USDA OCE WASDE
// report data CSV (wasde.go) and NASA AppEEARS point-sample CSVs of the
// MODIS vegetation index (appeears.go). Parse tells them apart by their
// header. Each file parses whole or fails with an error naming the line:
// nothing of a bad file is kept.
package crop
