package sealane

import (
	"container/heap"
	"errors"
	"math"
	"slices"

	"overwatch"
)

// BetweenAvoiding is the sea route between two reference ports that
// passes none of the straits, canals or capes named in avoid (their names
// as in Route.Via, such as "Suez Canal"): the way round a closed passage.
// It is a NotFound error when either port is unknown, an error when no
// such route exists. Not cached: the simulator asks it once per leg pair.
func BetweenAvoiding(from, to string, avoid []string) (Route, error) {
	g, err := loadLanes()
	if err != nil {
		return Route{}, err
	}
	src, ok1 := g.anchor[from]
	dst, ok2 := g.anchor[to]
	if !ok1 || !ok2 {
		return Route{}, overwatch.Errorf(overwatch.NotFound, "sea route: unknown port %s or %s", from, to)
	}
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
			n := g.nodes[a.to]
			if (n.Kind == "anchorage" && a.to != dst) || slices.Contains(avoid, n.Name) {
				continue
			}
			if d := it.d + a.distKM; d < dist[a.to] {
				dist[a.to], prev[a.to], prevArc[a.to] = d, it.n, a
				heap.Push(pq, laneItem{a.to, d})
			}
		}
	}
	if math.IsInf(dist[dst], 1) {
		return Route{}, errors.New("sea route: no path avoiding the passages named")
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
	return g.densify(from, to, path, arcs).route, nil
}
