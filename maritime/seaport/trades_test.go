package seaport

import (
	"testing"

	"overwatch"
	"overwatch/maritime/geo"
)

// refHandles reports whether one of the port's berth zones handles the
// commodity.
func refHandles(p Port, commodity string) bool {
	for _, b := range p.Berths {
		if b.Handles(commodity) {
			return true
		}
	}
	return false
}

func TestReferencePortsBerthCargo(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		s := p.Slug
		comm := map[string]bool{}
		for _, c := range p.Commodities {
			comm[c] = true
		}
		if len(p.Area.Cargo) != 0 {
			t.Errorf("port %s: rule: only berth zones have a cargo; the area has %v", s, p.Area.Cargo)
		}
		for _, a := range p.Anchorages {
			if len(a.Cargo) != 0 {
				t.Errorf("port %s: anchorage %s: rule: only berth zones have a cargo; got %v", s, a.ID, a.Cargo)
			}
		}
		for _, b := range p.Berths {
			if len(b.Cargo) == 0 {
				t.Errorf("port %s: berth %s: rule: a berth zone names the commodities it handles (cargo)", s, b.ID)
			}
			seen := map[string]bool{}
			for _, c := range b.Cargo {
				if !refCommodities[c] {
					t.Errorf("port %s: berth %s: rule: cargo values are Commodity constants; got %q", s, b.ID, c)
				}
				if !comm[c] {
					t.Errorf("port %s: berth %s: rule: its cargo is among the port's commodities %v; %q is not", s, b.ID, p.Commodities, c)
				}
				if seen[c] {
					t.Errorf("port %s: berth %s: rule: cargo values are listed once; %q twice", s, b.ID, c)
				}
				seen[c] = true
				if !b.Handles(c) {
					t.Errorf("port %s: berth %s: Handles(%q) is false for a listed cargo", s, b.ID, c)
				}
			}
		}
		for _, c := range p.Commodities {
			if !refHandles(p, c) {
				t.Errorf("port %s: rule: every commodity of the port is handled by one of its berth zones; none handles %q", s, c)
			}
		}
	}
}

func TestReferencePortsTerminalKinds(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, p := range All() {
		want, lng := refLNGKinds[p.Slug]
		if !lng {
			want = refMiningKinds[p.Slug]
		}
		switch {
		case want != "":
			seen[p.Slug] = true
			if p.Kind != want {
				t.Errorf("port %s: rule: the kinds of the LNG and mining terminals do not change; got %q, want %q", p.Slug, p.Kind, want)
			}
		case p.IsLNG() || p.IsMining():
			t.Errorf("port %s: rule: the LNG and mining terminals are the listed ones; kind %q is new", p.Slug, p.Kind)
		}
	}
	if len(refLNGKinds) != refLNGCount || len(refMiningKinds) != refMiningCount {
		t.Fatalf("test lists: %d LNG and %d mining terminals, want %d and %d", len(refLNGKinds), len(refMiningKinds), refLNGCount, refMiningCount)
	}
	for _, m := range []map[string]string{refLNGKinds, refMiningKinds} {
		for s := range m {
			if !seen[s] {
				t.Errorf("port %s: rule: it is one of the LNG and mining terminals; missing", s)
			}
		}
	}
}

func TestReferencePortsLiquidTrades(t *testing.T) {
	t.Parallel()
	loaders := map[string]bool{}
	for _, s := range refCrudeLoaders {
		loaders[s] = true
		p, ok := BySlug(s)
		if !ok {
			t.Errorf("port %s: a crude-oil loading port is missing", s)
			continue
		}
		if !refHandles(p, overwatch.CommodityCrude) {
			t.Errorf("port %s: rule: a crude-oil loading port has a berth zone handling %q", s, overwatch.CommodityCrude)
		}
	}
	var crudeLoad, crudeTake, products, lngOther []string
	for _, p := range All() {
		if refHandles(p, overwatch.CommodityCrude) {
			if loaders[p.Slug] {
				crudeLoad = append(crudeLoad, p.Slug)
			} else {
				crudeTake = append(crudeTake, p.Slug)
			}
		}
		if refHandles(p, overwatch.CommodityProducts) {
			products = append(products, p.Slug)
		}
		if p.IsLNG() && !refHandles(p, overwatch.CommodityLNG) {
			t.Errorf("port %s: rule: an LNG terminal has a berth zone handling %q", p.Slug, overwatch.CommodityLNG)
		}
		if !p.IsLNG() && refHandles(p, overwatch.CommodityLNG) {
			lngOther = append(lngOther, p.Slug)
		}
	}
	for _, c := range []struct {
		what  string
		ports []string
		min   int
	}{
		{"ports load crude oil", crudeLoad, refMinCrudeLoaders},
		{"ports take crude oil", crudeTake, refMinCrudeTakers},
		{"ports handle refined products", products, refMinProductPorts},
		{"ports besides the LNG terminals handle LNG", lngOther, refMinLNGOtherPorts},
	} {
		if len(c.ports) < c.min {
			t.Errorf("rule: at least %d %s; got %d %v", c.min, c.what, len(c.ports), c.ports)
		}
	}
}

func TestReferencePortsDryBulkTrades(t *testing.T) {
	t.Parallel()
	var oreTakers, coalTakers []string
	for _, p := range All() {
		switch p.Kind {
		case KindIronOre:
			if !refHandles(p, overwatch.CommodityIronOre) {
				t.Errorf("port %s: rule: an iron-ore terminal has a berth zone handling %q", p.Slug, overwatch.CommodityIronOre)
			}
		case KindCoal:
			if !refHandles(p, overwatch.CommodityCoal) {
				t.Errorf("port %s: rule: a coal terminal has a berth zone handling %q", p.Slug, overwatch.CommodityCoal)
			}
		}
		if p.Kind != KindIronOre && refHandles(p, overwatch.CommodityIronOre) {
			oreTakers = append(oreTakers, p.Slug)
		}
		if p.Kind != KindCoal && refHandles(p, overwatch.CommodityCoal) {
			coalTakers = append(coalTakers, p.Slug)
		}
	}
	if len(oreTakers) < refMinIronOreTakers {
		t.Errorf("rule: at least %d ports besides the iron-ore terminals have a berth zone handling %q; got %d %v",
			refMinIronOreTakers, overwatch.CommodityIronOre, len(oreTakers), oreTakers)
	}
	if len(coalTakers) < refMinCoalTakers {
		t.Errorf("rule: at least %d ports besides the coal terminals have a berth zone handling %q; got %d %v",
			refMinCoalTakers, overwatch.CommodityCoal, len(coalTakers), coalTakers)
	}
}

func TestPortBerthsAtTheWater(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		if p.River {
			continue // the mask has no rivers
		}
		for _, b := range p.Berths {
			if geo.OnLand(b.Lat, b.Lon) {
				if d := geo.DistanceToShoreKM(b.Lat, b.Lon); d > 1.5 {
					t.Errorf("%s: berth %s is %.2f km inland on the land mask", p.Slug, b.ID, d)
				}
			}
		}
	}
}

func TestLandPortAnchorages(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		for _, a := range p.Anchorages {
			if on := geo.OnLand(a.Lat, a.Lon); on && !p.River {
				t.Errorf("port %s: anchorage %s (%v, %v) is on land", p.Slug, a.ID, a.Lat, a.Lon)
			}
		}
	}
}
