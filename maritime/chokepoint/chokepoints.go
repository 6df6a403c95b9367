package chokepoint

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// Natural Earth sea polygons (public domain) and the World Port Index
// gateway ports (public domain), copied unchanged from
// ../shared/data/geo (data/README.md).
var (
	//go:embed data/ne_10m_marine_polys_chokepoint_seas_extract.geojson
	seasGeoJSON []byte
	//go:embed data/chokepoint_gateway_ports_wpi_extract.csv
	gatewayCSV []byte
)

// Point is a latitude/longitude pair in degrees.
type Point struct{ Lat, Lon float64 }

// Port is a gateway port of a chokepoint (World Port Index).
type Port struct {
	Name   string
	LOCODE string // as the index writes it: "EG PSD" or "PABLB"
	Point
}

// Chokepoint is a watched passage: Slug is its stable id, Name its
// English name, Gate what a transit crosses, Ports its gateway ports,
// Alternative the slug of the way around it ("" when there is none among
// the watched passages), Lanes the sea-lane node names it covers (the
// simulator's graph), GateSource how its gate was drawn.
type Chokepoint struct {
	Slug        string
	Name        string
	Gate        Gate
	Ports       []Port
	Alternative string
	Lanes       []string
	GateSource  string
}

// Gate is what a transit crosses: a line (a transit is a track segment
// crossing it) or sea polygons (a transit is a stay in them, entered and
// left).
type Gate struct {
	Line  []Point
	Polys [][]Point
	box   [4]float64 // minLat, minLon, maxLat, maxLon of the polygons
}

// Slugs of the watched chokepoints, in the order the API lists them.
const (
	Suez         = "suez"
	BabElMandeb  = "bab-el-mandeb"
	Hormuz       = "hormuz"
	Malacca      = "malacca"
	Panama       = "panama"
	Bosporus     = "bosporus"
	Gibraltar    = "gibraltar"
	CapeGoodHope = "cape-of-good-hope"
)

// definitions are the eight chokepoints before their geometry is loaded.
// Line gates: Suez across the canal at El Ismailiya's latitude; Panama the
// perpendicular bisector of Balboa–Puerto Cristobal; Hormuz the line from
// Jazireh-ye Hormoz to Khawr Khasab (extended 10 km past each); Bab
// el-Mandeb from Ras Siyyan (12.47N 43.30E) across Perim to the Yemeni
// shore (12.70N 43.47E); Gibraltar from Tarifa (36.01N 5.61W) to Ksar
// es-Seghir (35.84N 5.56W); the Cape of Good Hope the meridian of Cape
// Agulhas (20.0E) from the coast to 40S. Polygons: the Natural Earth
// "Strait of Malacca" and "Bosporus".
var definitions = []Chokepoint{
	{Slug: Suez, Name: "Suez Canal", Alternative: CapeGoodHope, Lanes: []string{"Suez Canal"},
		GateSource: "line across the canal at the latitude of El Ismailiya (WPI EG ISM)"},
	{Slug: BabElMandeb, Name: "Bab el-Mandeb Strait", Alternative: CapeGoodHope, Lanes: []string{"Bab-el-Mandeb"},
		GateSource: "line from Ras Siyyan across Perim to the Yemeni shore (the Natural Earth polygon is a sliver at 1:10m)"},
	{Slug: Hormuz, Name: "Strait of Hormuz", Lanes: []string{"Strait of Hormuz"},
		GateSource: "line from Jazireh-ye Hormoz (WPI IR HOR) to Khawr Khasab (WPI OM KHS), extended 10 km past each"},
	{Slug: Malacca, Name: "Strait of Malacca", Lanes: []string{"Strait of Malacca"},
		GateSource: "Natural Earth 1:10m polygon \"Strait of Malacca\" (Q48359)"},
	{Slug: Panama, Name: "Panama Canal", Lanes: []string{"Panama Canal"},
		GateSource: "perpendicular bisector of Balboa (WPI PABLB) and Puerto Cristobal (WPI PACTB)"},
	{Slug: Bosporus, Name: "Bosporus", Lanes: []string{"Bosphorus"},
		GateSource: "Natural Earth 1:10m polygon \"Bosporus\" (Q35958)"},
	{Slug: Gibraltar, Name: "Strait of Gibraltar", Lanes: []string{"Strait of Gibraltar"},
		GateSource: "line from Tarifa to Ksar es-Seghir (the Natural Earth polygon is a sliver at 1:10m)"},
	{Slug: CapeGoodHope, Name: "Cape of Good Hope", Lanes: []string{"Cape of Good Hope", "Cape Agulhas"},
		GateSource: "the meridian of Cape Agulhas (20.0E) from the coast to 40S"},
}

// gatewayOf maps a WPI LOCODE (without its space) to its chokepoint.
var gatewayOf = map[string]string{
	"EGPSD": Suez, "EGISM": Suez, "EGSUZ": Suez,
	"PABLB": Panama, "PACTB": Panama, "PAONX": Panama,
	"IRBND": Hormuz, "IRHOR": Hormuz, "OMKHS": Hormuz,
	"YEMOK": BabElMandeb, "DJJIB": BabElMandeb, "YEADE": BabElMandeb,
}

var load = sync.OnceValues(func() ([]Chokepoint, error) {
	polys, err := ParseSeas(bytes.NewReader(seasGeoJSON))
	if err != nil {
		return nil, err
	}
	ports, err := ParseGateways(bytes.NewReader(gatewayCSV))
	if err != nil {
		return nil, err
	}
	byLoc := map[string]Port{}
	out := make([]Chokepoint, len(definitions))
	copy(out, definitions)
	for i := range out {
		for _, p := range ports {
			if gatewayOf[strings.ReplaceAll(p.LOCODE, " ", "")] == out[i].Slug {
				out[i].Ports = append(out[i].Ports, p)
			}
			byLoc[strings.ReplaceAll(p.LOCODE, " ", "")] = p
		}
	}
	need := func(loc string) (Point, error) {
		p, ok := byLoc[loc]
		if !ok {
			return Point{}, fmt.Errorf("chokepoint: gateway port %s missing", loc)
		}
		return p.Point, nil
	}
	for i := range out {
		c := &out[i]
		switch c.Slug {
		case Suez:
			p, err := need("EGISM")
			if err != nil {
				return nil, err
			}
			c.Gate.Line = []Point{{p.Lat, 32.10}, {p.Lat, 32.60}}
		case Panama:
			a, err1 := need("PABLB")
			b, err2 := need("PACTB")
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("chokepoint: Panama gateway ports missing")
			}
			m := Point{(a.Lat + b.Lat) / 2, (a.Lon + b.Lon) / 2}
			dLat, dLon := b.Lat-a.Lat, b.Lon-a.Lon
			c.Gate.Line = []Point{{m.Lat - dLon*0.7, m.Lon + dLat*0.7}, {m.Lat + dLon*0.7, m.Lon - dLat*0.7}}
		case Hormuz:
			a, err1 := need("IRHOR")
			b, err2 := need("OMKHS")
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("chokepoint: Hormuz gateway ports missing")
			}
			dLat, dLon := (a.Lat-b.Lat)*0.1, (a.Lon-b.Lon)*0.1
			c.Gate.Line = []Point{{a.Lat + dLat, a.Lon + dLon}, {b.Lat - dLat, b.Lon - dLon}}
		case BabElMandeb:
			c.Gate.Line = []Point{{12.47, 43.30}, {12.70, 43.47}}
		case Gibraltar:
			c.Gate.Line = []Point{{36.01, -5.61}, {35.84, -5.56}}
		case CapeGoodHope:
			c.Gate.Line = []Point{{-34.83, 20.0}, {-40.0, 20.0}}
		case Malacca:
			c.Gate.Polys = polys["Strait of Malacca"]
		case Bosporus:
			c.Gate.Polys = polys["Bosporus"]
		}
		if len(c.Gate.Line) == 0 && len(c.Gate.Polys) == 0 {
			return nil, fmt.Errorf("chokepoint: no gate for %s", c.Slug)
		}
		c.Gate.bound()
	}
	return out, nil
})

// All returns the eight chokepoints (shared: do not modify). It panics if
// the embedded files do not parse, which the package's tests rule out.
func All() []Chokepoint {
	all, err := load()
	if err != nil {
		panic(err)
	}
	return all
}

// Named returns the chokepoint with the slug.
func Named(slug string) (Chokepoint, bool) {
	for _, c := range All() {
		if c.Slug == slug {
			return c, true
		}
	}
	return Chokepoint{}, false
}

func (g *Gate) bound() {
	g.box = [4]float64{90, 180, -90, -180}
	for _, ring := range g.Polys {
		for _, p := range ring {
			g.box[0], g.box[1] = min(g.box[0], p.Lat), min(g.box[1], p.Lon)
			g.box[2], g.box[3] = max(g.box[2], p.Lat), max(g.box[3], p.Lon)
		}
	}
}

// maxFeatures bounds the features ParseSeas reads.
const maxFeatures = 10000

// ParseSeas reads a GeoJSON FeatureCollection of Natural Earth marine
// polygons (WGS84 lon,lat; Polygon or MultiPolygon) into the outer rings
// of each feature, by its "name".
func ParseSeas(r io.Reader) (map[string][][]Point, error) {
	var fc struct {
		Type     string `json:"type"`
		Features []struct {
			Properties struct {
				Name string `json:"name"`
			} `json:"properties"`
			Geometry struct {
				Type        string          `json:"type"`
				Coordinates json.RawMessage `json:"coordinates"`
			} `json:"geometry"`
		} `json:"features"`
	}
	if err := json.NewDecoder(io.LimitReader(r, 64<<20)).Decode(&fc); err != nil {
		return nil, fmt.Errorf("chokepoint: sea polygons: %w", err)
	}
	if fc.Type != "FeatureCollection" || len(fc.Features) == 0 || len(fc.Features) > maxFeatures {
		return nil, fmt.Errorf("chokepoint: sea polygons: not a FeatureCollection of 1 to %d features", maxFeatures)
	}
	out := map[string][][]Point{}
	for _, f := range fc.Features {
		var polys [][][][2]float64
		switch f.Geometry.Type {
		case "Polygon":
			var p [][][2]float64
			if err := json.Unmarshal(f.Geometry.Coordinates, &p); err != nil {
				return nil, fmt.Errorf("chokepoint: %s: %w", f.Properties.Name, err)
			}
			polys = [][][][2]float64{p}
		case "MultiPolygon":
			if err := json.Unmarshal(f.Geometry.Coordinates, &polys); err != nil {
				return nil, fmt.Errorf("chokepoint: %s: %w", f.Properties.Name, err)
			}
		default:
			return nil, fmt.Errorf("chokepoint: %s: geometry %q", f.Properties.Name, f.Geometry.Type)
		}
		for _, p := range polys {
			if len(p) == 0 || len(p[0]) < 4 {
				return nil, fmt.Errorf("chokepoint: %s: a ring of fewer than 4 points", f.Properties.Name)
			}
			ring := make([]Point, len(p[0]))
			for i, c := range p[0] {
				if !(c[1] >= -90 && c[1] <= 90 && c[0] >= -180 && c[0] <= 180) {
					return nil, fmt.Errorf("chokepoint: %s: coordinate out of range", f.Properties.Name)
				}
				ring[i] = Point{Lat: c[1], Lon: c[0]}
			}
			out[f.Properties.Name] = append(out[f.Properties.Name], ring)
		}
	}
	return out, nil
}

// ParseGateways reads World Port Index rows (BOM, CRLF, the index's
// header) into ports: name, LOCODE, latitude and longitude.
func ParseGateways(r io.Reader) ([]Port, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("chokepoint: gateway ports: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")] = i
	}
	for _, k := range []string{"Main Port Name", "UN/LOCODE", "Latitude", "Longitude"} {
		if _, ok := col[k]; !ok {
			return nil, fmt.Errorf("chokepoint: gateway ports: no %q column", k)
		}
	}
	var out []Port
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("chokepoint: gateway ports: %w", err)
		}
		get := func(k string) string {
			if i := col[k]; i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		lat, err1 := strconv.ParseFloat(get("Latitude"), 64)
		lon, err2 := strconv.ParseFloat(get("Longitude"), 64)
		if err1 != nil || err2 != nil || !(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180) {
			return nil, fmt.Errorf("chokepoint: gateway port %q: bad coordinates", get("Main Port Name"))
		}
		out = append(out, Port{Name: get("Main Port Name"), LOCODE: get("UN/LOCODE"), Point: Point{lat, lon}})
	}
	return out, nil
}
