package geo

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
)

// The world land mask: Natural Earth 1:10m land (public domain), from the
// TopoJSON of the npm package world-atlas 2.0.2 (ISC), made planar in
// longitude/latitude by cmd/landgen and embedded as land.bin (about 560 kB).
// It is decoded and indexed once, on the first call of OnLand,
// DistanceToShoreKM or CrossesLand, never at program start-up.
//
// The index is a grid of landCellDeg cells, each listing the polygon edges
// whose bounding box meets it, plus for every grid row the sorted longitudes
// where the polygon edges cross the row's centre line. A point is on land
// when the edges crossed by the path from the point straight north or south
// to its row's centre line, plus the crossings of that centre line east of
// the point, are odd in number (the even-odd rule on a ray that turns a
// corner). Distances search blocks of landBlock×landBlock cells outwards.

//go:embed land.bin
var landBin []byte

const (
	landCellDeg = 0.25
	landCols    = 1440 // 360 / landCellDeg
	landRows    = 720  // 180 / landCellDeg
	landBlock   = 8    // cells per block side
	landBCols   = landCols / landBlock
	landBRows   = landRows / landBlock
	// landArtificial marks, in cellEdge, an edge that is not coastline: the
	// cuts along the antimeridian and Antarctica's closure along the pole.
	landArtificial = 1 << 31
	earthRadiusKM  = 6371.0088
	degToRad       = math.Pi / 180
)

// landIndex is the decoded mask and its grid.
type landIndex struct {
	lon, lat   []float32 // vertices; each ring closed by repeating its first vertex
	xyz        []float32 // unit vectors of the vertices, three per vertex
	cellStart  []uint32  // edges of cell k: cellEdge[cellStart[k]:cellStart[k+1]]
	cellEdge   []uint32  // an edge is the index of its first vertex (| landArtificial)
	coastCell  []uint64  // bitset: the cell lists a coastline edge
	coastBlock []bool    // the block has a coast cell
	rowStart   []uint32  // crossings of row r's centre line: rowX[rowStart[r]:rowStart[r+1]]
	rowX       []float64 // sorted within each row
	rings      int
	ringStart  []int // first vertex of each ring, then the vertex count

	// For DistanceToShoreKM: sines and cosines of the latitudes of the cell
	// rows' and the longitudes of the cell columns' centres; the angular
	// radius (from its centre) of a cell and of a block, by row; and per
	// block a nearby block that holds coast.
	rowSin, rowCos   [landRows]float64
	colSin, colCos   [landCols]float64
	bRowSin, bRowCos [landBRows]float64
	bColSin, bColCos [landBCols]float64
	cellRho          [landRows]float64
	blockRho         [landBRows]float64
	seed             []int32
}

var landData = sync.OnceValue(func() *landIndex {
	idx, err := decodeLand(landBin)
	if err != nil {
		panic(fmt.Errorf("land.bin: %w", err)) // ruled out by the package's tests
	}
	return idx
})

// OnLand reports whether the point lies in the Natural Earth 1:10m land
// polygons, by the even-odd rule on the planar longitude/latitude polygons,
// so a lake that the data has as a hole (the Caspian Sea, the only one) is
// water; rivers and other lakes (the Great Lakes, Lake Victoria) are land.
// Longitudes are taken modulo 360 and latitudes clamped to [-90, 90]; a NaN
// or infinite coordinate is not on land.
func OnLand(lat, lon float64) bool {
	if !finite(lat, lon) {
		return false
	}
	lat, lon = landNorm(lat, lon)
	return landData().onLand(lat, lon)
}

// finite reports whether all the coordinates are finite numbers.
func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// landNorm clamps the latitude and brings the longitude into [-180, 180).
func landNorm(lat, lon float64) (float64, float64) {
	lat = max(-90, min(90, lat))
	if lon < -180 || lon >= 180 {
		lon = math.Mod(lon+180, 360)
		if lon < 0 {
			lon += 360
		}
		lon -= 180
		if lon >= 180 { // rounding of a tiny negative remainder
			lon = -180
		}
	}
	return lat, lon
}

func landCell(lat, lon float64) (r, c int) {
	r = min(landRows-1, max(0, int((lat+90)/landCellDeg)))
	c = min(landCols-1, max(0, int((lon+180)/landCellDeg)))
	return r, c
}

func landRowY(r int) float64 { return -90 + (float64(r)+0.5)*landCellDeg }

func (m *landIndex) onLand(lat, lon float64) bool {
	r, c := landCell(lat, lon)
	xs := m.rowX[m.rowStart[r]:m.rowStart[r+1]]
	lo, hi := 0, len(xs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if xs[mid] > lon {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	n := len(xs) - lo
	yc := landRowY(r)
	ylo, yhi := min(lat, yc), max(lat, yc)
	k := r*landCols + c
	for _, e := range m.cellEdge[m.cellStart[k]:m.cellStart[k+1]] {
		i := e &^ landArtificial
		x1, x2 := float64(m.lon[i]), float64(m.lon[i+1])
		if (x1 > lon) == (x2 > lon) {
			continue
		}
		y1, y2 := float64(m.lat[i]), float64(m.lat[i+1])
		y := y1 + (lon-x1)*(y2-y1)/(x2-x1)
		if y > ylo && y <= yhi {
			n++
		}
	}
	return n&1 == 1
}

// decodeLand reads land.bin (see cmd/landgen) and builds the index.
func decodeLand(bin []byte) (*landIndex, error) {
	zr, err := gzip.NewReader(bytes.NewReader(bin))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	const magic = "OWLAND1\n"
	if len(raw) < len(magic)+32 || string(raw[:len(magic)]) != magic {
		return nil, errors.New("not an OWLAND1 file")
	}
	var tr [4]float64
	for i := range tr {
		tr[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[len(magic)+8*i:]))
	}
	sx, sy, tx, ty := tr[0], tr[1], tr[2], tr[3]
	buf := raw[len(magic)+32:]
	uvar := func() (uint64, error) {
		v, n := binary.Uvarint(buf)
		if n <= 0 {
			return 0, errors.New("truncated")
		}
		buf = buf[n:]
		return v, nil
	}
	svar := func() (int64, error) {
		v, n := binary.Varint(buf)
		if n <= 0 {
			return 0, errors.New("truncated")
		}
		buf = buf[n:]
		return v, nil
	}
	nr, err := uvar()
	if err != nil {
		return nil, err
	}
	m := &landIndex{rings: int(nr)}
	m.lon = make([]float32, 0, len(buf)/2)
	m.lat = make([]float32, 0, len(buf)/2)
	var qx, qy int64
	starts := make([]int, 0, nr+1)
	for range nr {
		nv, err := uvar()
		if err != nil {
			return nil, err
		}
		if nv < 2 || nv > uint64(len(buf)) {
			return nil, fmt.Errorf("bad ring of %d vertices", nv)
		}
		start := len(m.lon)
		starts = append(starts, start)
		for range nv {
			dx, err1 := svar()
			dy, err2 := svar()
			if err1 != nil || err2 != nil {
				return nil, errors.New("truncated ring")
			}
			qx, qy = qx+dx, qy+dy
			x, y := float64(qx)*sx+tx, max(-90, min(90, float64(qy)*sy+ty))
			if r := math.Round(x); math.Abs(x-r) < 1e-9 {
				x = r // exact whole degrees: ±180 for the antimeridian cuts
			}
			m.lon = append(m.lon, float32(x))
			m.lat = append(m.lat, float32(y))
		}
		m.lon = append(m.lon, m.lon[start])
		m.lat = append(m.lat, m.lat[start])
	}
	if len(buf) != 0 {
		return nil, errors.New("trailing bytes")
	}
	starts = append(starts, len(m.lon))
	m.lon, m.lat = slices.Clip(m.lon), slices.Clip(m.lat)
	m.xyz = make([]float32, 3*len(m.lon))
	for i := range m.lon {
		x, y, z := unitVec(float64(m.lat[i]), float64(m.lon[i]))
		m.xyz[3*i], m.xyz[3*i+1], m.xyz[3*i+2] = float32(x), float32(y), float32(z)
	}
	m.ringStart = slices.Clip(starts)
	m.buildGrid(starts)
	m.buildRows(starts)
	m.buildShore()
	return m, nil
}

// edges calls fn for every edge, with its artificial flag; starts holds
// the index of each ring's first vertex and, last, the vertex count.
func (m *landIndex) edges(starts []int, fn func(i uint32, artificial bool)) {
	for r := 0; r+1 < len(starts); r++ {
		for k := starts[r]; k < starts[r+1]-1; k++ {
			x1, x2, y1, y2 := m.lon[k], m.lon[k+1], m.lat[k], m.lat[k+1]
			art := (x1 == x2 && (x1 >= 180 || x1 <= -180)) || (y1 <= -90 && y2 <= -90) || (y1 >= 90 && y2 >= 90)
			fn(uint32(k), art)
		}
	}
}

// edgeCells returns the cell range of the edge's bounding box, clipped to
// the grid; ok is false when the box lies outside it.
func (m *landIndex) edgeCells(i uint32) (r0, r1, c0, c1 int, ok bool) {
	x1, x2 := float64(m.lon[i]), float64(m.lon[i+1])
	y1, y2 := float64(m.lat[i]), float64(m.lat[i+1])
	xmin, xmax := min(x1, x2), max(x1, x2)
	if xmax < -180 || xmin >= 180 {
		return 0, 0, 0, 0, false
	}
	r0, c0 = landCell(min(y1, y2), max(-180, xmin))
	r1, c1 = landCell(max(y1, y2), min(180, xmax))
	return r0, r1, c0, c1, true
}

func (m *landIndex) buildGrid(starts []int) {
	counts := make([]uint32, landRows*landCols+1)
	m.edges(starts, func(i uint32, _ bool) {
		if r0, r1, c0, c1, ok := m.edgeCells(i); ok {
			for r := r0; r <= r1; r++ {
				for c := c0; c <= c1; c++ {
					counts[r*landCols+c+1]++
				}
			}
		}
	})
	for k := 1; k < len(counts); k++ {
		counts[k] += counts[k-1]
	}
	m.cellStart = counts
	m.cellEdge = make([]uint32, counts[len(counts)-1])
	fill := slices.Clone(counts[:len(counts)-1])
	m.coastCell = make([]uint64, (landRows*landCols+63)/64)
	m.coastBlock = make([]bool, landBRows*landBCols)
	m.edges(starts, func(i uint32, art bool) {
		r0, r1, c0, c1, ok := m.edgeCells(i)
		if !ok {
			return
		}
		e := i
		if art {
			e |= landArtificial
		}
		for r := r0; r <= r1; r++ {
			for c := c0; c <= c1; c++ {
				k := r*landCols + c
				m.cellEdge[fill[k]] = e
				fill[k]++
				if !art {
					m.coastCell[k/64] |= 1 << (k % 64)
					m.coastBlock[(r/landBlock)*landBCols+c/landBlock] = true
				}
			}
		}
	})
}

func (m *landIndex) buildRows(starts []int) {
	type cross struct {
		r int32
		x float64
	}
	var xs []cross
	m.edges(starts, func(i uint32, _ bool) {
		x1, x2 := float64(m.lon[i]), float64(m.lon[i+1])
		y1, y2 := float64(m.lat[i]), float64(m.lat[i+1])
		if y1 == y2 {
			return
		}
		r0, _ := landCell(min(y1, y2), 0)
		r1, _ := landCell(max(y1, y2), 0)
		for r := max(0, r0-1); r <= min(landRows-1, r1+1); r++ {
			yc := landRowY(r)
			if (y1 > yc) != (y2 > yc) {
				xs = append(xs, cross{int32(r), x1 + (yc-y1)*(x2-x1)/(y2-y1)})
			}
		}
	})
	slices.SortFunc(xs, func(a, b cross) int {
		if a.r != b.r {
			return int(a.r - b.r)
		}
		switch {
		case a.x < b.x:
			return -1
		case a.x > b.x:
			return 1
		}
		return 0
	})
	m.rowStart = make([]uint32, landRows+1)
	m.rowX = make([]float64, len(xs))
	for k, c := range xs {
		m.rowX[k] = c.x
		m.rowStart[c.r+1]++
	}
	for r := 1; r <= landRows; r++ {
		m.rowStart[r] += m.rowStart[r-1]
	}
}

// buildShore fills the tables of the distance search.
func (m *landIndex) buildShore() {
	for r := range landRows {
		m.rowSin[r], m.rowCos[r] = math.Sincos(landRowY(r) * degToRad)
		m.cellRho[r] = rectRadius(-90+float64(r)*landCellDeg, landCellDeg, landCellDeg)
	}
	for c := range landCols {
		m.colSin[c], m.colCos[c] = math.Sincos((-180 + (float64(c)+0.5)*landCellDeg) * degToRad)
	}
	const bdeg = landCellDeg * landBlock
	for b := range landBRows {
		m.bRowSin[b], m.bRowCos[b] = math.Sincos((-90 + (float64(b)+0.5)*bdeg) * degToRad)
		m.blockRho[b] = rectRadius(-90+float64(b)*bdeg, bdeg, bdeg)
	}
	for b := range landBCols {
		m.bColSin[b], m.bColCos[b] = math.Sincos((-180 + (float64(b)+0.5)*bdeg) * degToRad)
	}
	// Seeds: breadth-first from the coast blocks over the 8-neighbour block
	// grid (wrapping in longitude), then each block keeps the nearest of its
	// own and its neighbours' seeds. Only an upper bound comes of it.
	n := landBRows * landBCols
	m.seed = make([]int32, n)
	queue := make([]int32, 0, n)
	for k := range n {
		m.seed[k] = -1
		if m.coastBlock[k] {
			m.seed[k] = int32(k)
			queue = append(queue, int32(k))
		}
	}
	neighbours := func(k int, fn func(int)) {
		b, c := k/landBCols, k%landBCols
		for db := -1; db <= 1; db++ {
			for dc := -1; dc <= 1; dc++ {
				if nb := b + db; (db != 0 || dc != 0) && nb >= 0 && nb < landBRows {
					fn(nb*landBCols + (c+dc+landBCols)%landBCols)
				}
			}
		}
	}
	for i := 0; i < len(queue); i++ {
		k := int(queue[i])
		neighbours(k, func(o int) {
			if m.seed[o] < 0 {
				m.seed[o] = m.seed[k]
				queue = append(queue, int32(o))
			}
		})
	}
	dist := func(k, s int) float64 {
		ax, ay, az := m.blockCentre(k/landBCols, k%landBCols)
		bx, by, bz := m.blockCentre(s/landBCols, s%landBCols)
		return angleBetween(ax, ay, az, bx, by, bz) + m.blockRho[s/landBCols]
	}
	for range 2 {
		for k := range n {
			best, bd := m.seed[k], dist(k, int(m.seed[k]))
			neighbours(k, func(o int) {
				if d := dist(k, int(m.seed[o])); d < bd {
					best, bd = m.seed[o], d
				}
			})
			m.seed[k] = best
		}
	}
}

// blockCentre is the unit vector of the centre of block (b, c).
func (m *landIndex) blockCentre(b, c int) (x, y, z float64) {
	return m.bRowCos[b] * m.bColCos[c], m.bRowCos[b] * m.bColSin[c], m.bRowSin[b]
}

// rectRadius is the largest angle in radians from the centre of a
// latitude/longitude rectangle (south edge lat0, sides in degrees) to a point
// of its boundary, found by sampling, with a margin for the sampling and for
// the float32 vertices.
func rectRadius(lat0, dLat, dLon float64) float64 {
	cx, cy, cz := unitVec(lat0+dLat/2, 0)
	var r float64
	const n = 64
	for i := 0; i <= n; i++ {
		f := float64(i) / n
		for _, p := range [4][2]float64{
			{lat0, (f - 0.5) * dLon}, {lat0 + dLat, (f - 0.5) * dLon},
			{lat0 + f*dLat, -dLon / 2}, {lat0 + f*dLat, dLon / 2},
		} {
			x, y, z := unitVec(max(-90, min(90, p[0])), p[1])
			r = max(r, angleBetween(cx, cy, cz, x, y, z))
		}
	}
	return r*1.001 + 1e-5
}

// bytes is the memory held by the index.
func (m *landIndex) bytes() int {
	return 4*(len(m.lon)+len(m.lat)+len(m.xyz)+len(m.cellStart)+len(m.cellEdge)+len(m.rowStart)) +
		8*(len(m.coastCell)+len(m.rowX)+len(m.ringStart)) + len(m.coastBlock) + 4*len(m.seed) +
		8*(4*landRows+2*landCols+3*landBRows+2*landBCols)
}

// unitVec is the unit vector of a latitude/longitude in degrees.
func unitVec(lat, lon float64) (x, y, z float64) {
	sl, cl := math.Sincos(lat * degToRad)
	so, co := math.Sincos(lon * degToRad)
	return cl * co, cl * so, sl
}
