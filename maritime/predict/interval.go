package predict

import (
	"time"

	"overwatch/maritime/portstats"
)

// The ETA's 80% interval comes from measured error: the predictor's own
// backtest on the history before the instant (predictions as of earlier
// instants against the calls that followed them) gives the 10th and 90th
// percentiles of the signed error (arrival − ETA) by horizon bucket and
// evidence kind, and the interval is the ETA plus those percentiles.

// Evidence kinds of an ETA.
const (
	// BasisLane is an ETA from the lane distance alone: no declared ETA for
	// the port, or one already past.
	BasisLane = "lane"
	// BasisDeclaredAgrees is an ETA blended with a declared ETA within
	// agreeHours of the lane's.
	BasisDeclaredAgrees = "declared_agrees"
	// BasisDeclaredDiffers is an ETA blended with a declared ETA more than
	// agreeHours from the lane's.
	BasisDeclaredDiffers = "declared_differs"
)

// agreeHours is how close a declared ETA must be to the lane's to agree.
const agreeHours = 3.0

// MinIntervalSamples is how many errors a bucket needs for its quantiles
// to be used: with fewer, the horizon's errors over every evidence kind,
// and with fewer still the fixed spread (σ = 0.2 h + 0.5% of the hours to
// go, [ETA − 1.28σ, ETA + 1.6·1.28σ]).
const MinIntervalSamples = 20

// horizonBucket is the index in Horizons of the shortest horizon that
// holds the hours to go, or -1 beyond the last.
func horizonBucket(togoH float64) int {
	for i, h := range Horizons {
		if togoH <= h.Hours() {
			return i
		}
	}
	return -1
}

// ErrorSample is one backtest error: the ETA's hours to go from the
// prediction's instant, its evidence kind, and the arrival minus the ETA in
// hours (positive: late).
type ErrorSample struct {
	ToGoH float64
	Basis string
	ErrH  float64
}

// Spread is the 10th and 90th percentile of the signed error, in hours,
// over N samples.
type Spread struct {
	Low, High float64
	N         int
}

// Calibration is the ETA error quantiles of a backtest by horizon bucket
// and evidence kind, and by horizon bucket over every kind.
type Calibration struct {
	byKind map[calKey]Spread
	byHor  map[int]Spread
}

type calKey struct {
	hor   int
	basis string
}

// Calibrate gathers the quantiles of the samples; buckets with fewer than
// MinIntervalSamples are left out.
func Calibrate(samples []ErrorSample) *Calibration {
	byKind := map[calKey][]float64{}
	byHor := map[int][]float64{}
	for _, s := range samples {
		h := horizonBucket(s.ToGoH)
		if h < 0 {
			continue
		}
		byKind[calKey{h, s.Basis}] = append(byKind[calKey{h, s.Basis}], s.ErrH)
		byHor[h] = append(byHor[h], s.ErrH)
	}
	c := &Calibration{byKind: map[calKey]Spread{}, byHor: map[int]Spread{}}
	spread := func(e []float64) Spread {
		return Spread{Low: portstats.Quantile(e, 0.1), High: portstats.Quantile(e, 0.9), N: len(e)}
	}
	for k, e := range byKind {
		if len(e) >= MinIntervalSamples {
			c.byKind[k] = spread(e)
		}
	}
	for h, e := range byHor {
		if len(e) >= MinIntervalSamples {
			c.byHor[h] = spread(e)
		}
	}
	return c
}

// Spread is the error quantiles for an ETA that many hours ahead of its
// kind: its bucket's, else its horizon's over every kind; false when
// neither has enough samples (or the calibration is nil).
func (c *Calibration) Spread(togoH float64, basis string) (Spread, bool) {
	if c == nil {
		return Spread{}, false
	}
	h := horizonBucket(togoH)
	if h < 0 {
		return Spread{}, false
	}
	if s, ok := c.byKind[calKey{h, basis}]; ok {
		return s, true
	}
	s, ok := c.byHor[h]
	return s, ok
}

// interval is the 80% interval of an ETA made as of asOf: the ETA plus the
// calibration's error quantiles, or the fixed spread sigma (hours) when it
// has too few samples; never before asOf, and always holding the ETA.
func interval(c *Calibration, asOf, at time.Time, basis string, sigma float64) (lo, hi time.Time) {
	if s, ok := c.Spread(at.Sub(asOf).Hours(), basis); ok {
		lo, hi = at.Add(hours(s.Low)), at.Add(hours(s.High))
	} else {
		lo, hi = at.Add(-hours(z80*sigma)), at.Add(hours(z80*sigma*lateSkew))
	}
	if lo.After(at) {
		lo = at
	}
	if hi.Before(at) {
		hi = at
	}
	if lo.Before(asOf) {
		lo = asOf
	}
	return lo, hi
}
