// Command landgen writes land.bin, the world land mask embedded by package
// maritime/geo (OnLand, DistanceToShoreKM, CrossesLand).
//
// Its source is Natural Earth's 1:10m land polygons (public domain) as
// TopoJSON in the npm package world-atlas 2.0.2 (ISC licence), file
// land-10m.json. To regenerate, fetch the package into a scratch directory
// outside the repository and run the command from the repository root:
//
//	mkdir -p /tmp/landgen-npm && cd /tmp/landgen-npm && npm install world-atlas@2.0.2
//	cd <repository> && go run ./cmd/landgen \
//	    -in /tmp/landgen-npm/node_modules/world-atlas/land-10m.json -out maritime/geo/land.bin
//
// landgen decodes the TopoJSON arcs (delta-encoded, quantised) into rings and
// makes them planar in longitude/latitude so that the even-odd rule needs no
// spherical reasoning: longitudes are unwrapped along each ring; a ring that
// winds around the pole (Antarctica) is closed along the antimeridian and the
// pole; a ring that straddles the antimeridian (Wrangel Island; the data
// already cuts Fiji and Chukotka there) is written twice, once on each side.
// Winding is ignored, which makes the three mis-wound Maldives slivers of
// land-10m.json harmless.
//
// The file is gzip of: the magic "OWLAND1\n"; four little-endian float64s
// (longitude scale, latitude scale, longitude and latitude translate: the
// TopoJSON transform); a uvarint ring count; then per ring a uvarint vertex
// count followed by the zigzag-varint deltas of the quantised x and y of each
// vertex from the previous vertex (of the previous ring for a ring's first).
// Rings are implicitly closed. Natural Earth's fictional Null Island (a 1 km
// square at 0°N 0°E) is left out. Rings that quantisation collapsed to two
// vertices (a few islets and reefs) are kept: they have no area, but they are
// coast for DistanceToShoreKM and CrossesLand.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
)

type topology struct {
	Type      string `json:"type"`
	Transform struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Arcs    [][][2]int64 `json:"arcs"`
	Objects map[string]struct {
		Type       string `json:"type"`
		Geometries []struct {
			Type string          `json:"type"`
			Arcs json.RawMessage `json:"arcs"`
		} `json:"geometries"`
	} `json:"objects"`
}

type pt struct{ x, y int64 }

func main() {
	in := flag.String("in", "", "world-atlas land-10m.json")
	out := flag.String("out", "maritime/geo/land.bin", "output file")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "landgen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var topo topology
	if err := json.Unmarshal(raw, &topo); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	land, ok := topo.Objects["land"]
	if topo.Type != "Topology" || !ok {
		return fmt.Errorf("%s: not a TopoJSON topology with a land object", in)
	}
	sx, sy := topo.Transform.Scale[0], topo.Transform.Scale[1]
	tx, ty := topo.Transform.Translate[0], topo.Transform.Translate[1]
	// 360 degrees of longitude in quantised units; world-atlas quantises
	// the full -180..180 extent, so it is an integer.
	turnF := 360 / sx
	turn := int64(math.Round(turnF))
	if sx <= 0 || sy <= 0 || math.Abs(turnF-float64(turn)) > 1e-6 || tx != -180 {
		return fmt.Errorf("%s: unexpected transform %v %v", in, topo.Transform.Scale, topo.Transform.Translate)
	}
	arcs := make([][]pt, len(topo.Arcs))
	for i, a := range topo.Arcs {
		var x, y int64
		for _, d := range a {
			x, y = x+d[0], y+d[1]
			arcs[i] = append(arcs[i], pt{x, y})
		}
	}
	var polys [][][]int
	for _, g := range land.Geometries {
		switch g.Type {
		case "Polygon":
			var p [][]int
			if err := json.Unmarshal(g.Arcs, &p); err != nil {
				return err
			}
			polys = append(polys, p)
		case "MultiPolygon":
			var mp [][][]int
			if err := json.Unmarshal(g.Arcs, &mp); err != nil {
				return err
			}
			polys = append(polys, mp...)
		default:
			return fmt.Errorf("%s: unexpected geometry %s", in, g.Type)
		}
	}
	// Quantised latitudes of the poles (beyond the data, clamped on load).
	southPole := int64(math.Floor((-90 - ty) / sy))
	northPole := int64(math.Ceil((90 - ty) / sy))
	var rings [][]pt
	var nIn, wrapped, copies, dropped int
	for _, p := range polys {
		for _, r := range p {
			var ring []pt
			for _, ai := range r {
				var a []pt
				if ai >= 0 {
					a = arcs[ai]
				} else {
					src := arcs[^ai]
					for k := len(src) - 1; k >= 0; k-- {
						a = append(a, src[k])
					}
				}
				if len(ring) > 0 {
					a = a[1:]
				}
				ring = append(ring, a...)
			}
			if len(ring) > 1 && ring[0] == ring[len(ring)-1] {
				ring = ring[:len(ring)-1]
			}
			if len(ring) < 2 {
				continue
			}
			nIn++
			if nullIsland(ring, sx, sy, tx, ty) {
				dropped++
				continue
			}
			out, w := planar(ring, turn, southPole, northPole, ty, sy)
			if w {
				wrapped++
			}
			copies += len(out) - 1
			rings = append(rings, out...)
		}
	}
	var body bytes.Buffer
	body.WriteString("OWLAND1\n")
	for _, f := range []float64{sx, sy, tx, ty} {
		_ = binary.Write(&body, binary.LittleEndian, f)
	}
	body.Write(binary.AppendUvarint(nil, uint64(len(rings))))
	var px, py int64
	nv := 0
	for _, r := range rings {
		body.Write(binary.AppendUvarint(nil, uint64(len(r))))
		for _, q := range r {
			body.Write(binary.AppendVarint(nil, q.x-px))
			body.Write(binary.AppendVarint(nil, q.y-py))
			px, py = q.x, q.y
		}
		nv += len(r)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(body.Bytes()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(out, gz.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("landgen: %d source rings, %d dropped (Null Island), %d around a pole, %d antimeridian copies; wrote %d rings, %d vertices, %d bytes (%d before gzip) to %s\n",
		nIn, dropped, wrapped, copies, len(rings), nv, gz.Len(), body.Len(), out)
	return nil
}

// planar unwraps the ring's longitudes, closes a ring that winds around a
// pole along the antimeridian and the pole, shifts it so that its west end
// lies in [-180, 180) and adds a copy shifted by 360 degrees west when its
// east end passes 180. It reports whether the ring wound around a pole.
func planar(ring []pt, turn, southPole, northPole int64, ty, sy float64) ([][]pt, bool) {
	half := turn / 2
	u := make([]pt, len(ring))
	u[0] = ring[0]
	for i := 1; i < len(ring); i++ {
		x := ring[i].x
		for x-u[i-1].x > half {
			x -= turn
		}
		for x-u[i-1].x < -half {
			x += turn
		}
		u[i] = pt{x, ring[i].y}
	}
	first, last := u[0], u[len(u)-1]
	k := int64(math.Round(float64(last.x-first.x) / float64(turn)))
	wound := k != 0
	if wound {
		var sum float64
		for _, q := range u {
			sum += float64(q.y)*sy + ty
		}
		pole := southPole
		if sum > 0 {
			pole = northPole
		}
		xe := first.x + k*turn
		u = append(u, pt{xe, first.y}, pt{xe, pole}, pt{first.x, pole})
	}
	minX, maxX := u[0].x, u[0].x
	for _, q := range u {
		minX, maxX = min(minX, q.x), max(maxX, q.x)
	}
	shift := -floorDiv(minX, turn) * turn
	for i := range u {
		u[i].x += shift
	}
	out := [][]pt{u}
	if maxX+shift > turn {
		c := make([]pt, len(u))
		for i, q := range u {
			c[i] = pt{q.x - turn, q.y}
		}
		out = append(out, c)
	}
	return out, wound
}

// nullIsland reports whether the ring is Natural Earth's "Null Island", a
// fictional 1 km square at 0°N 0°E that would put the Gulf of Guinea's most
// common bad AIS position on land, 570 km from any real shore.
func nullIsland(ring []pt, sx, sy, tx, ty float64) bool {
	for _, q := range ring {
		if math.Abs(float64(q.x)*sx+tx) > 0.01 || math.Abs(float64(q.y)*sy+ty) > 0.01 {
			return false
		}
	}
	return true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
