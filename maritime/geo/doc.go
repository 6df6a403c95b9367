// Package geo is the geometry of the sea surface the service works on: the
// Natural Earth 1:10m land mask (whether a point is on land, its distance to
// the shore, whether a great-circle segment crosses land) embedded as
// land.bin, great-circle distances and intermediate points.
//
// It imports only the standard library.
package geo
