package sim

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"time"

	"overwatch"

	"overwatch/maritime/seaport"
)

// Rates set how often the injected behaviours happen.
type Rates struct {
	Gap         float64 // per open-ocean leg: AIS off for 6-48 h (five times as often in the dark fleet)
	DarkCall    float64 // per loading call of a dark-fleet tanker: the call and its approach made dark
	STS         float64 // per tanker leg passing a transfer area: a ship-to-ship transfer there
	Loiter      float64 // per leg: an offshore stop of 4-30 h, stationary or rolling slowly
	Identity    float64 // per vessel and 30 days: a change of name, flag (and MMSI) or MMSI
	Mismatch    float64 // per port call: a draught misreport (directional, magnitude, zero change)
	Destination float64 // per leg: a declared destination that is not the port the vessel goes to
	Spoof       float64 // per leg: positions reported hundreds of kilometres from the truth
}

// DefaultRates give, over 30 days of the default fleet, tens of events of
// each kind: enough to measure detectors, rare enough to stay anomalies.
var DefaultRates = Rates{Gap: 0.02, DarkCall: 0.5, STS: 0.35, Loiter: 0.035, Identity: 0.04, Mismatch: 0.03, Destination: 0.05, Spoof: 0.012}

// Config is a simulation.
type Config struct {
	Seed       uint64
	Vessels    int           // default 800
	Start      time.Time     // the first reported position
	Warmup     time.Duration // planned before Start, nothing emitted (default 30 days)
	Downsample int           // report intervals over the ITU cadence (default 30)
	Sanctioned int           // vessels under sanctioned IMOs (default 12)
	DarkFleet  int           // tankers of the dark fleet (default 40), 8 of them STS shuttles
	Rates      Rates
	Trade      Trade      // seasons, trend, lanes and injected trade truths (zero: off; seasons.go)
	Coarse     Coarse     // cheaper cadence for older history (zero: off; history.go)
	Disruption Disruption // an injected chokepoint disruption (zero: off; chokepoint.go)
}

func (c *Config) defaults() {
	if c.Vessels <= 0 {
		c.Vessels = 800
	}
	if c.Warmup <= 0 {
		c.Warmup = 30 * 24 * time.Hour
	}
	if c.Downsample <= 0 {
		c.Downsample = 30
	}
	if c.Sanctioned < 0 {
		c.Sanctioned = 0
	}
	if c.DarkFleet <= 0 {
		c.DarkFleet = 40
	}
}

// track is a vessel with its timeline and its state where the timeline
// ends.
type track struct {
	v          *Vessel
	r          *rand.Rand
	segs       []Segment
	identities []epoch
	port       string    // where the vessel is bound (or lies)
	next       time.Time // when it arrives there
	commodity  string    // aboard; "" in ballast
	loading    string    // the commodity to load at the coming call, if any
	cargo      float64   // tonnes aboard
	draft      float64   // actual draught at the end of the timeline
	reported   float64   // reported draught at the end of the timeline
	declared   string    // declared destination of the current leg
	darkCall   bool      // the coming call is made with AIS off
	darkHead   bool      // the next leg starts with AIS off (after a dark call)
	zeroChange bool      // the crew will not update the draught after the coming call
	shuttle    *shuttle  // set for STS shuttles, which never call at ports
	darkCalls  []darkCall
	index      int // heap index
}

// epoch is an identity in force from a time.
type epoch struct {
	Since time.Time
	Identity
}

// identityAt is the identity in force at t.
func (t *track) identityAt(at time.Time) Identity {
	id := t.identities[0].Identity
	for _, e := range t.identities[1:] {
		if !at.Before(e.Since) {
			id = e.Identity
		}
	}
	return id
}

// Planner is the discrete-event simulation of voyages and port calls.
type Planner struct {
	cfg     Config
	fleet   []*Vessel
	tracks  []*track
	queue   trackHeap
	trade   *trade
	berths  map[string][]time.Time // berth zone id -> free-from time of each of its places
	routes  *routeCache
	harbour *harbourPaths
	truth   *truthWriter
	clock   time.Time // arrivals up to here are planned
	areas   []*stsArea
	usedMMS map[uint32]bool
	world   *tradeWorld // set when cfg.Trade is on
}

// NewPlanner builds the fleet and places every vessel at the start of the
// warm-up.
func NewPlanner(cfg Config, truth *truthWriter) (*Planner, error) {
	cfg.defaults()
	fleet, err := NewFleet(cfg.Seed, cfg.Vessels, cfg.Sanctioned, cfg.DarkFleet)
	if err != nil {
		return nil, err
	}
	p := &Planner{cfg: cfg, fleet: fleet, berths: map[string][]time.Time{}, routes: newRouteCache(), harbour: newHarbourPaths(), truth: truth, usedMMS: map[uint32]bool{}}
	p.trade = newTrade(p.routes.distanceNM)
	p.initTrade()
	for _, port := range seaport.All() {
		for _, b := range port.Berths {
			p.berths[b.ID] = make([]time.Time, b.Capacity)
		}
	}
	for _, v := range fleet {
		p.usedMMS[v.MMSI] = true
	}
	warmStart := cfg.Start.Add(-cfg.Warmup)
	p.clock = warmStart
	p.areas = newSTSAreas()
	shuttles := 0
	for _, v := range fleet {
		t := &track{v: v, r: rand.New(rand.NewPCG(cfg.Seed, uint64(v.Index)+1)), identities: []epoch{{Since: warmStart, Identity: v.Identity}}}
		p.tracks = append(p.tracks, t)
		truth.write(Truth{Type: "vessel", Vessels: []overwatch.IMO{v.IMO}, Start: tp(cfg.Start), Vessel: v})
		if v.DarkFleet && v.class.Tanker && shuttles < 2*len(p.areas) {
			p.areas[shuttles%len(p.areas)].addShuttle(t, warmStart)
			shuttles++
			continue
		}
		if err := p.place(t, warmStart); err != nil {
			return nil, err
		}
		heap.Push(&p.queue, t)
	}
	p.scheduleIdentityChanges()
	p.writeDisruptionTruth()
	return p, nil
}

// place puts a vessel at its first port at a random time in the first 25
// days of the warm-up: half arrive laden at a discharge port, half in
// ballast at a loading port.
func (p *Planner) place(t *track, warmStart time.Time) error {
	v := t.v
	t.next = warmStart.Add(time.Duration(t.r.Float64() * 25 * 24 * float64(time.Hour)))
	t.draft = v.BallastDraft()
	commodity, port, ok := p.trade.nextLoad(t.r, v, "")
	if !ok {
		return fmt.Errorf("sim: no loading port for class %s", v.Class)
	}
	t.loading = commodity
	if v.class.Name == "container" {
		t.commodity, t.cargo, t.loading = commodity, v.capacity()*0.6, ""
		t.draft = v.draftFor(t.cargo)
	} else if t.r.IntN(2) == 0 {
		cargo := v.capacity() * between(t.r, 0.9, 0.98)
		if dest, ok := p.trade.nextDischarge(t.r, v, port, commodity, v.draftFor(cargo)); ok {
			t.commodity, t.loading, port = commodity, "", dest
			t.cargo = cargo
			t.draft = v.draftFor(t.cargo)
		}
	}
	t.port, t.reported, t.declared = port, round1(t.draft), declaredName(t.r, port)
	// The vessel comes into being offshore, an hour out of its first port.
	dest := p.trade.ports[port]
	a := dest.Anchorages[0]
	lat, lon := offset(a.Lat, a.Lon, (t.r.Float64()-0.5)*a.RadiusKM*1200, (t.r.Float64()-0.5)*a.RadiusKM*1200)
	t.segs = append(t.segs, Segment{Kind: Anchor, Start: t.next.Add(-time.Hour), End: t.next, Lat: lat, Lon: lon,
		Port: port, Zone: a.ID, Draft0: t.draft, Draft1: t.draft, Reported: t.reported, Dest: t.declared})
	return nil
}

// Run plans every arrival up to until.
func (p *Planner) Run(until time.Time) error {
	for p.queue.Len() > 0 && !p.queue[0].next.After(until) {
		t := heap.Pop(&p.queue).(*track)
		p.clock = t.next
		if err := p.arrive(t); err != nil {
			return err
		}
		heap.Push(&p.queue, t)
	}
	if until.After(p.clock) {
		p.clock = until
	}
	for _, a := range p.areas {
		a.materialize(p, p.clock)
	}
	return nil
}

// Fleet returns the vessels.
func (p *Planner) Fleet() []*Vessel { return p.fleet }

type trackHeap []*track

func (h trackHeap) Len() int { return len(h) }
func (h trackHeap) Less(i, j int) bool {
	if !h[i].next.Equal(h[j].next) {
		return h[i].next.Before(h[j].next)
	}
	return h[i].v.Index < h[j].v.Index
}
func (h trackHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i]; h[i].index, h[j].index = i, j }
func (h *trackHeap) Push(x any)   { t := x.(*track); t.index = len(*h); *h = append(*h, t) }
func (h *trackHeap) Pop() any     { old := *h; t := old[len(old)-1]; *h = old[:len(old)-1]; return t }
