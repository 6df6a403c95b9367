package predict

import (
	"math"

	"overwatch"
	"sort"
	"time"

	"overwatch/maritime/portcall"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Input is what is known of one vessel as of an instant, and nothing later.
type Input struct {
	AsOf time.Time
	// Track is the vessel's positions before AsOf in time order; the last
	// day or two is enough.
	Track []vessel.TrackPoint
	// Calls are the vessel's calls that arrived before AsOf, in arrival
	// order; a call that departed after AsOf is still going on.
	Calls []portcall.Call
	// Declared is the destination last broadcast before AsOf (free text);
	// DeclaredETA the ETA broadcast with it, nil when none.
	Declared    string
	DeclaredETA *time.Time
	// Reliability is the share of the vessel's past calls whose declared
	// destination named the port reached; NaN when it has no record.
	Reliability float64
	// Lanes counts, for the vessel's kind, the calls at each next port after
	// each port (from -> to -> calls); nil when unknown.
	Lanes map[string]map[string]int
	// WaitHours is each port's current median wait at anchor, in hours.
	WaitHours map[string]float64
	// Calibration is the ETA error quantiles of the backtest over the
	// history before AsOf; nil for the fixed spread.
	Calibration *Calibration
}

// NextPort is one predicted next port.
type NextPort struct {
	Port        string  `json:"port"`
	Probability float64 `json:"probability"`
	// ETA is the predicted entry into the port area, with its 80% interval.
	ETA     time.Time `json:"eta"`
	ETALow  time.Time `json:"eta_low"`
	ETAHigh time.Time `json:"eta_high"`
	// BerthETA is ETA plus the port's current median wait at anchor, nil
	// when the wait is not known.
	BerthETA   *time.Time `json:"berth_eta"`
	DistanceNM float64    `json:"distance_nm"` // remaining along the sea lanes
	// basis is the ETA's evidence kind (BasisLane, ...), for the backtest
	basis string
}

// Evidence is what a prediction was made from.
type Evidence struct {
	LastPort     string     `json:"last_port,omitempty"`
	Departed     *time.Time `json:"departed,omitempty"`
	Declared     string     `json:"declared,omitempty"`
	DeclaredPort string     `json:"declared_port,omitempty"`
	DeclaredETA  *time.Time `json:"declared_eta,omitempty"`
	ForOrders    bool       `json:"for_orders"`
	Reliability  *float64   `json:"reliability"`
	SpeedKn      float64    `json:"speed_kn"`
	Position     [2]float64 `json:"position"`
	PositionAt   time.Time  `json:"position_at"`
	OnLaneTo     []string   `json:"on_lane_to,omitempty"`
	PastCalls    int        `json:"past_calls"`
}

// Prediction is a vessel's predicted next ports as of an instant.
type Prediction struct {
	IMO      overwatch.IMO
	Category string // the vessel's ship type category, "" when unknown
	AsOf     time.Time
	Next     []NextPort // best first, at most three
	Evidence Evidence
}

// Tuning of the predictor (docs/predictions.md says how each was chosen).
const (
	maxStale      = 48 * time.Hour  // a vessel unheard of longer is not predicted
	laneSigmaNM   = 25.0            // cross-track spread of a vessel on its lane
	laneFloor     = 0.002           // the likelihood of a port whose lane the vessel is off
	awayFactor    = 0.05            // a port the vessel sails away from along its lane
	farNM         = 4 * laneSigmaNM // the cross-track distance taken for a lane the vessel is nowhere near
	unknownReliab = 0.85            // reliability of a vessel with no record
	defaultKn     = 12.0
	// the ETA's spread: a fixed part and a share of the hours to go
	etaSigmaBase = 0.2
	etaSigmaRate = 0.005
	z80          = 1.2816
	lateSkew     = 1.6 // delays (loitering, weather) make late arrivals likelier than early ones
)

// UnderWay reports whether the vessel is at sea as of in.AsOf: heard from
// within two days and not in a call that goes on.
func UnderWay(in Input) bool {
	if len(in.Track) == 0 || in.AsOf.Sub(in.Track[len(in.Track)-1].TS) > maxStale {
		return false
	}
	if n := len(in.Calls); n > 0 {
		c := in.Calls[n-1]
		if c.Departure == nil || c.Departure.After(in.AsOf) {
			return false
		}
	}
	return true
}

// Predict returns the vessel's likely next ports as of in.AsOf, or false
// when it is not under way.
func Predict(in Input) (Prediction, bool) {
	if !UnderWay(in) {
		return Prediction{}, false
	}
	ev := evidence(in)
	last := ev.LastPort
	rel := in.Reliability
	if math.IsNaN(rel) {
		rel = unknownReliab
	}
	own := transitions(in.Calls)
	type cand struct {
		port               string
		score              float64
		remaining, speedKn float64
	}
	var cands []cand
	var onLane []string
	pos := in.Track[len(in.Track)-1]
	prev, hasPrev := earlier(in.Track, 6*time.Hour)
	// The lanes from the last port; when it is unknown (no call in the
	// history) or the vessel is on none of them (a call missed), the lanes
	// from any port.
	fits := make([]fit, len(seaport.All()))
	anyOrigin := last == ""
	if !anyOrigin {
		best := math.Inf(1)
		for i, p := range seaport.All() {
			fits[i] = fitLane(laneOf(last, p.Slug), pos, prev, hasPrev)
			if fits[i].ok {
				best = math.Min(best, fits[i].cross)
			}
		}
		anyOrigin = best > 3*laneSigmaNM
	}
	if anyOrigin {
		for i, p := range seaport.All() {
			fits[i] = fit{}
			for _, o := range seaport.All() {
				if o.Slug == p.Slug {
					continue
				}
				if f := fitLane(laneOf(o.Slug, p.Slug), pos, prev, hasPrev); f.ok && (!fits[i].ok || f.score() > fits[i].score()) {
					fits[i] = f
				}
			}
		}
	}
	for i, p := range seaport.All() {
		if p.Slug == last {
			continue
		}
		prior := historyPrior(own, in.Lanes, last, p.Slug)
		if ev.DeclaredPort != "" {
			d := 0.0
			if p.Slug == ev.DeclaredPort {
				d = 1
			}
			prior = rel*d + (1-rel)*prior
		}
		f := fits[i]
		like, remaining := 1.0, 0.0
		if f.ok {
			like, remaining = f.score(), f.remaining
			if f.cross < 2*laneSigmaNM {
				onLane = append(onLane, p.Slug)
			}
		} else {
			remaining = greatCircleNM(pos.Lat, pos.Lon, p.Area.Lat, p.Area.Lon) * 1.15
			if hasPrev {
				d0 := greatCircleNM(prev.Lat, prev.Lon, p.Area.Lat, p.Area.Lon)
				if d0 < remaining/1.15-5 {
					like *= awayFactor
				}
			}
		}
		cands = append(cands, cand{p.Slug, prior * like, remaining, ev.SpeedKn})
	}
	sort.Strings(onLane)
	ev.OnLaneTo = onLane
	total := 0.0
	for _, c := range cands {
		total += c.score
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	out := Prediction{AsOf: in.AsOf, Evidence: ev}
	for _, c := range cands {
		if len(out.Next) == 3 || total <= 0 || c.score <= 0 {
			break
		}
		np := NextPort{Port: c.port, Probability: round(c.score/total, 4), DistanceNM: round(c.remaining, 1)}
		np.ETA, np.ETALow, np.ETAHigh, np.basis = eta(pos.TS, in.AsOf, c.remaining, c.speedKn, ev, c.port, in.Calibration)
		if w, ok := in.WaitHours[c.port]; ok && !math.IsNaN(w) {
			b := np.ETA.Add(hours(w))
			np.BerthETA = &b
		}
		out.Next = append(out.Next, np)
	}
	return out, len(out.Next) > 0
}

// fit is how a vessel lies on a lane: its cross-track distance, whether it
// sails away from the lane's port, and the distance left to the port area.
type fit struct {
	ok               bool
	cross, remaining float64
	away             bool
}

// score is the likelihood of the vessel's positions on the lane.
func (f fit) score() float64 {
	like := math.Max(math.Exp(-f.cross*f.cross/(2*laneSigmaNM*laneSigmaNM)), laneFloor)
	if f.away {
		like *= awayFactor
	}
	return like
}

// fitLane places the vessel's newest position (and the one some hours
// before it) on the lane; not ok without a lane.
func fitLane(l *lane, pos, prev vessel.TrackPoint, hasPrev bool) fit {
	if l == nil {
		return fit{}
	}
	along, cross := math.NaN(), math.Inf(1)
	if l.near(pos.Lat, pos.Lon) {
		along, cross = l.project(pos.Lat, pos.Lon)
	}
	if cross > farNM {
		end := l.pts[len(l.pts)-1]
		return fit{ok: true, cross: farNM, remaining: greatCircleNM(pos.Lat, pos.Lon, end[0], end[1]) * 1.15}
	}
	f := fit{ok: true, cross: cross, remaining: math.Max(l.entry-along, 0)}
	if hasPrev {
		if a0, _ := l.project(prev.Lat, prev.Lon); a0 > along+5 {
			f.away = true
		}
	}
	return f
}

// eta is the arrival at the port area from the remaining distance at the
// recent speed, blended with the broadcast ETA when the vessel declared
// that port, its 80% interval (from the calibration's measured error, see
// interval) and its evidence kind.
func eta(from, asOf time.Time, remainingNM, kn float64, ev Evidence, port string, cal *Calibration) (at, lo, hi time.Time, basis string) {
	h := remainingNM / kn
	at = from.Add(hours(h))
	if at.Before(asOf) {
		at = asOf
	}
	togo := at.Sub(asOf).Hours()
	sigma := etaSigmaBase + etaSigmaRate*togo
	basis = BasisLane
	if ev.DeclaredPort == port && ev.DeclaredETA != nil && ev.DeclaredETA.After(asOf) {
		// the crew's estimate, within a few hours, weighted by inverse
		// variance against the lane's
		const crewSigma = 3.0
		dh := ev.DeclaredETA.Sub(at).Hours()
		basis = BasisDeclaredAgrees
		if math.Abs(dh) > agreeHours {
			basis = BasisDeclaredDiffers
		}
		w := sigma * sigma / (sigma*sigma + crewSigma*crewSigma)
		at = at.Add(hours(w * dh))
		sigma = math.Sqrt(1 / (1/(sigma*sigma) + 1/(crewSigma*crewSigma)))
	}
	lo, hi = interval(cal, asOf, at, basis, sigma)
	return at.Truncate(time.Minute), lo.Truncate(time.Minute), hi.Truncate(time.Minute), basis
}

// evidence gathers the facts the prediction uses.
func evidence(in Input) Evidence {
	pos := in.Track[len(in.Track)-1]
	ev := Evidence{Declared: in.Declared, SpeedKn: round(recentSpeed(in.Track), 1),
		Position: [2]float64{pos.Lat, pos.Lon}, PositionAt: pos.TS, PastCalls: len(in.Calls)}
	if n := len(in.Calls); n > 0 {
		ev.LastPort = in.Calls[n-1].Port
		ev.Departed = in.Calls[n-1].Departure
	}
	if !math.IsNaN(in.Reliability) {
		r := in.Reliability
		ev.Reliability = &r
	}
	if slug, ok := seaport.OfDestination(in.Declared); ok {
		ev.DeclaredPort = slug
		ev.DeclaredETA = in.DeclaredETA
	} else {
		ev.ForOrders = true // FOR ORDERS, blank, or a place that is none of ours
	}
	return ev
}

// recentSpeed is the mean reported speed over the last 12 hours of sailing
// (above 3 knots), or the speed made good, or a default.
func recentSpeed(track []vessel.TrackPoint) float64 {
	last := track[len(track)-1].TS
	sum, n := 0.0, 0
	for i := len(track) - 1; i >= 0 && last.Sub(track[i].TS) <= 12*time.Hour; i-- {
		if s := track[i].SOG; !math.IsNaN(s) && s > 3 && s < 40 {
			sum += s
			n++
		}
	}
	if n > 0 {
		return sum / float64(n)
	}
	if p, ok := earlier(track, 6*time.Hour); ok {
		q := track[len(track)-1]
		if h := q.TS.Sub(p.TS).Hours(); h > 0 {
			if s := greatCircleNM(p.Lat, p.Lon, q.Lat, q.Lon) / h; s > 3 && s < 40 {
				return s
			}
		}
	}
	return defaultKn
}

// earlier is the last position at least d before the newest one.
func earlier(track []vessel.TrackPoint, d time.Duration) (vessel.TrackPoint, bool) {
	last := track[len(track)-1].TS
	for i := len(track) - 2; i >= 0; i-- {
		if last.Sub(track[i].TS) >= d {
			return track[i], true
		}
	}
	return vessel.TrackPoint{}, false
}

// transitions counts the vessel's own moves between consecutive calls.
func transitions(calls []portcall.Call) map[string]map[string]int {
	out := map[string]map[string]int{}
	for i := 1; i < len(calls); i++ {
		a, b := calls[i-1].Port, calls[i].Port
		if out[a] == nil {
			out[a] = map[string]int{}
		}
		out[a][b]++
	}
	return out
}

// historyPrior is the prior of the next port from the vessel's own moves
// after its last port, its kind's, and a small uniform share.
func historyPrior(own, kind map[string]map[string]int, from, to string) float64 {
	share := func(m map[string]map[string]int) (float64, bool) {
		row := m[from]
		total := 0
		for _, n := range row {
			total += n
		}
		if total == 0 {
			return 0, false
		}
		return float64(row[to]) / float64(total), true
	}
	uniform := 1 / float64(len(seaport.All()))
	p, w := 0.1*uniform, 0.1
	if s, ok := share(own); ok {
		p += 0.5 * s
		w += 0.5
	}
	if s, ok := share(kind); ok {
		p += 0.4 * s
		w += 0.4
	}
	return p / w
}

func greatCircleNM(lat1, lon1, lat2, lon2 float64) float64 {
	return geoKM(lat1, lon1, lat2, lon2) / kmPerNM
}

func hours(h float64) time.Duration { return time.Duration(h * float64(time.Hour)) }

func round(v float64, dec int) float64 {
	p := math.Pow(10, float64(dec))
	return math.Round(v*p) / p
}
