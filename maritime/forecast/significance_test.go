package forecast

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// poisson draws a Poisson count of mean lambda (Knuth's method).
func poisson(r *rand.Rand, lambda float64) int {
	l, k, p := math.Exp(-lambda), 0, 1.0
	for {
		if p *= r.Float64(); p <= l {
			return k
		}
		k++
	}
}

// vesselSeries is two years of a port whose loading vessels are Poisson
// of mean lambda a week, each loading 40,000 t ± 20%; factors scale the
// mean of some weeks to exactly their count (an injected drop or surge).
func vesselSeries(seed uint64, lambda float64, factors map[int]float64) Series {
	r := rand.New(rand.NewPCG(seed, 2))
	rows := make([]Week, 2*Season)
	for i := range rows {
		n := poisson(r, lambda)
		if f, ok := factors[i]; ok { // the injected week: exactly its share
			n = int(math.Round(lambda * f))
		}
		tonnes := 0.0
		for range n {
			tonnes += 40000 * (0.8 + 0.4*r.Float64())
		}
		rows[i] = Week{Start: monday.Add(time.Duration(i) * week), Tonnes: tonnes, Vessels: float64(n)}
	}
	return NewSeries("p", rows)
}

func TestCountPValue(t *testing.T) {
	for _, c := range []struct {
		x, total float64
		refs     int
		lo, hi   float64
	}{
		{10, 10, 1, 1, 1},           // the same count: no evidence
		{0, 0, 8, 1, 1},             // nothing at all
		{2, 80, 8, 0.005, 0.02},     // 2 against 10 a week: P(X ≤ 2), X ~ Bin(82, 1/9), twice
		{25, 80, 8, 0, 0.001},       // 25 against 10 a week
		{3, 2.6 * 8, 8, 0.5, 1},     // ordinary at 2.6 a week
		{1e6, 8e6, 8, 0.99, 1},      // the normal approximation, no deviation
		{1.2e6, 8e6, 8, 0, 1e-9},    // and a large one
		{math.NaN(), 10, 1, 0, 0.1}, // NaN counts as 0
	} {
		if p := CountPValue(c.x, c.total, c.refs); !(p >= c.lo && p <= c.hi) {
			t.Errorf("CountPValue(%v, %v, %d) = %v, want [%v, %v]", c.x, c.total, c.refs, p, c.lo, c.hi)
		}
	}
}

// A thin port's ordinary Poisson swings (2–3 vessels a week, ±60% of the
// tonnes from week to week) are not anomalies: the percentage thresholds
// alone would flag about a third of its weeks.
func TestDetectPoissonNoiseThinPort(t *testing.T) {
	weeks, found := 0, 0
	for seed := range uint64(20) {
		s := vesselSeries(seed, 2+float64(seed%3)*0.5, nil)
		weeks += len(s.Weeks)
		found += len(Detect(s))
	}
	// 20 ports × 104 weeks × 4 types: at most one in 200 judgements (26
	// now: about one a year and port, all types together).
	t.Logf("%d anomalies in %d judgements", found, weeks*4)
	if found > weeks*4/200 {
		t.Errorf("%d anomalies in %d weeks of Poisson noise", found, weeks)
	}
}

// An injected drop to 0.2 or surge to 2.5 at a busy port (12 vessels a
// week) is found, in its direction, by the types whose history covers it:
// at least 90% of them over five ports (a single week's count is itself
// Poisson: a yoy reference week of 8 vessels leaves a drop to 2 at
// p ≈ 0.1). Elsewhere the busy port's ordinary weeks reach the 0.05 level
// of a judgement now and then, so at most 5% of the judgements flag them.
func TestDetectInjectedAtBusyPort(t *testing.T) {
	const drop, surge, early = 80, 95, 30 // early: the first year, trailing only
	want, found, others, judged := 0, 0, 0, 0
	for seed := range uint64(5) {
		s := vesselSeries(seed, 12, map[int]float64{drop: 0.2, surge: 2.5, early: 0.2})
		got := map[int]map[string]string{drop: {}, surge: {}, early: {}}
		for _, a := range Detect(s) {
			i := int(a.Week.Sub(monday) / week)
			if m, ok := got[i]; ok {
				m[a.Type] = a.Direction
			} else {
				others++
			}
		}
		judged += 4 * len(s.Weeks)
		for i, dir := range map[int]string{drop: "drop", surge: "surge", early: "drop"} {
			types := Types
			if i == early {
				types = []string{TypeTrailing}
			}
			for _, typ := range types {
				want++
				switch got[i][typ] {
				case dir:
					found++
				case "":
				default:
					t.Errorf("seed %d, week %d: %s in the wrong direction: %v", seed, i, typ, got[i])
				}
			}
			if i == early && len(got[i]) > 1 {
				t.Errorf("seed %d: a first-year week judged by a seasonal type: %v", seed, got[i])
			}
		}
	}
	t.Logf("found %d of %d injected (type, week) pairs; %d other anomalies in %d judgements", found, want, others, judged)
	if found*10 < want*9 {
		t.Errorf("found %d of %d injected (type, week) pairs", found, want)
	}
	if others*20 > judged {
		t.Errorf("%d anomalies at weeks not injected, of %d judgements", others, judged)
	}
}

func TestDispersion(t *testing.T) {
	if d := Dispersion(vesselSeries(3, 10, nil).Vessels()); d < 0.7 || d > 1.3 {
		t.Errorf("Poisson counts: dispersion %.2f, want about 1", d)
	}
	steady := make([]float64, 30)
	for i := range steady {
		steady[i] = 5
	}
	if d := Dispersion(steady); d != MinDispersion {
		t.Errorf("steady counts: dispersion %v", d)
	}
	if d := Dispersion([]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 3}); d != 1 {
		t.Errorf("no reference: dispersion %v", d)
	}
}
