package sealane

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"overwatch"
	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
)

// seaLaneGraph loads the embedded graph or fails the test.
func seaLaneGraph(t *testing.T) *laneGraph {
	t.Helper()
	g, err := loadLanes()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// firstLandKM samples the great circle between two points every <= 1 km
// and returns the distance from the first point of the first sample on
// land, or -1.
func firstLandKM(a, b [2]float64) float64 {
	d := geo.DistanceKM(a[0], a[1], b[0], b[1])
	n := max(1, int(math.Ceil(d)))
	for k := 0; k <= n; k++ {
		f := float64(k) / float64(n)
		lat, lon := geo.Intermediate(a[0], a[1], b[0], b[1], f)
		if geo.OnLand(lat, lon) {
			return f * d
		}
	}
	return -1
}

func TestSeaLanesGraph(t *testing.T) {
	t.Parallel()
	g := seaLaneGraph(t)
	if len(g.nodes) < 200 || len(g.edges) < 300 {
		t.Errorf("graph has %d nodes and %d edges; expected a global network", len(g.nodes), len(g.edges))
	}
	// Connected.
	seen := make([]bool, len(g.nodes))
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, a := range g.adj[u] {
			if !seen[a.to] {
				seen[a.to] = true
				stack = append(stack, a.to)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Errorf("node %s is not connected to %s", g.nodes[i].ID, g.nodes[0].ID)
		}
	}
	for i, a := range g.nodes {
		// No two nodes (anchorages included) closer than 5 km.
		for _, b := range g.nodes[i+1:] {
			if d := geo.DistanceKM(a.Lat, a.Lon, b.Lat, b.Lon); d < 5 {
				t.Errorf("nodes %s and %s are %.1f km apart; keep them at least 5 km apart", a.ID, b.ID, d)
			}
		}
		// Nodes lie at sea, except river waypoints and the anchorages of
		// river ports, which the mask has as land.
		if geo.OnLand(a.Lat, a.Lon) && a.Kind != LaneRiver && !(a.Kind == "anchorage" && isRiverPort(a.Port)) {
			t.Errorf("node %s (%v, %v) is on land", a.ID, a.Lat, a.Lon)
		}
		if len(g.adj[i]) == 0 {
			t.Errorf("node %s has no edge", a.ID)
		}
	}
	for _, e := range g.edges {
		u, v := g.nodes[g.byID[e.From]], g.nodes[g.byID[e.To]]
		// Canal edges join canal nodes; river edges run along a river
		// port's fairway, between river nodes, its approach and its
		// anchorage.
		if e.Canal && (u.Kind != LaneCanal || v.Kind != LaneCanal) {
			t.Errorf("canal edge %s-%s joins %s and %s nodes", e.From, e.To, u.Kind, v.Kind)
		}
		if e.River {
			for _, n := range []laneNode{u, v} {
				if n.Kind != LaneRiver && !isRiverPort(n.Port) {
					t.Errorf("river edge %s-%s touches %s, which is neither a river node nor a river port's", e.From, e.To, n.ID)
				}
			}
		}
	}
}

func isRiverPort(slug string) bool {
	p, ok := seaport.BySlug(slug)
	return ok && p.River
}

// TestSeaLanesEdgesAtSea: every edge but the canal and river ones stays at
// sea on the land mask, checked exactly (CrossesLand) and by samples at
// most 1 km apart.
func TestSeaLanesEdgesAtSea(t *testing.T) {
	t.Parallel()
	g := seaLaneGraph(t)
	for u := range g.adj {
		for _, a := range g.adj[u] {
			if a.to < u || a.exempt {
				continue
			}
			for j := 1; j < len(a.pts); j++ {
				p, q := a.pts[j-1], a.pts[j]
				if geo.CrossesLand(p[0], p[1], q[0], q[1]) {
					t.Errorf("edge %s-%s: leg %v-%v crosses land (first sample on land %.1f km along)",
						g.nodes[u].ID, g.nodes[a.to].ID, p, q, firstLandKM(p, q))
				} else if km := firstLandKM(p, q); km >= 0 {
					t.Errorf("edge %s-%s: leg %v-%v has a sample on land %.1f km along", g.nodes[u].ID, g.nodes[a.to].ID, p, q, km)
				}
			}
		}
	}
}

// TestSeaLanesApproaches: one approach per port, outside the port's area,
// linked to its first anchorage at sea, or for a river port along river
// edges only.
func TestSeaLanesApproaches(t *testing.T) {
	t.Parallel()
	g := seaLaneGraph(t)
	for _, p := range seaport.All() {
		ap, ok := g.approach[p.Slug]
		if !ok {
			t.Errorf("port %s: no approach node", p.Slug)
			continue
		}
		n := g.nodes[ap]
		if p.Area.Contains(n.Lat, n.Lon) {
			t.Errorf("port %s: approach %s lies inside the port area", p.Slug, n.ID)
		}
		if geo.OnLand(n.Lat, n.Lon) {
			t.Errorf("port %s: approach %s is on land", p.Slug, n.ID)
		}
		anch := g.anchor[p.Slug]
		var direct *laneArc
		for i, a := range g.adj[ap] {
			if a.to == anch {
				direct = &g.adj[ap][i]
			}
		}
		switch {
		case direct != nil && !direct.exempt:
			for j := 1; j < len(direct.pts); j++ {
				if a, b := direct.pts[j-1], direct.pts[j]; geo.CrossesLand(a[0], a[1], b[0], b[1]) {
					t.Errorf("port %s: the link from %s to the anchorage crosses land", p.Slug, n.ID)
				}
			}
		case p.River:
			// A river port: the approach reaches the anchorage through river
			// nodes, over river edges only.
			if !g.linked(ap, anch) {
				t.Errorf("river port %s: approach %s does not reach the anchorage along the river", p.Slug, n.ID)
			}
			for _, a := range g.adj[anch] {
				if !a.exempt {
					t.Errorf("river port %s: the anchorage has a non-river edge to %s", p.Slug, g.nodes[a.to].ID)
				}
			}
		default:
			t.Errorf("port %s: approach %s has no link at sea to the anchorage", p.Slug, n.ID)
		}
	}
}

func TestSeaRouteAllPairs(t *testing.T) {
	t.Parallel()
	ports := seaport.All()
	type seg [4]float64
	checked := map[seg]bool{}
	key := func(a, b [2]float64) seg {
		r := func(x float64) float64 { return math.Round(x * 1e7) }
		k1, k2 := seg{r(a[0]), r(a[1]), r(b[0]), r(b[1])}, seg{r(b[0]), r(b[1]), r(a[0]), r(a[1])}
		if k2[0] < k1[0] || (k2[0] == k1[0] && k2[1] < k1[1]) {
			return k2
		}
		return k1
	}
	for _, p := range ports {
		for _, q := range ports {
			if p.Slug == q.Slug {
				continue
			}
			leg, err := seaRoute(p.Slug, q.Slug)
			if err != nil {
				t.Errorf("%s-%s: %v", p.Slug, q.Slug, err)
				continue
			}
			r := leg.route
			if r.From != p.Slug || r.To != q.Slug {
				t.Errorf("%s-%s: route names %s-%s", p.Slug, q.Slug, r.From, r.To)
			}
			a0, a1 := p.Anchorages[0], q.Anchorages[0]
			if r.Points[0] != [2]float64{a0.Lat, a0.Lon} || r.Points[len(r.Points)-1] != [2]float64{a1.Lat, a1.Lon} {
				t.Errorf("%s-%s: route runs %v to %v, not first anchorage to first anchorage", p.Slug, q.Slug, r.Points[0], r.Points[len(r.Points)-1])
			}
			if len(leg.exempt) != len(r.Points)-1 {
				t.Fatalf("%s-%s: %d segment flags for %d points", p.Slug, q.Slug, len(leg.exempt), len(r.Points))
			}
			var km float64
			for i := 1; i < len(r.Points); i++ {
				a, b := r.Points[i-1], r.Points[i]
				d := geo.DistanceKM(a[0], a[1], b[0], b[1])
				km += d
				if d > maxRouteStepKM+1e-6 {
					t.Errorf("%s-%s: points %d and %d are %.2f km apart", p.Slug, q.Slug, i-1, i, d)
				}
				if leg.exempt[i-1] {
					continue // a canal or river segment
				}
				k := key(a, b)
				if checked[k] {
					continue
				}
				checked[k] = true
				if l := firstLandKM(a, b); l >= 0 {
					t.Errorf("%s-%s: segment %v-%v has a sample on land %.1f km along", p.Slug, q.Slug, a, b, l)
				}
			}
			if math.Abs(km/kmPerNM-r.DistanceNM) > 1e-6*r.DistanceNM {
				t.Errorf("%s-%s: DistanceNM %.3f, polyline %.3f nm", p.Slug, q.Slug, r.DistanceNM, km/kmPerNM)
			}
			if nm, err := DistanceNM(p.Slug, q.Slug); err != nil || nm != r.DistanceNM {
				t.Errorf("%s-%s: RouteDistanceNM %v, %v; Route %v", p.Slug, q.Slug, nm, err, r.DistanceNM)
			}
			if back, err := DistanceNM(q.Slug, p.Slug); err != nil || math.Abs(back-r.DistanceNM) > 0.01 {
				t.Errorf("%s-%s: %.2f nm one way, %.2f nm back (%v)", p.Slug, q.Slug, r.DistanceNM, back, err)
			}
		}
	}
}

// Published port-to-port distances. Port-distance tables (NGA Pub. 151,
// and the calculators sea-distances.org and Netpas built on such tables)
// measure between port positions, ours between first anchorages, so a
// tolerance of ±12 % covers the difference and the coarseness of the
// graph. The figures are those given for this work, each checked against
// the great-circle distance (which a sea route can only exceed) and, where
// it disagreed, recomputed by legs.
var seaDistanceChecks = []struct {
	from, to string
	nm       float64
	via      string // a node name the route must pass, or ""
	source   string
}{
	{"rotterdam", "santos", 5300, "", "published table figure (sea-distances.org); great circle 5,270 nm"},
	{"qingdao", "santos", 11000, "Cape of Good Hope", "published figure via the Cape of Good Hope"},
	{"newcastle", "qingdao", 4600, "", "published figure (east of the Philippines); great circle 4,500 nm"},
	{"ras-laffan", "zeebrugge", 6300, "Suez Canal", "published figure via Suez (LNG trade)"},
	{"new-orleans", "qingdao", 10200, "Panama Canal", "published figure via Panama"},
	{"port-hedland", "qingdao", 3600, "", "published figure (Capesize iron-ore route); great circle 3,370 nm"},
	// The figure given, ~900 nm, is the great circle over Turkey (890 nm).
	// By sea: Novorossiysk-Bosphorus ~420, Bosphorus-Dardanelles (Sea of
	// Marmara) ~150, Dardanelles-Alexandria through the Aegean ~560.
	{"novorossiysk", "alexandria", 1130, "Bosphorus", "sum of legs (the 900 nm given is the great circle)"},
	{"seattle", "busan", 4600, "", "published figure (great circle south of the Aleutians)"},
	{"tubarao", "qingdao", 11000, "Cape of Good Hope", "published figure (Valemax route via the Cape)"},
}

func TestSeaRouteDistances(t *testing.T) {
	t.Parallel()
	for _, c := range seaDistanceChecks {
		r, err := Between(c.from, c.to)
		if err != nil {
			t.Errorf("%s-%s: %v", c.from, c.to, err)
			continue
		}
		if dev := r.DistanceNM/c.nm - 1; math.Abs(dev) > 0.12 {
			t.Errorf("%s-%s: %.0f nm, %+.1f %% off the %.0f nm of %s", c.from, c.to, r.DistanceNM, 100*dev, c.nm, c.source)
		}
		if c.via != "" && !slices.Contains(r.Via, c.via) {
			t.Errorf("%s-%s: via %v, want %s", c.from, c.to, r.Via, c.via)
		}
		t.Logf("%s-%s: %.0f nm (reference %.0f nm) via %v", c.from, c.to, r.DistanceNM, c.nm, r.Via)
	}
}

func TestSeaRouteErrorsAndSamePort(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{{"atlantis", "santos"}, {"santos", "atlantis"}, {"", ""}} {
		_, err := Between(pair[0], pair[1])
		var e *overwatch.Error
		if !errors.As(err, &e) || e.Code != overwatch.NotFound {
			t.Errorf("Route(%q, %q): %v, want a NotFound error", pair[0], pair[1], err)
		}
		if _, err := DistanceNM(pair[0], pair[1]); err == nil {
			t.Errorf("RouteDistanceNM(%q, %q): no error", pair[0], pair[1])
		}
	}
	r, err := Between("santos", "santos")
	p, _ := seaport.BySlug("santos")
	if err != nil || r.DistanceNM != 0 || len(r.Points) != 1 || r.Points[0] != [2]float64{p.Anchorages[0].Lat, p.Anchorages[0].Lon} {
		t.Errorf("Route(santos, santos) = %+v, %v; want the anchorage alone", r, err)
	}
	// Cached, and each caller gets its own copy.
	a, _ := Between("rotterdam", "santos")
	a.Points[0] = [2]float64{0, 0}
	b, _ := Between("rotterdam", "santos")
	routeMu.Lock()
	_, cached := routeMemo[[2]string{"rotterdam", "santos"}]
	routeMu.Unlock()
	if !cached || b.Points[0] == a.Points[0] {
		t.Errorf("Route: cached %v; a change to a returned route reached the cache: %v", cached, b.Points[0])
	}
}

func TestSeaRoutePositionAt(t *testing.T) {
	t.Parallel()
	// Along the equator eastwards, then north along a meridian.
	r := Route{Points: [][2]float64{{0, 0}, {0, 0.2}, {0, 0.4}, {0.2, 0.4}}}
	for i := 1; i < len(r.Points); i++ {
		a, b := r.Points[i-1], r.Points[i]
		r.DistanceNM += geo.DistanceKM(a[0], a[1], b[0], b[1]) / kmPerNM
	}
	leg := geo.DistanceKM(0, 0, 0, 0.2) / kmPerNM
	for _, c := range []struct {
		nm                 float64
		lat, lon, courseDg float64
	}{
		{-5, 0, 0, 90},
		{0, 0, 0, 90},
		{leg / 2, 0, 0.1, 90},
		{1.5 * leg, 0, 0.3, 90},
		{2*leg + leg/2, 0.1, 0.4, 0},
		{r.DistanceNM, 0.2, 0.4, 0},
		{r.DistanceNM + 100, 0.2, 0.4, 0},
	} {
		lat, lon, course := r.PositionAt(c.nm)
		if math.Abs(lat-c.lat) > 1e-6 || math.Abs(lon-c.lon) > 1e-6 || math.Abs(angleDiff(course, c.courseDg)) > 1e-3 {
			t.Errorf("PositionAt(%.3f) = %.6f, %.6f, %.3f°; want %.6f, %.6f, %.3f°", c.nm, lat, lon, course, c.lat, c.lon, c.courseDg)
		}
	}
	// A great-circle leg: the course changes along it, as it should.
	gc := Route{Points: [][2]float64{{40, -10}, {40, 10}}}
	gc.DistanceNM = geo.DistanceKM(40, -10, 40, 10) / kmPerNM
	_, _, c0 := gc.PositionAt(0)
	_, _, c1 := gc.PositionAt(gc.DistanceNM / 2)
	if !(c0 > 80 && c0 < 90) || math.Abs(c1-90) > 0.01 {
		t.Errorf("great circle 40°N 10°W-10°E: course %.2f° at the start (want 80-90), %.2f° midway (want 90)", c0, c1)
	}
	// On a real route: the start and the end, steps of at most the
	// distance asked for, and courses in [0, 360).
	real, err := Between("rotterdam", "santos")
	if err != nil {
		t.Fatal(err)
	}
	lat, lon, _ := real.PositionAt(real.DistanceNM)
	end := real.Points[len(real.Points)-1]
	if geo.DistanceKM(lat, lon, end[0], end[1]) > 1e-6 {
		t.Errorf("PositionAt(DistanceNM) = %v, %v; want the end %v", lat, lon, end)
	}
	pLat, pLon, _ := real.PositionAt(0)
	for nm := 10.0; nm <= real.DistanceNM; nm += 10 {
		lat, lon, course := real.PositionAt(nm)
		if d := geo.DistanceKM(pLat, pLon, lat, lon) / kmPerNM; d > 10+1e-6 {
			t.Fatalf("PositionAt(%v) moved %.3f nm in 10 nm of route", nm, d)
		}
		if course < 0 || course >= 360 || math.IsNaN(course) {
			t.Fatalf("PositionAt(%v): course %v", nm, course)
		}
		pLat, pLon = lat, lon
	}
}

// angleDiff is a-b in degrees, in (-180, 180].
func angleDiff(a, b float64) float64 {
	d := math.Mod(a-b+540, 360) - 180
	if d == -180 {
		d = 180
	}
	return d
}

func ExampleRoute() {
	r, err := Between("port-hedland", "qingdao")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s to %s: %.0f nm via %v\n", r.From, r.To, math.Round(r.DistanceNM/100)*100, r.Via[:2])
	// Output: port-hedland to qingdao: 3600 nm via [Lombok Strait Makassar Strait]
}

// The navigable channels are the canal and river edges, and a point on a
// channel (a canal transit, a ship up the Mississippi) is near one while
// the open sea and the land beside it are not.
func TestChannels(t *testing.T) {
	canals, rivers := 0, 0
	for _, c := range Channels() {
		if c.Canal {
			canals++
		} else {
			rivers++
		}
		if len(c.Points) < 2 {
			t.Errorf("channel %s-%s: %d points", c.From, c.To, len(c.Points))
		}
	}
	if canals != 2 || rivers < 20 {
		t.Errorf("%d canals and %d river edges", canals, rivers)
	}
	for _, c := range []struct {
		name     string
		lat, lon float64
		near     bool
	}{
		{"Suez Canal at Ismailia", 30.58, 32.30, true},
		{"Suez Canal between two shape points", 30.715, 32.31, true},
		{"Panama Canal, Gatun", 9.27, -79.92, true},
		{"the Mississippi below New Orleans", 29.95, -90.02, true},
		{"Cairo", 30.05, 31.25, false},
		{"Mediterranean off Port Said", 31.9, 32.3, false},
		{"Texas", 31.0, -97.0, false},
	} {
		if got := NearChannel(c.lat, c.lon, 5); got != c.near {
			t.Errorf("%s: near a channel %v, want %v", c.name, got, c.near)
		}
	}
	if NearChannel(math.NaN(), 32.3, 5) {
		t.Error("NaN is near a channel")
	}
}
