package sar

import (
	"fmt"
	"strconv"
	"strings"

	"overwatch/maritime/sar"
)

// maxVertices bounds a footprint's vertices.
const maxVertices = 10000

// parseWKT reads the outer ring of a WKT POLYGON (either spelling,
// "POLYGON((" or "POLYGON (("), or of the first polygon of a
// MULTIPOLYGON, also inside CDSE's geography'SRID=4326;...' wrapper.
func parseWKT(s string) (sar.Polygon, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "geography'")
	s = strings.TrimSuffix(s, "'")
	if i := strings.Index(s, ";"); i >= 0 && strings.HasPrefix(strings.ToUpper(s), "SRID=") {
		s = s[i+1:]
	}
	u := strings.ToUpper(strings.TrimSpace(s))
	if !strings.HasPrefix(u, "POLYGON") && !strings.HasPrefix(u, "MULTIPOLYGON") {
		return nil, fmt.Errorf("footprint %q is not a WKT polygon", truncate(s, 40))
	}
	open := strings.LastIndex(s[:strings.Index(s+")", ")")], "(")
	end := strings.Index(s, ")")
	if open < 0 || end < open {
		return nil, fmt.Errorf("footprint %q has no ring", truncate(s, 40))
	}
	var ring sar.Polygon
	for _, pair := range strings.Split(s[open+1:end], ",") {
		f := strings.Fields(pair)
		if len(f) < 2 {
			return nil, fmt.Errorf("footprint vertex %q is not 'lon lat'", truncate(pair, 40))
		}
		lon, err1 := strconv.ParseFloat(f[0], 64)
		lat, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("footprint vertex %q is not 'lon lat'", truncate(pair, 40))
		}
		if len(ring) >= maxVertices {
			return nil, fmt.Errorf("footprint has over %d vertices", maxVertices)
		}
		ring = append(ring, sar.LonLat{Lon: lon, Lat: lat})
	}
	if !ring.Valid() {
		return nil, fmt.Errorf("footprint %q is not a valid polygon", truncate(s, 40))
	}
	return ring, nil
}

// ringOf reads a GeoJSON Polygon's or MultiPolygon's first outer ring.
func ringOf(kind string, coords [][][][]float64, poly [][][]float64) (sar.Polygon, error) {
	var outer [][]float64
	switch {
	case kind == "Polygon" && len(poly) > 0:
		outer = poly[0]
	case kind == "MultiPolygon" && len(coords) > 0 && len(coords[0]) > 0:
		outer = coords[0][0]
	default:
		return nil, fmt.Errorf("geometry %q has no polygon", truncate(kind, 20))
	}
	ring := make(sar.Polygon, 0, len(outer))
	for _, v := range outer {
		if len(v) < 2 {
			return nil, fmt.Errorf("geometry vertex has %d numbers", len(v))
		}
		ring = append(ring, sar.LonLat{Lon: v[0], Lat: v[1]})
	}
	if !ring.Valid() {
		return nil, fmt.Errorf("geometry is not a valid polygon")
	}
	return ring, nil
}
