package sim

import (
	"container/heap"
	"math"
	"sync"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
)

// harbourPaths finds ways over water inside a port area, between its
// anchorages, its berth zones and the start of its sea lane, so that no
// track crosses land on the map. It searches a grid of about 300 m cells
// over the area with A*; land is passable only near the end points, since
// the land mask puts some real quays just inland (up to 1.5 km). Paths are
// simplified and cached per pair of points.
type harbourPaths struct {
	mu    sync.Mutex
	cache map[[4]float64][][2]float64
}

func newHarbourPaths() *harbourPaths { return &harbourPaths{cache: map[[4]float64][][2]float64{}} }

const (
	harbourCellM = 300.0
	nearEndKM    = 1.6
)

// path returns the points of a way over water from one point to the other
// inside the area (both ends included), or the straight line when there is
// none.
func (h *harbourPaths) path(area seaport.Zone, lat1, lon1, lat2, lon2 float64) [][2]float64 {
	k := [4]float64{lat1, lon1, lat2, lon2}
	h.mu.Lock()
	if p, ok := h.cache[k]; ok {
		h.mu.Unlock()
		return p
	}
	h.mu.Unlock()
	p := findHarbourPath(area, lat1, lon1, lat2, lon2)
	h.mu.Lock()
	h.cache[k] = p
	h.mu.Unlock()
	return p
}

type harbourGrid struct {
	lat0, lon0 float64 // south-west corner
	dLat, dLon float64
	n          int // cells a side
	passable   func(lat, lon float64) bool
}

func (g *harbourGrid) center(i, j int) (float64, float64) {
	return g.lat0 + (float64(i)+0.5)*g.dLat, g.lon0 + (float64(j)+0.5)*g.dLon
}

func (g *harbourGrid) cell(lat, lon float64) (int, int) {
	return int((lat - g.lat0) / g.dLat), int((lon - g.lon0) / g.dLon)
}

func findHarbourPath(area seaport.Zone, lat1, lon1, lat2, lon2 float64) [][2]float64 {
	straight := [][2]float64{{lat1, lon1}, {lat2, lon2}}
	passable := func(lat, lon float64) bool {
		return !geo.OnLand(lat, lon) ||
			geo.DistanceKM(lat, lon, lat1, lon1) < nearEndKM || geo.DistanceKM(lat, lon, lat2, lon2) < nearEndKM
	}
	if clear(passable, lat1, lon1, lat2, lon2) {
		return straight
	}
	radius := area.RadiusKM + 3
	g := &harbourGrid{dLat: harbourCellM / 111320, passable: passable}
	g.dLon = g.dLat / math.Max(0.05, math.Cos(area.Lat*math.Pi/180))
	g.n = int(2*radius*1000/harbourCellM) + 1
	g.lat0 = area.Lat - float64(g.n)/2*g.dLat
	g.lon0 = area.Lon - float64(g.n)/2*g.dLon
	si, sj := g.cell(lat1, lon1)
	ti, tj := g.cell(lat2, lon2)
	if si < 0 || sj < 0 || ti < 0 || tj < 0 || si >= g.n || sj >= g.n || ti >= g.n || tj >= g.n {
		return straight
	}
	cells := g.astar(si, sj, ti, tj)
	if cells == nil {
		return straight
	}
	pts := [][2]float64{{lat1, lon1}}
	for _, c := range cells[1 : len(cells)-1] {
		lat, lon := g.center(c[0], c[1])
		pts = append(pts, [2]float64{lat, lon})
	}
	pts = append(pts, [2]float64{lat2, lon2})
	return simplify(pts, passable)
}

// clear reports whether the straight line between two points stays on
// passable ground, sampled every 100 m.
func clear(passable func(lat, lon float64) bool, lat1, lon1, lat2, lon2 float64) bool {
	d := geo.DistanceKM(lat1, lon1, lat2, lon2)
	n := int(d*10) + 1
	for i := 0; i <= n; i++ {
		f := float64(i) / float64(n)
		if !passable(lat1+f*(lat2-lat1), lon1+f*(lon2-lon1)) {
			return false
		}
	}
	return true
}

// simplify drops the points a straight line can skip.
func simplify(pts [][2]float64, passable func(lat, lon float64) bool) [][2]float64 {
	out := [][2]float64{pts[0]}
	i := 0
	for i < len(pts)-1 {
		j := len(pts) - 1
		for j > i+1 && !clear(passable, pts[i][0], pts[i][1], pts[j][0], pts[j][1]) {
			j--
		}
		out = append(out, pts[j])
		i = j
	}
	return out
}

type gridItem struct {
	i, j int
	f    float64
}

type gridQueue []gridItem

func (q gridQueue) Len() int           { return len(q) }
func (q gridQueue) Less(a, b int) bool { return q[a].f < q[b].f }
func (q gridQueue) Swap(a, b int)      { q[a], q[b] = q[b], q[a] }
func (q *gridQueue) Push(x any)        { *q = append(*q, x.(gridItem)) }
func (q *gridQueue) Pop() any          { o := *q; it := o[len(o)-1]; *q = o[:len(o)-1]; return it }

// astar searches 8-connected passable cells from (si, sj) to (ti, tj).
func (g *harbourGrid) astar(si, sj, ti, tj int) [][2]int {
	n := g.n
	idx := func(i, j int) int { return i*n + j }
	cost := make([]float64, n*n)
	from := make([]int32, n*n)
	known := make([]int8, n*n) // 0 unknown, 1 passable, 2 blocked
	for k := range cost {
		cost[k] = math.Inf(1)
		from[k] = -1
	}
	pass := func(i, j int) bool {
		k := idx(i, j)
		if known[k] == 0 {
			known[k] = 2
			if lat, lon := g.center(i, j); g.passable(lat, lon) {
				known[k] = 1
			}
		}
		return known[k] == 1
	}
	h := func(i, j int) float64 { return math.Hypot(float64(i-ti), float64(j-tj)) }
	q := &gridQueue{{si, sj, h(si, sj)}}
	cost[idx(si, sj)] = 0
	for q.Len() > 0 {
		it := heap.Pop(q).(gridItem)
		if it.i == ti && it.j == tj {
			var cells [][2]int
			for k := idx(ti, tj); k >= 0; k = int(from[k]) {
				cells = append([][2]int{{k / n, k % n}}, cells...)
			}
			return cells
		}
		c := cost[idx(it.i, it.j)]
		for di := -1; di <= 1; di++ {
			for dj := -1; dj <= 1; dj++ {
				i, j := it.i+di, it.j+dj
				if (di == 0 && dj == 0) || i < 0 || j < 0 || i >= n || j >= n {
					continue
				}
				if !(i == ti && j == tj) && !pass(i, j) {
					continue
				}
				nc := c + math.Hypot(float64(di), float64(dj))
				if k := idx(i, j); nc < cost[k] {
					cost[k], from[k] = nc, int32(idx(it.i, it.j))
					heap.Push(q, gridItem{i, j, nc + h(i, j)})
				}
			}
		}
	}
	return nil
}
