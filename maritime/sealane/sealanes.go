package sealane

import (
	"container/heap"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"overwatch"
	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
)

// The sea-lane graph (sealanes.json): nodes at straits, canals, capes, open
// ocean points and one approach per reference port, joined by undirected
// edges whose great circles stay at sea on the land mask (OnLand), so that a
// voyage between any two reference ports follows the usual shipping routes:
// Dover, Gibraltar, the Turkish Straits, Suez, Bab-el-Mandeb, Hormuz,
// Malacca and Singapore, Sunda and Lombok, the Korea and Taiwan Straits,
// Torres Strait, Panama, the Capes of Good Hope, Horn and Leeuwin, and the
// North Pacific south of the Aleutians. An edge may carry shape points for
// a channel that bends between two nodes. Each approach node is linked to
// its port's first anchorage, named by its zone ID ("<slug>-anch-1"), and
// lies outside the port's area.
//
// Two kinds of edge may cross land on the mask, and are marked so: canal
// edges (Suez, Panama), which the 1:10m land has closed, and river edges,
// up the fairways of the river ports whose anchorages lie up a river (New
// Orleans up the Mississippi from the Southwest Pass, Rosario up the Paraná
// de las Palmas and the Paraná from the Río de la Plata). The mask draws
// rivers as land, so these ports' anchorages are themselves on land; their
// river nodes follow the fairway at the mask's scale only roughly. Newcastle
// (Australia), also a river port, has its anchorages at sea and needs no
// river edge.

//go:embed sealanes.json
var seaLanesJSON []byte

// Kinds of sea-lane nodes. River nodes are waypoints on a river port's
// fairway.
const (
	LaneStrait   = "strait"
	LaneCanal    = "canal"
	LaneCape     = "cape"
	LaneOcean    = "ocean"
	LaneApproach = "approach"
	LaneRiver    = "river"
)

// Route is a voyage between two reference ports along the sea lanes,
// from the origin's first anchorage to the destination's first anchorage.
// Points are latitude/longitude pairs in degrees, at most 25 km apart along
// great circles; DistanceNM is the length of that polyline in nautical
// miles; Via names the straits, canals and capes passed, in order.
type Route struct {
	From, To   string
	Points     [][2]float64
	DistanceNM float64
	Via        []string
}

// laneNode is a node of sealanes.json.
type laneNode struct {
	ID   string  `json:"id"`
	Name string  `json:"name"`
	Lat  float64 `json:"lat"`
	Lon  float64 `json:"lon"`
	Kind string  `json:"kind"`
	Port string  `json:"port,omitempty"` // approach nodes: the port's slug
}

// laneEdge is an undirected edge of sealanes.json. Path lists shape points
// between the two nodes, for channels and rivers that bend between nodes
// (which stay at least 5 km apart); the edge is the chain of great circles
// through them.
type laneEdge struct {
	From  string       `json:"from"`
	To    string       `json:"to"`
	Canal bool         `json:"canal,omitempty"`
	River bool         `json:"river,omitempty"`
	Path  [][2]float64 `json:"path,omitempty"`
}

// laneGraph is the loaded graph: nodes by index (with each port's first
// anchorage appended as a node of kind "anchorage"), adjacency lists, and
// each port's anchorage and approach nodes.
type laneGraph struct {
	nodes    []laneNode
	byID     map[string]int
	adj      [][]laneArc
	edges    []laneEdge
	anchor   map[string]int // port slug -> its first anchorage's node
	approach map[string]int // port slug -> its approach node
}

type laneArc struct {
	to     int
	distKM float64
	exempt bool         // a canal or river edge: may cross land on the mask
	pts    [][2]float64 // from this node to the other, both ends included
}

// routeLeg is a route with, per segment of Points, whether the segment lies
// on a canal or river edge.
type routeLeg struct {
	route  Route
	exempt []bool
}

const (
	maxRouteStepKM = 25
	kmPerNM        = 1.852
	degToRad       = math.Pi / 180
)

var (
	loadLanes = sync.OnceValues(func() (*laneGraph, error) { return parseLanes(seaLanesJSON, seaport.All()) })
	routeMu   sync.Mutex
	routeMemo = map[[2]string]*routeLeg{}
)

// parseLanes reads and checks the graph, and links each port's first
// anchorage into it.
func parseLanes(raw []byte, ports []seaport.Port) (*laneGraph, error) {
	var f struct {
		Nodes []laneNode `json:"nodes"`
		Edges []laneEdge `json:"edges"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("sealanes.json: %w", err)
	}
	g := &laneGraph{byID: map[string]int{}, anchor: map[string]int{}, approach: map[string]int{}}
	add := func(n laneNode) error {
		if _, dup := g.byID[n.ID]; dup || n.ID == "" {
			return fmt.Errorf("sealanes.json: node id %q empty or repeated", n.ID)
		}
		g.byID[n.ID] = len(g.nodes)
		g.nodes = append(g.nodes, n)
		return nil
	}
	for _, n := range f.Nodes {
		switch n.Kind {
		case LaneStrait, LaneCanal, LaneCape, LaneOcean, LaneRiver:
		case LaneApproach:
			if _, ok := g.approach[n.Port]; ok {
				return nil, fmt.Errorf("sealanes.json: port %q has two approach nodes", n.Port)
			}
			g.approach[n.Port] = len(g.nodes)
		default:
			return nil, fmt.Errorf("sealanes.json: node %s: unknown kind %q", n.ID, n.Kind)
		}
		if n.Name == "" || math.Abs(n.Lat) > 90 || math.Abs(n.Lon) > 180 {
			return nil, fmt.Errorf("sealanes.json: node %s: no name or position out of range", n.ID)
		}
		if err := add(n); err != nil {
			return nil, err
		}
	}
	for _, p := range ports {
		if _, ok := g.approach[p.Slug]; !ok {
			return nil, fmt.Errorf("sealanes.json: port %s has no approach node", p.Slug)
		}
		if len(p.Anchorages) == 0 {
			return nil, fmt.Errorf("port %s has no anchorage", p.Slug)
		}
		a := p.Anchorages[0]
		g.anchor[p.Slug] = len(g.nodes)
		if err := add(laneNode{ID: a.ID, Name: a.Name, Lat: a.Lat, Lon: a.Lon, Kind: "anchorage", Port: p.Slug}); err != nil {
			return nil, err
		}
	}
	if len(g.approach) != len(ports) {
		return nil, fmt.Errorf("sealanes.json: %d approach nodes for %d ports", len(g.approach), len(ports))
	}
	g.adj = make([][]laneArc, len(g.nodes))
	seen := map[[2]int]bool{}
	for _, e := range f.Edges {
		u, ok1 := g.byID[e.From]
		v, ok2 := g.byID[e.To]
		if !ok1 || !ok2 || u == v {
			return nil, fmt.Errorf("sealanes.json: edge %s-%s: unknown or identical ends", e.From, e.To)
		}
		if e.Canal && e.River {
			return nil, fmt.Errorf("sealanes.json: edge %s-%s: both canal and river", e.From, e.To)
		}
		k := [2]int{min(u, v), max(u, v)}
		if seen[k] {
			return nil, fmt.Errorf("sealanes.json: edge %s-%s twice", e.From, e.To)
		}
		seen[k] = true
		a, b := g.nodes[u], g.nodes[v]
		pts := append(append([][2]float64{{a.Lat, a.Lon}}, e.Path...), [2]float64{b.Lat, b.Lon})
		back := make([][2]float64, len(pts))
		var d float64
		for i, p := range pts {
			back[len(pts)-1-i] = p
			if i > 0 {
				d += geo.DistanceKM(pts[i-1][0], pts[i-1][1], p[0], p[1])
			}
		}
		x := e.Canal || e.River
		g.adj[u] = append(g.adj[u], laneArc{v, d, x, pts})
		g.adj[v] = append(g.adj[v], laneArc{u, d, x, back})
		g.edges = append(g.edges, e)
	}
	// Each approach reaches its port's first anchorage directly or, for a
	// river port, along a chain of river nodes.
	for slug, ap := range g.approach {
		if !g.linked(ap, g.anchor[slug]) {
			return nil, fmt.Errorf("sealanes.json: approach %s is not linked to %s", g.nodes[ap].ID, g.nodes[g.anchor[slug]].ID)
		}
	}
	return g, nil
}

// linked reports whether the anchorage is a neighbour of the approach or is
// reached from it through river nodes only.
func (g *laneGraph) linked(approach, anchorage int) bool {
	seen := map[int]bool{approach: true}
	queue := []int{approach}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, a := range g.adj[u] {
			if a.to == anchorage {
				return true
			}
			if !seen[a.to] && g.nodes[a.to].Kind == LaneRiver {
				seen[a.to] = true
				queue = append(queue, a.to)
			}
		}
	}
	return false
}

// Between is the sea route between two reference ports, by slug (an unknown
// slug is a NotFound error): the shortest path on the sea-lane graph
// (Dijkstra on great-circle distance) from the origin's first anchorage to
// the destination's, densified so that consecutive points are at most 25 km
// apart along great circles. Routes are computed once and cached; each call
// returns its own copy. A route from a port to itself is its anchorage alone.
func Between(from, to string) (Route, error) {
	r, err := seaRoute(from, to)
	if err != nil {
		return Route{}, err
	}
	out := r.route
	out.Points = slices.Clone(out.Points)
	out.Via = slices.Clone(out.Via)
	return out, nil
}

// DistanceNM is the length in nautical miles of Route(from, to).
func DistanceNM(from, to string) (float64, error) {
	r, err := seaRoute(from, to)
	if err != nil {
		return 0, err
	}
	return r.route.DistanceNM, nil
}

func seaRoute(from, to string) (*routeLeg, error) {
	g, err := loadLanes()
	if err != nil {
		return nil, err
	}
	src, ok1 := g.anchor[from]
	dst, ok2 := g.anchor[to]
	if !ok1 || !ok2 {
		var bad []string
		if !ok1 {
			bad = append(bad, from)
		}
		if !ok2 {
			bad = append(bad, to)
		}
		return nil, overwatch.Errorf(overwatch.NotFound, "sea route: unknown port %s", strings.Join(bad, ", "))
	}
	key := [2]string{from, to}
	routeMu.Lock()
	defer routeMu.Unlock()
	if r, ok := routeMemo[key]; ok {
		return r, nil
	}
	path, arcs, err := g.shortest(src, dst, nil)
	if err != nil {
		return nil, fmt.Errorf("sea route %s-%s: %w", from, to, err)
	}
	r := g.densify(from, to, path, arcs)
	routeMemo[key] = r
	return r, nil
}

// shortest is Dijkstra from src to dst, through none of the nodes named
// in avoid: the node path and the arcs taken.
func (g *laneGraph) shortest(src, dst int, avoid []string) ([]int, []laneArc, error) {
	dist := make([]float64, len(g.nodes))
	prev := make([]int, len(g.nodes))
	prevArc := make([]laneArc, len(g.nodes))
	for i := range dist {
		dist[i], prev[i] = math.Inf(1), -1
	}
	dist[src] = 0
	pq := &laneQueue{{src, 0}}
	for pq.Len() > 0 {
		it := heap.Pop(pq).(laneItem)
		if it.d > dist[it.n] {
			continue
		}
		if it.n == dst {
			break
		}
		for _, a := range g.adj[it.n] {
			// Anchorages are ends only: a route never passes through
			// another port's anchorage.
			if n := g.nodes[a.to]; (n.Kind == "anchorage" && a.to != dst) || slices.Contains(avoid, n.Name) {
				continue
			}
			if d := it.d + a.distKM; d < dist[a.to] {
				dist[a.to], prev[a.to], prevArc[a.to] = d, it.n, a
				heap.Push(pq, laneItem{a.to, d})
			}
		}
	}
	if math.IsInf(dist[dst], 1) {
		return nil, nil, errors.New("no path on the sea-lane graph")
	}
	var path []int
	var arcs []laneArc
	for n := dst; n != -1; n = prev[n] {
		path = append(path, n)
		if n != src {
			arcs = append(arcs, prevArc[n])
		}
	}
	slices.Reverse(path)
	slices.Reverse(arcs)
	return path, arcs, nil
}

// densify turns a node path and its arcs into a route.
func (g *laneGraph) densify(from, to string, path []int, arcs []laneArc) *routeLeg {
	first := g.nodes[path[0]]
	r := &routeLeg{route: Route{From: from, To: to, Points: [][2]float64{{first.Lat, first.Lon}}, Via: []string{}}}
	var km float64
	for i, arc := range arcs {
		for j := 1; j < len(arc.pts); j++ {
			a, b := arc.pts[j-1], arc.pts[j]
			n := max(1, int(math.Ceil(geo.DistanceKM(a[0], a[1], b[0], b[1])/maxRouteStepKM)))
			for k := 1; k <= n; k++ {
				p := b
				if k < n {
					p[0], p[1] = geo.Intermediate(a[0], a[1], b[0], b[1], float64(k)/float64(n))
				}
				prev := r.route.Points[len(r.route.Points)-1]
				km += geo.DistanceKM(prev[0], prev[1], p[0], p[1])
				r.route.Points = append(r.route.Points, p)
				r.exempt = append(r.exempt, arc.exempt)
			}
		}
		switch b := g.nodes[path[i+1]]; b.Kind {
		case LaneStrait, LaneCanal, LaneCape:
			if v := r.route.Via; len(v) == 0 || v[len(v)-1] != b.Name {
				r.route.Via = append(r.route.Via, b.Name)
			}
		}
	}
	r.route.DistanceNM = km / kmPerNM
	return r
}

// initialBearing is the initial great-circle course from one point to
// another, in degrees clockwise from north, [0, 360).
func initialBearing(lat1, lon1, lat2, lon2 float64) float64 {
	p1, p2 := lat1*degToRad, lat2*degToRad
	dl := (lon2 - lon1) * degToRad
	y := math.Sin(dl) * math.Cos(p2)
	x := math.Cos(p1)*math.Sin(p2) - math.Sin(p1)*math.Cos(p2)*math.Cos(dl)
	b := math.Mod(math.Atan2(y, x)/degToRad+360, 360)
	if b >= 360 {
		b = 0
	}
	return b
}

// PositionAt is the point at a distance in nautical miles along the route
// from its start, with the great-circle course there (degrees clockwise
// from north). Distances before the start or past the end give the start
// or the end, with the course of the first or last segment; a route of one
// point gives that point and course 0.
func (r Route) PositionAt(distNM float64) (lat, lon, courseDeg float64) {
	pts := r.Points
	switch len(pts) {
	case 0:
		return 0, 0, 0
	case 1:
		return pts[0][0], pts[0][1], 0
	}
	left := max(0, distNM*kmPerNM)
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		seg := geo.DistanceKM(a[0], a[1], b[0], b[1])
		if left <= seg || i == len(pts)-1 {
			if seg == 0 {
				return b[0], b[1], 0
			}
			f := min(1, left/seg)
			if f >= 1 {
				// At the end of the segment: the course of arrival.
				back := initialBearing(b[0], b[1], a[0], a[1])
				return b[0], b[1], math.Mod(back+180, 360)
			}
			lat, lon = geo.Intermediate(a[0], a[1], b[0], b[1], f)
			return lat, lon, initialBearing(lat, lon, b[0], b[1])
		}
		left -= seg
	}
	return pts[len(pts)-1][0], pts[len(pts)-1][1], 0
}

// laneQueue is the priority queue of Dijkstra's search.
type laneQueue []laneItem

type laneItem struct {
	n int
	d float64
}

func (q laneQueue) Len() int           { return len(q) }
func (q laneQueue) Less(i, j int) bool { return q[i].d < q[j].d }
func (q laneQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *laneQueue) Push(x any)        { *q = append(*q, x.(laneItem)) }
func (q *laneQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
