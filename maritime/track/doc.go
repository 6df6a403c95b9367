// Package track shapes a vessel's stored fixes into the track a reader
// asks for: segments broken at reception gaps (Segmenter), thinned to one
// fix per interval (Thinner) and simplified by Douglas–Peucker within a
// tolerance in metres (Simplify). Pure functions over plain values.
package track
