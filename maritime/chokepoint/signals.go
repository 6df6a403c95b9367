package chokepoint

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Signal kinds.
const (
	KindTransitDrop = "transit_drop"
	KindDiversion   = "diversion"
)

// The thresholds of the signals (docs/disruptions.md). A day is judged on
// the RecentDays ending with it against the norm of the BaselineDays
// before them (at least MinBaselineDays of data).
const (
	RecentDays      = 7
	BaselineDays    = 28
	MinBaselineDays = 21
	// MinNorm is the least norm (transits a day) a chokepoint must have
	// for its traffic to be judged.
	MinNorm = 1.0
	// DropRatio: a transit drop is recent traffic at or below this share
	// of the norm.
	DropRatio = 0.5
	// DiversionRatio: a diversion needs the chokepoint's traffic at or
	// below this share of its norm, and its alternative gaining at least
	// GainShare of the transits lost.
	DiversionRatio = 0.7
	GainShare      = 0.5
	// DropMaxP is the largest chance that plain variation of the norm
	// gives a recent count as low (a drop, or the fall of a diversion);
	// GainMaxP that it gives the alternative's recent count as high.
	DropMaxP = 0.001
	GainMaxP = 0.01
)

// Signal is a disruption read from the daily transits: on Day (the last
// day of the recent window), Recent and Norm are the chokepoint's
// transits a day in the recent window and its baseline; a diversion also
// names the Alternative with its own figures.
type Signal struct {
	Chokepoint  string
	Kind        string
	Day         time.Time
	Recent      float64
	Norm        float64
	Alternative string
	AltRecent   float64
	AltNorm     float64
	P           float64
}

// Title is the signal in words.
func (s Signal) Title() string {
	name := s.Chokepoint
	if c, ok := Named(s.Chokepoint); ok {
		name = c.Name
	}
	switch s.Kind {
	case KindDiversion:
		alt := s.Alternative
		if c, ok := Named(alt); ok {
			alt = c.Name
		}
		return fmt.Sprintf("%s: traffic diverted around %s (%.1f transits a day against a norm of %.1f; %s %.1f against %.1f)",
			name, alt, s.Recent, s.Norm, alt, s.AltRecent, s.AltNorm)
	default:
		return fmt.Sprintf("%s: transits down %.0f%% (%.1f a day over %d days against a norm of %.1f)",
			name, 100*(1-s.Recent/s.Norm), s.Recent, RecentDays, s.Norm)
	}
}

// Series is the daily transit totals of the chokepoints over the days the
// data covers ([From, To], UTC days; a day of the span without transits
// is a zero).
type Series struct {
	From, To time.Time
	totals   map[string]map[time.Time]int
}

// NewSeries sums counts by chokepoint and day over the span.
func NewSeries(counts []Count, from, to time.Time) *Series {
	s := &Series{From: from.UTC().Truncate(24 * time.Hour), To: to.UTC().Truncate(24 * time.Hour), totals: map[string]map[time.Time]int{}}
	for _, c := range counts {
		m := s.totals[c.Chokepoint]
		if m == nil {
			m = map[time.Time]int{}
			s.totals[c.Chokepoint] = m
		}
		m[c.Day.UTC().Truncate(24*time.Hour)] += c.Transits
	}
	return s
}

// window is the sum of a chokepoint's transits over n days ending with
// last, and how many of those days the data covers.
func (s *Series) window(cp string, last time.Time, n int) (sum, days int) {
	for i := 0; i < n; i++ {
		d := last.AddDate(0, 0, -i)
		if d.Before(s.From) || d.After(s.To) {
			continue
		}
		days++
		sum += s.totals[cp][d]
	}
	return sum, days
}

// stats is a chokepoint's recent and baseline traffic on a day, and the
// daily variance of the baseline (at least its mean: Poisson); ok is
// false when the data does not cover enough of them.
func (s *Series) stats(cp string, day time.Time) (recent, norm, variance float64, recentN int, ok bool) {
	r, rd := s.window(cp, day, RecentDays)
	b, bd := s.window(cp, day.AddDate(0, 0, -RecentDays), BaselineDays)
	if rd < RecentDays || bd < MinBaselineDays {
		return 0, 0, 0, 0, false
	}
	norm = float64(b) / float64(bd)
	var ss float64
	for i := 0; i < BaselineDays; i++ {
		d := day.AddDate(0, 0, -RecentDays-i)
		if d.Before(s.From) || d.After(s.To) {
			continue
		}
		x := float64(s.totals[cp][d]) - norm
		ss += x * x
	}
	variance = math.Max(norm, ss/float64(max(bd-1, 1)))
	return float64(r) / RecentDays, norm, variance, r, true
}

// lowP is the chance that the norm gives a recent count as low as n: the
// Poisson tail, or with overdispersed traffic (a baseline variance above
// its mean: ships come in waves) the normal tail of that variance,
// whichever is larger.
func lowP(n int, norm, variance float64) float64 {
	mean := norm * RecentDays
	p := poissonCDF(n, mean)
	if variance > norm {
		p = math.Max(p, 0.5*math.Erfc(-(float64(n)+0.5-mean)/math.Sqrt(2*variance*RecentDays)))
	}
	return p
}

// highP is the chance that the norm gives a recent count as high as n.
func highP(n int, norm, variance float64) float64 {
	mean := math.Max(norm, 0.1) * RecentDays
	p := 1 - poissonCDF(n-1, mean)
	if variance > norm {
		p = math.Max(p, 0.5*math.Erfc((float64(n)-0.5-mean)/math.Sqrt(2*variance*RecentDays)))
	}
	return p
}

// Signals judges each day: a transit drop where a chokepoint's recent
// traffic is at most DropRatio of a norm of at least MinNorm, and so low
// that the norm would give it with a chance below DropMaxP (lowP: Poisson, or
// the baseline's own day-to-day variance where it is larger); a diversion
// where its traffic is at most DiversionRatio of the norm (as unlikely)
// and its alternative's recent traffic exceeds the alternative's norm by
// at least GainShare of the transits lost, a chance below GainMaxP (highP).
func (s *Series) Signals(days []time.Time, cps []Chokepoint) []Signal {
	var out []Signal
	for _, day := range days {
		day = day.UTC().Truncate(24 * time.Hour)
		for _, c := range cps {
			recent, norm, variance, r, ok := s.stats(c.Slug, day)
			if !ok || norm < MinNorm {
				continue
			}
			p := lowP(r, norm, variance)
			if recent <= DropRatio*norm && p < DropMaxP {
				out = append(out, Signal{Chokepoint: c.Slug, Kind: KindTransitDrop, Day: day, Recent: recent, Norm: norm, P: p})
			}
			if c.Alternative == "" || recent > DiversionRatio*norm || p >= DropMaxP {
				continue
			}
			aRecent, aNorm, aVar, aR, ok := s.stats(c.Alternative, day)
			if !ok {
				continue
			}
			gain := aRecent - aNorm
			pa := highP(aR, aNorm, aVar)
			if gain >= GainShare*(norm-recent) && gain > 0 && pa < GainMaxP {
				out = append(out, Signal{Chokepoint: c.Slug, Kind: KindDiversion, Day: day, Recent: recent, Norm: norm,
					Alternative: c.Alternative, AltRecent: aRecent, AltNorm: aNorm, P: math.Max(p, pa)})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Day.Before(out[j].Day) })
	return out
}

// poissonCDF is P(X <= k) for X ~ Poisson(mean).
func poissonCDF(k int, mean float64) float64 {
	if k < 0 {
		return 0
	}
	if mean > 500 { // exp(-mean) underflows: the normal approximation
		return 0.5 * math.Erfc(-(float64(k)+0.5-mean)/math.Sqrt(2*mean))
	}
	term := math.Exp(-mean)
	sum := term
	for i := 1; i <= k; i++ {
		term *= mean / float64(i)
		sum += term
	}
	return math.Min(1, sum)
}

// Traffic is a chokepoint's transits a day over the recent window ending
// with day and its norm; ok is false when the data does not cover enough.
func (s *Series) Traffic(cp string, day time.Time) (recent, norm float64, ok bool) {
	recent, norm, _, _, ok = s.stats(cp, day.UTC().Truncate(24*time.Hour))
	return recent, norm, ok
}
