package predict

import (
	"math"
	"sort"
	"time"
)

// Case is one vessel's prediction as of an instant next to what followed:
// the port of its next call and when it arrived there. Declared and
// Frequent are the baselines' answers (Port "" when they had none).
type Case struct {
	Prediction Prediction
	Declared   NextPort
	Frequent   NextPort
	Port       string    // the next call's port
	Arrival    time.Time // the next call's arrival
}

// Horizons are the arrival horizons the ETA error is measured over:
// arrivals within 24, 48 and 72 hours and 7 days of the prediction.
var Horizons = []time.Duration{24 * time.Hour, 48 * time.Hour, 72 * time.Hour, 7 * 24 * time.Hour}

// Score is one predictor's accuracy over the cases.
type Score struct {
	Cases int      `json:"cases"`
	Top1  *float64 `json:"top1"` // share of cases whose first port was the next call's
	// Top3 is the share whose next call was one of the ports predicted.
	Top3     *float64       `json:"top3,omitempty"`
	Horizons []HorizonScore `json:"horizons"`
}

// HorizonScore is the ETA accuracy over the arrivals within a horizon of
// the prediction, on the cases whose first port was right.
type HorizonScore struct {
	Hours int `json:"hours"`
	// Cases is how many next calls arrived within the horizon.
	Cases int      `json:"cases"`
	Top1  *float64 `json:"top1"`
	// ETAs is how many of them had the right first port with an ETA.
	ETAs           int      `json:"etas"`
	MedianErrorH   *float64 `json:"median_error_hours"`
	MeanErrorH     *float64 `json:"mean_error_hours"`
	IntervalCover  *float64 `json:"interval_coverage,omitempty"` // share of arrivals inside [eta_low, eta_high]
	intervalInside int
}

// Accuracy is the predictor's score next to the two baselines'.
type Accuracy struct {
	Predictor Score `json:"predictor"`
	Declared  Score `json:"declared_baseline"`
	Frequent  Score `json:"frequent_baseline"`
}

// Backtest scores the predictor and both baselines over the cases.
func Backtest(cases []Case) Accuracy {
	var acc Accuracy
	var pred, decl, freq []guess
	for _, c := range cases {
		g := guess{asOf: c.Prediction.AsOf, port: c.Port, arrival: c.Arrival}
		pg := g
		if len(c.Prediction.Next) > 0 {
			n := c.Prediction.Next[0]
			pg.first, pg.eta, pg.lo, pg.hi, pg.interval = n.Port, n.ETA, n.ETALow, n.ETAHigh, true
			for _, o := range c.Prediction.Next {
				if o.Port == c.Port {
					pg.inTop3 = true
				}
			}
		}
		pred = append(pred, pg)
		dg := g
		dg.first, dg.eta = c.Declared.Port, c.Declared.ETA
		decl = append(decl, dg)
		fg := g
		fg.first, fg.eta = c.Frequent.Port, c.Frequent.ETA
		freq = append(freq, fg)
	}
	acc.Predictor = score(pred, true)
	acc.Declared = score(decl, false)
	acc.Frequent = score(freq, false)
	return acc
}

type guess struct {
	asOf, arrival    time.Time
	port, first      string
	eta, lo, hi      time.Time
	interval, inTop3 bool
}

func score(gs []guess, top3 bool) Score {
	s := Score{Cases: len(gs)}
	right, in3 := 0, 0
	for _, g := range gs {
		if g.first == g.port {
			right++
		}
		if g.inTop3 {
			in3++
		}
	}
	if len(gs) > 0 {
		s.Top1 = ptr(round(float64(right)/float64(len(gs)), 4))
		if top3 {
			s.Top3 = ptr(round(float64(in3)/float64(len(gs)), 4))
		}
	}
	for _, h := range Horizons {
		hs := HorizonScore{Hours: int(h.Hours())}
		var errs []float64
		hit := 0
		for _, g := range gs {
			if g.arrival.Sub(g.asOf) > h {
				continue
			}
			hs.Cases++
			if g.first != g.port {
				continue
			}
			hit++
			if g.eta.IsZero() {
				continue
			}
			errs = append(errs, math.Abs(g.eta.Sub(g.arrival).Hours()))
			if g.interval && !g.arrival.Before(g.lo) && !g.arrival.After(g.hi) {
				hs.intervalInside++
			}
		}
		hs.ETAs = len(errs)
		if hs.Cases > 0 {
			hs.Top1 = ptr(round(float64(hit)/float64(hs.Cases), 4))
		}
		if len(errs) > 0 {
			sort.Float64s(errs)
			hs.MedianErrorH = ptr(round(median(errs), 2))
			sum := 0.0
			for _, e := range errs {
				sum += e
			}
			hs.MeanErrorH = ptr(round(sum/float64(len(errs)), 2))
			if top3 {
				hs.IntervalCover = ptr(round(float64(hs.intervalInside)/float64(len(errs)), 4))
			}
		}
		s.Horizons = append(s.Horizons, hs)
	}
	return s
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func ptr(v float64) *float64 { return &v }
