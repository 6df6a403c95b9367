package sim

import (
	"sync"

	"overwatch/maritime/sealane"
)

// routeCache keeps the sea-lane routes between ports.
type routeCache struct {
	mu     sync.Mutex
	routes map[[2]string]sealane.Route
}

func newRouteCache() *routeCache { return &routeCache{routes: map[[2]string]sealane.Route{}} }

func (c *routeCache) get(from, to string) (sealane.Route, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := [2]string{from, to}
	if r, ok := c.routes[k]; ok {
		return r, nil
	}
	r, err := sealane.Between(from, to)
	if err != nil {
		return r, err
	}
	c.routes[k] = r
	return r, nil
}

// distanceNM is the sea-lane distance between two ports, or 0 when there is
// no route.
func (c *routeCache) distanceNM(from, to string) float64 {
	if from == "" || from == to {
		return 0
	}
	r, err := c.get(from, to)
	if err != nil {
		return 0
	}
	return r.DistanceNM
}
