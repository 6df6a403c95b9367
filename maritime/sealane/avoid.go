package sealane

import (
	"fmt"

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
	path, arcs, err := g.shortest(src, dst, avoid)
	if err != nil {
		return Route{}, fmt.Errorf("sea route %s-%s avoiding %v: %w", from, to, avoid, err)
	}
	return g.densify(from, to, path, arcs).route, nil
}
