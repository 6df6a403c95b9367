package predict

import (
	"math"
	"sort"
	"time"

	"overwatch"
	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/vessel"
)

// Declaration is a vessel's destination and ETA as last broadcast before
// an instant.
type Declaration struct {
	Destination string
	ETA         *time.Time
}

// Fleet is what the predictions of every vessel as of one instant share,
// built from the fleet's port calls and nothing after the instant: each
// vessel's calls, its destination reliability, the lanes each kind of
// vessel uses and each port's recent wait at anchor.
type Fleet struct {
	AsOf        time.Time
	calls       map[overwatch.IMO][]portcall.Call
	reliability map[overwatch.IMO]float64
	kind        map[overwatch.IMO]string
	lanes       map[string]map[string]map[string]int
	waits       map[string]float64
	cal         *Calibration // the ETA interval's, nil for the fixed spread
}

// HistoryDays is how far back the calls a Fleet is built from should reach.
const HistoryDays = 120

// NewFleet builds the shared inputs as of asOf from the calls (any order):
// only the published calls that arrived before asOf count, and what
// happened after asOf (a departure, the end of an anchor or berth period)
// is taken as not yet known.
func NewFleet(asOf time.Time, calls []portcall.Call) *Fleet {
	f := &Fleet{AsOf: asOf, calls: map[overwatch.IMO][]portcall.Call{}, reliability: map[overwatch.IMO]float64{},
		kind: map[overwatch.IMO]string{}, lanes: map[string]map[string]map[string]int{}, waits: map[string]float64{}}
	var clipped []portcall.Call
	for _, c := range calls {
		if !c.Published() || !c.Arrival.Before(asOf) {
			continue
		}
		c.Departure = before(c.Departure, asOf)
		c.AnchorEnd = before(c.AnchorEnd, asOf)
		c.BerthStart = before(c.BerthStart, asOf)
		c.BerthEnd = before(c.BerthEnd, asOf)
		clipped = append(clipped, c)
	}
	sort.SliceStable(clipped, func(i, j int) bool {
		if clipped[i].IMO != clipped[j].IMO {
			return clipped[i].IMO < clipped[j].IMO
		}
		return clipped[i].Arrival.Before(clipped[j].Arrival)
	})
	for _, c := range clipped {
		f.calls[c.IMO] = append(f.calls[c.IMO], c)
		if c.Category != "" {
			f.kind[c.IMO] = c.Category
		}
	}
	for imo, cs := range f.calls {
		k := f.kind[imo]
		if f.lanes[k] == nil {
			f.lanes[k] = map[string]map[string]int{}
		}
		for i := 1; i < len(cs); i++ {
			row := f.lanes[k][cs[i-1].Port]
			if row == nil {
				row = map[string]int{}
				f.lanes[k][cs[i-1].Port] = row
			}
			row[cs[i].Port]++
		}
	}
	// reliability shrunk towards unknownReliab by two pseudo-calls, so that
	// a vessel with one judged call is not taken at its word or ignored
	for _, r := range portstats.DestinationReliability(clipped) {
		f.reliability[r.IMO] = (float64(r.Matched) + 2*unknownReliab) / (float64(r.Declared) + 2)
	}
	f.waits = recentWaits(clipped, asOf)
	return f
}

// recentWaits is each port's median wait at anchor over the anchor periods
// that ended in the 7 days before asOf (30 days when fewer than three did).
func recentWaits(calls []portcall.Call, asOf time.Time) map[string]float64 {
	out := map[string]float64{}
	for _, days := range []int{30, 7} {
		by := map[string][]float64{}
		from := asOf.Add(-time.Duration(days) * 24 * time.Hour)
		for _, c := range calls {
			if c.AnchorStart == nil || c.AnchorEnd == nil || c.AnchorEnd.Before(from) {
				continue
			}
			by[c.Port] = append(by[c.Port], c.AnchorEnd.Sub(*c.AnchorStart).Hours())
		}
		for port, w := range by {
			if len(w) >= 3 {
				out[port] = round(portstats.Quantile(w, 0.5), 1)
			}
		}
	}
	return out
}

func before(t *time.Time, asOf time.Time) *time.Time {
	if t == nil || !t.Before(asOf) {
		return nil
	}
	return t
}

// Input is the input of the vessel's prediction: its track (only the
// positions before AsOf are kept) and its declaration with the shared facts.
func (f *Fleet) Input(imo overwatch.IMO, track []vessel.TrackPoint, d Declaration) Input {
	n := sort.Search(len(track), func(i int) bool { return !track[i].TS.Before(f.AsOf) })
	rel, ok := f.reliability[imo]
	if !ok {
		rel = math.NaN()
	}
	eta := d.ETA
	return Input{AsOf: f.AsOf, Track: track[:n], Calls: f.calls[imo], Declared: d.Destination, DeclaredETA: eta,
		Reliability: rel, Lanes: f.lanes[f.kind[imo]], WaitHours: f.waits, Calibration: f.cal}
}

// Predict is Predict of the vessel's Input.
func (f *Fleet) Predict(imo overwatch.IMO, track []vessel.TrackPoint, d Declaration) (Prediction, bool) {
	p, ok := Predict(f.Input(imo, track, d))
	p.IMO, p.Category = imo, f.kind[imo]
	return p, ok
}

// Waits is each port's recent median wait at anchor, in hours.
func (f *Fleet) Waits() map[string]float64 { return f.waits }
