package geo

import "math"

// The one-degree grid the area presence summary is kept by: row
// floor(lat)+90 (0 to 179), column floor(lon)+180 (0 to 359), each cell the
// half-open square [lat, lat+1) × [lon, lon+1), but for the last row and
// column, which hold their upper edge too (latitude 90, longitude 180): a
// box reaching 90°N or 180°E has no border cell there.

// GridRows and GridCols are the grid's row and column counts.
const (
	GridRows = 180
	GridCols = 360
)

// CellOf is the grid row and column of a point.
func CellOf(lat, lon float64) (row, col int) {
	return min(int(math.Floor(lat))+90, GridRows-1), min(int(math.Floor(lon))+180, GridCols-1)
}

// CellRange is a rectangle of grid cells, rows Row0 to Row1 and columns
// Col0 to Col1, both inclusive.
type CellRange struct {
	Row0, Row1, Col0, Col1 int
}

// GridCells are the cells the box touches (outer: every point of the box
// lies in one of them) and the cells wholly inside it (inner: every point
// of them lies in the box), each as rectangles.
func (b BBox) GridCells() (outer, inner []CellRange) {
	spans := [][2]float64{{b.West, b.East}}
	if b.CrossesAntimeridian() {
		spans = [][2]float64{{b.West, 180}, {-180, b.East}}
	}
	r0, _ := CellOf(b.South, 0)
	r1, _ := CellOf(b.North, 0)
	ir0, ir1 := innerCells(b.South, b.North, 90)
	for _, s := range spans {
		_, c0 := CellOf(0, s[0])
		_, c1 := CellOf(0, s[1])
		outer = append(outer, CellRange{r0, r1, c0, c1})
		ic0, ic1 := innerCells(s[0], s[1], 180)
		if ir0 <= ir1 && ic0 <= ic1 {
			inner = append(inner, CellRange{ir0, ir1, ic0, ic1})
		}
	}
	return outer, inner
}

// innerCells are the first and last cells (offset by off: 90 for rows, 180
// for columns) wholly within [lo, hi]: cell x spans [x, x+1), the last one
// (x+1 = off) [x, x+1].
func innerCells(lo, hi float64, off int) (first, last int) {
	return int(math.Ceil(lo)) + off, int(math.Floor(hi)) - 1 + off
}

// cellMargin is how far (degrees) a polygon's edge must stay from a cell
// for the cell to count as inside: a point near an edge may fall either
// way in the store's own point-in-polygon test.
const cellMargin = 1e-6

// GridCells are the cells the polygon's bounds touch (outer) and the
// cells wholly inside the polygon, farther than a micro-degree from every
// edge of its rings (inner), each as rectangles. Cost: a row of cells for
// each degree an edge spans in latitude, plus the bounds' cells.
func (p Polygon) GridCells() (outer, inner []CellRange) {
	if len(p) == 0 {
		return nil, nil
	}
	b := p.Bounds()
	outer, _ = b.GridCells()
	r0, c0 := CellOf(b.South, b.West)
	r1, c1 := CellOf(b.North, b.East)
	w := c1 - c0 + 1
	touched := make([]bool, (r1-r0+1)*w)
	for _, ring := range p {
		for i := 0; i+1 < len(ring); i++ {
			markEdge(touched, r0, r1, c0, c1, ring[i], ring[i+1])
		}
	}
	in := make([]bool, len(touched))
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			k := (r-r0)*w + c - c0
			// No edge comes near the cell: it lies wholly on one side,
			// the side of its centre.
			in[k] = !touched[k] && p.Contains(float64(r-90)+0.5, float64(c-180)+0.5)
		}
	}
	return outer, rectangles(in, r0, c0, w)
}

// markEdge marks the cells an edge from a to b ([lon, lat]) passes within
// cellMargin of.
func markEdge(touched []bool, r0, r1, c0, c1 int, a, b [2]float64) {
	w := c1 - c0 + 1
	lo, hi := math.Min(a[1], b[1])-cellMargin, math.Max(a[1], b[1])+cellMargin
	for r := max(r0, int(math.Floor(lo))+90); r <= min(r1, int(math.Floor(hi))+90); r++ {
		// The edge's longitudes within the row's band, widened by the
		// margin.
		y0, y1 := math.Max(lo, float64(r-90)-cellMargin), math.Min(hi, float64(r-90+1)+cellMargin)
		x0, x1 := lonAt(a, b, y0), lonAt(a, b, y1)
		if x0 > x1 {
			x0, x1 = x1, x0
		}
		for c := max(c0, int(math.Floor(x0-cellMargin))+180); c <= min(c1, int(math.Floor(x1+cellMargin))+180); c++ {
			touched[(r-r0)*w+c-c0] = true
		}
	}
}

// lonAt is the longitude of the edge from a to b at latitude y, clamped
// to the edge (a horizontal edge: its whole span is taken by the caller's
// two ends).
func lonAt(a, b [2]float64, y float64) float64 {
	if a[1] == b[1] {
		if y <= a[1] {
			return math.Min(a[0], b[0])
		}
		return math.Max(a[0], b[0])
	}
	t := (y - a[1]) / (b[1] - a[1])
	t = math.Max(0, math.Min(1, t))
	return a[0] + t*(b[0]-a[0])
}

// rectangles merges marked cells (rows of width w from row r0 and column
// c0) into rectangles: runs of each row, then equal runs of adjacent rows.
func rectangles(in []bool, r0, c0, w int) []CellRange {
	var out []CellRange
	open := map[[2]int]int{} // run (col0, col1) of the previous row → index in out
	for r := 0; r*w < len(in); r++ {
		next := map[[2]int]int{}
		for c := 0; c < w; c++ {
			if !in[r*w+c] {
				continue
			}
			e := c
			for e+1 < w && in[r*w+e+1] {
				e++
			}
			run := [2]int{c, e}
			if i, ok := open[run]; ok {
				out[i].Row1 = r0 + r
				next[run] = i
			} else {
				out = append(out, CellRange{r0 + r, r0 + r, c0 + c, c0 + e})
				next[run] = len(out) - 1
			}
			c = e
		}
		open = next
	}
	return out
}

// Border are the cells of outer that are not in inner, as rectangles.
func Border(outer, inner []CellRange) []CellRange {
	if len(outer) == 0 {
		return nil
	}
	r0, r1, c0, c1 := outer[0].Row0, outer[0].Row1, outer[0].Col0, outer[0].Col1
	for _, o := range outer[1:] {
		r0, r1, c0, c1 = min(r0, o.Row0), max(r1, o.Row1), min(c0, o.Col0), max(c1, o.Col1)
	}
	w := c1 - c0 + 1
	cells := make([]bool, (r1-r0+1)*w)
	mark := func(rs []CellRange, v bool) {
		for _, x := range rs {
			for r := max(x.Row0, r0); r <= min(x.Row1, r1); r++ {
				for c := max(x.Col0, c0); c <= min(x.Col1, c1); c++ {
					cells[(r-r0)*w+c-c0] = v
				}
			}
		}
	}
	mark(outer, true)
	mark(inner, false)
	return rectangles(cells, r0, c0, w)
}
