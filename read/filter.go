package read

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/vessel"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// The position filter: one grammar, parsed here once, for every read of
// stored positions (tracks, area presence, the fleet's latest positions).
// docs/positions.md describes it for users; the OpenAPI document has its
// parameters once, as shared components.

// Bounds of the position filter.
const (
	// FilterMaxVessels bounds the IMOs (and the MMSIs) of one filter.
	FilterMaxVessels = 100
	// PolygonMaxPositions bounds a polygon's positions, all rings
	// together: it must fit in a request line (8 KiB) with room to spare.
	PolygonMaxPositions = 200
)

// PositionFilter selects stored positions. Every field is optional; an
// empty filter selects everything (each reader adds its own bounds).
type PositionFilter struct {
	IMOs     []overwatch.IMO    // imo: any of these vessels
	MMSIs    []uint32           // mmsi: any of these transponders
	Category *vessel.Category   // type: vessels of this ship type category (registry)
	BBox     *geo.BBox          // bbox: positions in the box
	Polygon  geo.Polygon        // polygon: positions in the polygon
	Start    time.Time          // start: at or after (zero: unbounded)
	End      time.Time          // end: at or before (zero: unbounded)
	Sources  []overwatch.Source // source: from any of these providers
}

// HasArea reports whether the filter names an area (bbox or polygon).
func (f PositionFilter) HasArea() bool { return f.BBox != nil || len(f.Polygon) > 0 }

// InArea reports whether a position lies in the filter's area (true when
// the filter names none).
func (f PositionFilter) InArea(lat, lon float64) bool {
	if f.BBox != nil && !f.BBox.Contains(lat, lon) {
		return false
	}
	if len(f.Polygon) > 0 && !f.Polygon.Contains(lat, lon) {
		return false
	}
	return true
}

// positionFilter parses the request's filter parameters.
func positionFilter(c *fiber.Ctx) (PositionFilter, error) {
	return ParsePositionFilter(func(name string) string { return c.Query(name) })
}

// ParsePositionFilter reads the filter parameters through get (a query
// string's values; "" for an absent one): imo and mmsi (one or a comma
// list), type (a ship type category), bbox (west,south,east,north in
// degrees; west greater than east crosses the antimeridian), polygon (a
// GeoJSON Polygon), start and end (ISO 8601), source (one provider or a
// comma list). Each refusal is an Invalid error naming its parameter.
// bbox and polygon exclude each other.
func ParsePositionFilter(get func(string) string) (PositionFilter, error) {
	var f PositionFilter
	var err error
	if f.IMOs, err = imoList(get("imo")); err != nil {
		return f, err
	}
	if f.MMSIs, err = mmsiList(get("mmsi")); err != nil {
		return f, err
	}
	if raw := get("type"); raw != "" {
		cat, ok := vessel.CategoryNamed(raw)
		if !ok {
			return f, invalid("type", "type must be one of %s", strings.Join(vessel.CategoryNames(), ", "))
		}
		f.Category = &cat
	}
	if raw := get("bbox"); raw != "" {
		b, err := parseBBox(raw)
		if err != nil {
			return f, err
		}
		f.BBox = &b
	}
	if raw := get("polygon"); raw != "" {
		if f.BBox != nil {
			return f, invalid("polygon", "polygon and bbox cannot be combined: give one area")
		}
		if f.Polygon, err = parsePolygon(raw); err != nil {
			return f, err
		}
	}
	for _, p := range []struct {
		name string
		t    *time.Time
	}{{"start", &f.Start}, {"end", &f.End}} {
		if raw := get(p.name); raw != "" {
			if *p.t, err = ParseTimeParam(p.name, raw, timeLayouts...); err != nil {
				return f, err
			}
		}
	}
	if !f.Start.IsZero() && !f.End.IsZero() && f.End.Before(f.Start) {
		return f, invalid("end", "end must not be before start")
	}
	if f.Sources, err = sourceList(get("source")); err != nil {
		return f, err
	}
	return f, nil
}

func invalid(name, format string, args ...any) error {
	return overwatch.Errorf(overwatch.Invalid, format, args...).With("parameter", name)
}

// splitList splits a comma list, refusing empty items and more than max.
func splitList(name, raw string, max int) ([]string, error) {
	if raw == "" {
		return nil, nil
	}
	items := strings.Split(raw, ",")
	if len(items) > max {
		return nil, invalid(name, "%s takes at most %d values", name, max)
	}
	for i, it := range items {
		items[i] = strings.TrimSpace(it)
		if items[i] == "" {
			return nil, invalid(name, "%s has an empty value in its comma list", name)
		}
	}
	return items, nil
}

func imoList(raw string) ([]overwatch.IMO, error) {
	items, err := splitList("imo", raw, FilterMaxVessels)
	if err != nil {
		return nil, err
	}
	var out []overwatch.IMO
	for _, it := range items {
		imo, err := overwatch.ParseIMO(it)
		if err != nil {
			return nil, invalid("imo", "imo %v (got '%s')", err, truncate(it, 20))
		}
		out = append(out, imo)
	}
	return out, nil
}

func mmsiList(raw string) ([]uint32, error) {
	items, err := splitList("mmsi", raw, FilterMaxVessels)
	if err != nil {
		return nil, err
	}
	var out []uint32
	for _, it := range items {
		v, err := strconv.ParseUint(it, 10, 32)
		if err != nil || v == 0 || v > 999999999 || len(it) > 9 {
			return nil, invalid("mmsi", "mmsi must be an MMSI of up to 9 digits (got '%s')", truncate(it, 20))
		}
		out = append(out, uint32(v))
	}
	return out, nil
}

func sourceList(raw string) ([]overwatch.Source, error) {
	items, err := splitList("source", raw, len(overwatch.Sources))
	if err != nil {
		return nil, err
	}
	var out []overwatch.Source
	for _, it := range items {
		s, ok := overwatch.ParseSource(it)
		if !ok {
			names := make([]string, len(overwatch.Sources))
			for i, s := range overwatch.Sources {
				names[i] = string(s)
			}
			return nil, invalid("source", "source must be one of %s (got '%s')", strings.Join(names, ", "), truncate(it, 20))
		}
		out = append(out, s)
	}
	return out, nil
}

func parseBBox(raw string) (geo.BBox, error) {
	const usage = "bbox must be west,south,east,north in degrees (longitudes -180 to 180, latitudes -90 to 90, south not above north)"
	parts := strings.Split(raw, ",")
	if len(parts) != 4 {
		return geo.BBox{}, invalid("bbox", usage)
	}
	var v [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return geo.BBox{}, invalid("bbox", usage)
		}
		v[i] = x
	}
	b := geo.BBox{West: v[0], South: v[1], East: v[2], North: v[3]}
	if !validLon(b.West) || !validLon(b.East) || !validLat(b.South) || !validLat(b.North) || b.South > b.North {
		return geo.BBox{}, invalid("bbox", usage)
	}
	return b, nil
}

func validLon(x float64) bool { return x >= -180 && x <= 180 }
func validLat(y float64) bool { return y >= -90 && y <= 90 }

// parsePolygon reads a GeoJSON Polygon geometry: an exterior ring and
// optional holes, each closed (first position repeated last) with at
// least 4 positions, PolygonMaxPositions in all.
func parsePolygon(raw string) (geo.Polygon, error) {
	usage := fmt.Sprintf(`polygon must be a GeoJSON Polygon such as {"type":"Polygon","coordinates":[[[3.9,51.8],[4.6,51.8],[4.6,52.1],[3.9,51.8]]]}: closed rings of [longitude, latitude] with at least 4 positions, at most %d positions in all`, PolygonMaxPositions)
	var g struct {
		Type        string        `json:"type"`
		Coordinates [][][]float64 `json:"coordinates"`
	}
	if err := json.Unmarshal([]byte(raw), &g); err != nil || g.Type != "Polygon" || len(g.Coordinates) == 0 {
		return nil, invalid("polygon", "%s", usage)
	}
	var p geo.Polygon
	n := 0
	for _, ring := range g.Coordinates {
		n += len(ring)
		if len(ring) < 4 || n > PolygonMaxPositions {
			return nil, invalid("polygon", "%s", usage)
		}
		r := make(geo.Ring, len(ring))
		for i, pos := range ring {
			if len(pos) < 2 || !validLon(pos[0]) || !validLat(pos[1]) {
				return nil, invalid("polygon", "%s", usage)
			}
			r[i] = [2]float64{pos[0], pos[1]}
		}
		if r[0] != r[len(r)-1] {
			return nil, invalid("polygon", "%s", usage)
		}
		p = append(p, r)
	}
	return p, nil
}
