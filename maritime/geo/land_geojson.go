package geo

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// LandGeoJSON writes the land mask as a FeatureCollection of one
// MultiPolygon feature, one polygon per ring. Lakes are rings too, so the
// polygons are to be filled together by the even-odd rule (as the map
// does); coordinates are rounded to 0.01°.
func LandGeoJSON(tol, minSpan float64) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"FeatureCollection","features":[{"type":"Feature",` +
		`"properties":{"name":"land","source":"Natural Earth 1:10m land (public domain)","fill_rule":"evenodd"},` +
		`"geometry":{"type":"MultiPolygon","coordinates":[`)
	first := true
	var xs, ys []float64
	LandRings(func(lon, lat []float32) {
		xs, ys = xs[:0], ys[:0]
		minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for i := range lon {
			x, y := float64(lon[i]), float64(lat[i])
			xs, ys = append(xs, x), append(ys, y)
			minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
		}
		if maxX-minX < minSpan && maxY-minY < minSpan {
			return
		}
		keep := simplify(xs, ys, tol)
		if len(keep) < 4 {
			return
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString("[[")
		for k, i := range keep {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			b.WriteString(strconv.FormatFloat(math.Round(xs[i]*100)/100, 'f', -1, 64))
			b.WriteByte(',')
			b.WriteString(strconv.FormatFloat(math.Round(ys[i]*100)/100, 'f', -1, 64))
			b.WriteByte(']')
		}
		b.WriteString("]]")
	})
	b.WriteString("]}}]}")
	if !json.Valid(b.Bytes()) {
		panic("land GeoJSON is not valid JSON") // ruled out by TestLandGeoJSON
	}
	return b.Bytes()
}

// simplify returns the indexes of the vertices Douglas-Peucker keeps of the
// closed ring (xs, ys) at tolerance tol, the first and last always.
func simplify(xs, ys []float64, tol float64) []int {
	n := len(xs)
	if n <= 4 {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	keep := make([]bool, n)
	keep[0], keep[n-1] = true, true
	// A closed ring's ends coincide: split it at its farthest vertex from
	// the start, so that each half has a proper base line.
	far, best := 0, -1.0
	for i := 1; i < n-1; i++ {
		if d := math.Hypot(xs[i]-xs[0], ys[i]-ys[0]); d > best {
			far, best = i, d
		}
	}
	keep[far] = true
	type span struct{ a, b int }
	stack := []span{{0, far}, {far, n - 1}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		idx, dmax := -1, tol
		for i := s.a + 1; i < s.b; i++ {
			if d := segDist(xs[i], ys[i], xs[s.a], ys[s.a], xs[s.b], ys[s.b]); d > dmax {
				idx, dmax = i, d
			}
		}
		if idx >= 0 {
			keep[idx] = true
			stack = append(stack, span{s.a, idx}, span{idx, s.b})
		}
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out
}

// segDist is the planar distance from (px, py) to the segment (ax, ay)-(bx, by).
func segDist(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	if l2 == 0 {
		return math.Hypot(px-ax, py-ay)
	}
	t := max(0, min(1, ((px-ax)*dx+(py-ay)*dy)/l2))
	return math.Hypot(px-ax-t*dx, py-ay-t*dy)
}
