package sim

import (
	"math"
	"math/rand/v2"
	"sort"

	"overwatch/maritime/seaport"

	"overwatch"
)

// trade knows which port loads and which discharges each commodity, from
// the ports' kinds and the cargo their berth zones handle.
type trade struct {
	ports     map[string]seaport.Port
	exporters map[string][]string // commodity -> ports that load it
	importers map[string][]string // commodity -> ports that discharge it
	dist      func(from, to string) float64
}

// exportsOf names what each kind of terminal loads; crude oil and refined
// products are loaded where named below, containers everywhere they are
// handled (liner calls load and discharge).
var exportsOf = map[string][]string{
	seaport.KindGrainExport: {overwatch.CommodityGrain, overwatch.CommodityOilseeds},
	seaport.KindIronOre:     {overwatch.CommodityIronOre},
	seaport.KindCoal:        {overwatch.CommodityCoal},
	seaport.KindLNGExport:   {overwatch.CommodityLNG},
}

var liquidExporters = map[string][]string{
	overwatch.CommodityCrude:    {"novorossiysk", "bonny", "ras-laffan"},
	overwatch.CommodityProducts: {"novorossiysk", "ras-laffan", "mundra"},
	overwatch.CommodityLNG:      {"dampier"}, // the North West Shelf LNG jetty exports
}

func newTrade(dist func(from, to string) float64) *trade {
	t := &trade{ports: map[string]seaport.Port{}, exporters: map[string][]string{}, importers: map[string][]string{}, dist: dist}
	for _, p := range seaport.All() {
		t.ports[p.Slug] = p
		handled := map[string]bool{}
		for _, b := range p.Berths {
			for _, c := range b.Cargo {
				handled[c] = true
			}
		}
		loads := map[string]bool{}
		for _, c := range exportsOf[p.Kind] {
			loads[c] = true
		}
		for c, ports := range liquidExporters {
			for _, s := range ports {
				if s == p.Slug {
					loads[c] = true
				}
			}
		}
		if handled[overwatch.CommodityContainers] {
			loads[overwatch.CommodityContainers] = true
		}
		for c := range handled {
			if loads[c] {
				t.exporters[c] = append(t.exporters[c], p.Slug)
			}
			if !loads[c] || c == overwatch.CommodityContainers {
				t.importers[c] = append(t.importers[c], p.Slug)
			}
		}
	}
	for _, m := range []map[string][]string{t.exporters, t.importers} {
		for c := range m {
			sort.Strings(m[c])
		}
	}
	return t
}

// canCall reports whether a vessel of the draught can call at the port. The
// depths are the World Port Index's port-wide figures, which the deep-water
// berths of the big bulk ports exceed: 1.5 m of tolerance.
func (t *trade) canCall(port string, draft float64) bool {
	return t.ports[port].MaxDraftM <= 0 || draft <= t.ports[port].MaxDraftM+1.5
}

// pick chooses among candidate ports from the current one, weighting each
// by distance^-alpha (alpha near 1 prefers short hauls); 0 excludes the
// current port.
func (t *trade) pick(r *rand.Rand, from string, candidates []string, alpha float64, draft float64) (string, bool) {
	var ports []string
	var weights []float64
	total := 0.0
	deep := false
	for _, c := range candidates {
		deep = deep || c != from && t.canCall(c, draft)
	}
	for _, c := range candidates {
		// When no port is deep enough, the deepest are as good as any:
		// the vessel waits for the tide.
		if c == from || deep && !t.canCall(c, draft) {
			continue
		}
		w := 1.0 // a vessel appearing in the world picks at random
		if from != "" {
			d := t.dist(from, c)
			if d <= 0 {
				continue
			}
			w = math.Pow(d, -alpha)
		}
		ports, weights = append(ports, c), append(weights, w)
		total += w
	}
	if len(ports) == 0 {
		return "", false
	}
	x := r.Float64() * total
	for i, w := range weights {
		if x < w {
			return ports[i], true
		}
		x -= w
	}
	return ports[len(ports)-1], true
}

// nextLoad chooses the commodity and port of a vessel's next loading. A
// vessel arrives at a loading port in ballast and loads as deep as the port
// allows, so the port needs depth for a useful part-cargo only.
func (t *trade) nextLoad(r *rand.Rand, v *Vessel, from string) (commodity, port string, ok bool) {
	cargo := append([]string(nil), v.class.Cargo...)
	r.Shuffle(len(cargo), func(i, j int) { cargo[i], cargo[j] = cargo[j], cargo[i] })
	for _, c := range cargo {
		if p, ok := t.pick(r, from, t.exporters[c], 0.9, v.BallastDraft()+2); ok {
			return c, p, true
		}
	}
	return "", "", false
}

// nextDischarge chooses where a vessel laden to the draught discharges:
// long hauls are common, so distance weighs little.
func (t *trade) nextDischarge(r *rand.Rand, v *Vessel, from, commodity string, draft float64) (string, bool) {
	return t.pick(r, from, t.importers[commodity], 0.35, draft)
}

// isExporter reports whether the port loads the commodity.
func (t *trade) isExporter(port, commodity string) bool {
	for _, p := range t.exporters[commodity] {
		if p == port {
			return true
		}
	}
	return false
}
