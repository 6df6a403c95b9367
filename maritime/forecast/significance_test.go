package forecast

import (
	"fmt"
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

// A closure (no vessel) or a surge to 2.5 at a busy port (12 vessels a
// week, Poisson) is found, in its direction, by the types whose history
// covers it: at least 80% of them over five ports. Each type holds its
// anomalies to a false-discovery rate over the two years' weeks
// (DetectAll), so a week must stand out of about a hundred: a yoy or
// seasonal reference of 3 weeks leaves a closure at p ≈ 0.001, near the
// bound. Elsewhere the busy port's ordinary weeks are flagged in at most
// one judgement in a hundred.
func TestDetectInjectedAtBusyPort(t *testing.T) {
	const drop, surge, early = 80, 95, 30 // early: the first year, trailing only
	want, found, others, judged := 0, 0, 0, 0
	for seed := range uint64(5) {
		s := vesselSeries(seed, 12, map[int]float64{drop: 0, surge: 2.5, early: 0})
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
	if found*10 < want*8 {
		t.Errorf("found %d of %d injected (type, week) pairs", found, want)
	}
	if others*100 > judged {
		t.Errorf("%d anomalies at weeks not injected, of %d judgements", others, judged)
	}
}

// The false-discovery rate holds over the ports judged together: forty
// Poisson ports of 4 to 12 vessels a week, six of the busiest closed for
// a week in the second year (each surging the week after), yield few
// other weeks (at most one in ten of the anomalies) and about half of the
// closures' 48 (type, week) pairs: with over 3,000 weeks judged per type
// and a dozen true ones, a week must reach p ≈ 3·10⁻⁴, which trailing and
// the seasonal types do for most closures at Poisson noise, yoy (three
// reference weeks) hardly (docs/forecasts.md).
func TestDetectAllPoolsThePorts(t *testing.T) {
	closures := map[string]int{"p07": 60, "p08": 66, "p16": 72, "p17": 78, "p25": 84, "p26": 90} // 11 and 12 a week
	var series []Series
	for i := range 40 {
		port := fmt.Sprintf("p%02d", i)
		var f map[int]float64
		if w, ok := closures[port]; ok {
			f = map[int]float64{w: 0, w + 1: 2.5}
		}
		s := vesselSeries(uint64(100+i), 4+float64(i%9), f)
		s.Port = port
		series = append(series, s)
	}
	right, wrong := 0, 0
	for _, a := range DetectAll(series) {
		i := int(a.Week.Sub(monday) / week)
		if w, ok := closures[a.Port]; ok && (i == w && a.Direction == "drop" || i == w+1 && a.Direction == "surge") {
			right++
		} else {
			wrong++
			t.Logf("other: %s week %d %s %s p=%.2g", a.Port, i, a.Type, a.Direction, a.PValue)
		}
	}
	t.Logf("the closures' weeks: %d of 48 (type, week) pairs; %d others", right, wrong)
	if right < 20 || wrong*9 > right {
		t.Errorf("pooled: %d of the closures' 48 pairs, %d others", right, wrong)
	}
}

func TestBenjaminiHochberg(t *testing.T) {
	for _, c := range []struct {
		ps   []float64
		m    int
		want float64
	}{
		{nil, 10, -1},
		{[]float64{0.2}, 10, -1},                    // 0.2 > 0.1·1/10
		{[]float64{0.005}, 10, 0.005},               // ≤ 0.01
		{[]float64{0.001, 0.015, 0.5}, 10, 0.015},   // 0.015 ≤ 0.1·2/10
		{[]float64{0.001, 0.025, 0.029}, 10, 0.029}, // step-up: 0.029 ≤ 0.03 carries 0.025
		{[]float64{0.5, 0.01}, 1, 0.01},             // m below the candidates: m = their count
	} {
		if got := benjaminiHochberg(c.ps, c.m, 0.1); got != c.want {
			t.Errorf("benjaminiHochberg(%v, %d) = %v, want %v", c.ps, c.m, got, c.want)
		}
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
	// A closed week and its catch-up do not widen the yardstick.
	v := vesselSeries(3, 10, map[int]float64{50: 0, 51: 3}).Vessels()
	if d := Dispersion(v); d < 0.6 || d > 1.4 {
		t.Errorf("Poisson counts with a closure: dispersion %.2f, want about 1", d)
	}
	if d := Dispersion([]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 3}); d != 1 {
		t.Errorf("no reference: dispersion %v", d)
	}
}
