package sim

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"overwatch"
)

// Trade is the simulator's opt-in trade world. Its zero value is off: the
// simulation is then the same, byte for byte, as without it. When any of
// its options is set, every origin (a loading port and commodity) also gets
// preferred lanes: a fixed weight per destination, drawn from the seed
// (log-normal, σ = 1.3), multiplying the distance weighting of the
// discharge choice, so that an origin's flows concentrate on a few
// destinations as real trades do; the destinations are allotted by
// weighted round robin, so the shares hold from week to week.
type Trade struct {
	// Seasons: grain and oilseed loadings follow each origin's harvest
	// export season (harvestSeasons), and grow by Trend a year.
	Seasons bool
	// Trend is the yearly growth of grain and oilseed loadings with
	// Seasons, as a fraction (0: DefaultTrend). The fleet is fixed, so the
	// growth is a growing share of the bulk carriers' loadings.
	Trend float64
	// End is the end of the run: the injected truths are placed before it
	// (zero: Start + 30 days).
	End time.Time
	// Shifts is the number of route shifts injected (route_shift truths).
	Shifts int
	// Anomalies is the number of port-volume anomalies injected: port
	// closures, each a drop and the next week's catch-up surge
	// (volume_anomaly truths).
	Anomalies int
	// Deceptive is, per laden leg from a loading port, the chance of a
	// deceptive destination (deceptive_destination truths).
	Deceptive float64
	// Honest is, per laden leg from a loading port, the chance of an
	// honest late change of orders to another port of the same country
	// (destination_change truths, subtype honest).
	Honest float64
}

// DefaultTrend is the yearly growth of grain and oilseed loadings.
const DefaultTrend = 0.03

// DefaultTradeTruths are the injected trade truths of `overwatch simulate
// --trade-truths` and of the demo: per year of run, shifts and anomalies at
// these counts (at least one of each).
var DefaultTradeTruths = Trade{Shifts: 4, Anomalies: 6, Deceptive: 0.04, Honest: 0.04}

func (c Trade) on() bool {
	return c.Seasons || c.Shifts > 0 || c.Anomalies > 0 || c.Deceptive > 0 || c.Honest > 0
}

// season is the peak of an origin's export season, months inclusive
// (wrapping over the year when From > To).
type season struct{ From, To time.Month }

// harvestSeasons are the grain and oilseed export seasons of the origins
// among the reference ports: US Gulf and Pacific North West autumn,
// Brazil March–July, Argentina April–August, the Black Sea (and the
// French Atlantic, on the same northern wheat harvest) July–November,
// Western Australia December–March.
var harvestSeasons = map[string]season{
	"new-orleans": {9, 12}, "seattle": {9, 12}, "tacoma": {9, 12}, "vancouver": {9, 12},
	"santos": {3, 7}, "paranagua": {3, 7}, "rio-grande": {3, 7},
	"rosario": {4, 8}, "bahia-blanca": {4, 8},
	"odesa": {7, 11}, "chornomorsk": {7, 11}, "novorossiysk": {7, 11}, "constanta": {7, 11}, "la-pallice": {7, 11},
	"fremantle": {12, 3},
}

// Season weights: an origin's loading choice weighs 1.8 in its season, 0.8
// in the month either side, 0.3 otherwise.
const (
	inSeason  = 1.8
	shoulder  = 0.8
	offSeason = 0.3
)

func (s season) contains(m time.Month) bool {
	if s.From <= s.To {
		return m >= s.From && m <= s.To
	}
	return m >= s.From || m <= s.To
}

// factor is the season's weight in the month.
func (s season) factor(m time.Month) float64 {
	switch {
	case s.contains(m):
		return inSeason
	case s.contains(m%12+1) || s.contains((m+10)%12+1):
		return shoulder
	}
	return offSeason
}

// seasonal reports whether the commodity follows harvest seasons.
func seasonal(commodity string) bool {
	return commodity == overwatch.CommodityGrain || commodity == overwatch.CommodityOilseeds
}

// tradeWorld is the state of the trade options.
type tradeWorld struct {
	cfg       Trade
	seed      uint64
	start     time.Time
	end       time.Time
	lanes     map[[3]string]float64
	shifts    []routeShift
	anomalies []volumeAnomaly
	loads     map[string]map[time.Time]int  // loading choices per port and week of expected departure
	loadsBy   map[string]map[time.Time]int  // the same per port|commodity
	r         *rand.Rand                    // draws the anomalies' ports and the shifts' lanes
	rr        map[string]map[string]float64 // round-robin credit per origin|commodity and destination
}

// initTrade sets up the trade world when the options are on, and writes
// the injected shifts and anomalies to the truth.
func (p *Planner) initTrade() {
	c := p.cfg.Trade
	if !c.on() {
		return
	}
	if c.Trend == 0 {
		c.Trend = DefaultTrend
	}
	w := &tradeWorld{cfg: c, seed: p.cfg.Seed, start: p.cfg.Start, end: c.End, lanes: map[[3]string]float64{}, rr: map[string]map[string]float64{}}
	if w.end.IsZero() || !w.end.After(w.start) {
		w.end = w.start.Add(30 * 24 * time.Hour)
	}
	p.world = w
	r := rand.New(rand.NewPCG(p.cfg.Seed, 0x7a4de))
	p.planShifts(r)
	p.planAnomalies(r)
}

// growth is the trend's factor at a time.
func (w *tradeWorld) growth(at time.Time) float64 {
	years := at.Sub(w.start).Hours() / (24 * 365.25)
	return math.Pow(1+w.cfg.Trend, years)
}

// loadFactor is the weight of loading the commodity at the port at a time:
// season and trend (with Seasons), without the injected anomalies.
func (w *tradeWorld) loadFactor(port, commodity string, at time.Time) float64 {
	if !w.cfg.Seasons || !seasonal(commodity) {
		return 1
	}
	f := w.growth(at)
	if s, ok := harvestSeasons[port]; ok {
		f *= s.factor(at.Month())
	}
	return f
}

// lane is the preferred-lane weight of a destination from an origin:
// log-normal, fixed by the seed.
func (w *tradeWorld) lane(origin, commodity, dest string) float64 {
	k := [3]string{origin, commodity, dest}
	if v, ok := w.lanes[k]; ok {
		return v
	}
	h := fnv.New64a()
	h.Write([]byte(origin + "|" + commodity + "|" + dest)) //nolint:errcheck // hashes do not fail
	r := rand.New(rand.NewPCG(w.seed, h.Sum64()))
	v := math.Exp(1.3 * r.NormFloat64())
	w.lanes[k] = v
	return v
}

// eta is when a vessel leaving from at depart would reach port.
func (p *Planner) eta(v *Vessel, from, port string, depart time.Time) time.Time {
	nm := p.routes.distanceNM(from, port)
	if nm <= 0 || v.SpeedKn <= 0 {
		return depart
	}
	return depart.Add(time.Duration(nm / v.SpeedKn * float64(time.Hour)))
}

// tradeNext replaces the next port chosen by departFrom when the trade
// options are on: the loading choice follows seasons, trend and injected
// anomalies, the discharge choice (and a container ship's next port) the
// lanes and injected shifts.
func (p *Planner) tradeNext(t *track, from, next string, ok bool, depart time.Time) (string, bool) {
	if t.v.class.Name == "container" {
		if dest, found := p.tradeDischarge(t, from, overwatch.CommodityContainers, 0.5, t.v.DesignDraftM, depart); found {
			return dest, true
		}
		return next, ok
	}
	if t.commodity != "" {
		if dest, found := p.tradeDischarge(t, from, t.commodity, 0.35, t.draft, depart); found {
			return dest, true
		}
		return next, ok
	}
	if c, port, found := p.tradeLoad(t, from, depart); found {
		t.loading = c
		return port, true
	}
	return next, ok
}

// candidates are the ports a vessel of the draught can go to from a port
// (all of them when none is deep enough, as in trade.pick).
func (p *Planner) candidates(from string, ports []string, draft float64) []string {
	var deep, all []string
	for _, c := range ports {
		if c == from || p.routes.distanceNM(from, c) <= 0 && from != "" {
			continue
		}
		all = append(all, c)
		if p.trade.canCall(c, draft) {
			deep = append(deep, c)
		}
	}
	if len(deep) > 0 {
		return deep
	}
	return all
}

// tradeLoad chooses a ballast vessel's commodity (drawn, weighted by the
// mean season and trend factor of its origins) and loading port
// (distance^-0.9 times the factor, allotted by round robin per port of
// departure and commodity).
func (p *Planner) tradeLoad(t *track, from string, depart time.Time) (string, string, bool) {
	w := p.world
	v := t.v
	type option struct {
		commodity string
		ports     []string
		weights   []float64
		mean      float64
	}
	var opts []option
	total := 0.0
	for _, c := range v.class.Cargo {
		ports := p.candidates(from, p.trade.exporters[c], v.BallastDraft()+2)
		if len(ports) == 0 {
			continue
		}
		o := option{commodity: c, ports: ports}
		for _, port := range ports {
			f := w.loadFactor(port, c, p.eta(v, from, port, depart))
			o.mean += f / float64(len(ports))
			o.weights = append(o.weights, math.Pow(math.Max(p.routes.distanceNM(from, port), 1), -0.9)*f)
		}
		opts = append(opts, o)
		total += o.mean
	}
	if len(opts) == 0 {
		return "", "", false
	}
	x := t.r.Float64() * total
	o := opts[len(opts)-1]
	for _, cand := range opts {
		if x < cand.mean {
			o = cand
			break
		}
		x -= cand.mean
	}
	p.settleAnomalies(depart)
	p.settleShifts(depart)
	port := w.roundRobin("load|"+from+"|"+o.commodity, o.ports, o.weights)
	w.countLoad(port, o.commodity, p.eta(v, from, port, depart))
	return o.commodity, port, true
}

// tradeDischarge chooses where a laden vessel discharges (and where a
// container ship goes next): distance^-alpha times the origin's lane
// weight, allotted by smooth weighted round robin per origin and
// commodity rather than drawn, so that an origin's flows keep their
// shares from week to week (up to one voyage) and only the injected
// shifts move them; a shift in force sends the voyages that would have
// gone to its from port to its to port.
func (p *Planner) tradeDischarge(t *track, from, commodity string, alpha, draft float64, depart time.Time) (string, bool) {
	w := p.world
	p.settleShifts(depart)
	ports := p.candidates(from, p.trade.importers[commodity], draft)
	if len(ports) == 0 {
		return "", false
	}
	weights := make([]float64, len(ports))
	for i, c := range ports {
		weights[i] = math.Pow(math.Max(p.routes.distanceNM(from, c), 1), -alpha) * w.lane(from, commodity, c)
	}
	dest := w.roundRobin(from+"|"+commodity, ports, weights)
	for _, s := range w.shifts {
		if s.origin == from && s.commodity == commodity && dest == s.from && !depart.Before(s.start) && p.trade.canCall(s.to, draft) {
			dest = s.to
		}
	}
	return dest, true
}

// roundRobin allots one of the choices by smooth weighted round robin
// under the key: each choice gains its weight, the one with the most
// credit is chosen and pays the total, so that over any run of choices
// each gets its share up to one.
func (w *tradeWorld) roundRobin(key string, choices []string, weights []float64) string {
	cur := w.rr[key]
	if cur == nil {
		cur = map[string]float64{}
		w.rr[key] = cur
	}
	total, best := 0.0, ""
	for i, c := range choices {
		cur[c] += weights[i]
		total += weights[i]
		if best == "" || cur[c] > cur[best] {
			best = c
		}
	}
	cur[best] -= total
	return best
}

// weighted draws an index in proportion to the weights.
func weighted(r *rand.Rand, weights []float64) int {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	x := r.Float64() * total
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}
