package forecast

import (
	"math"
	"sort"
)

// The count test of the anomalies: a week's exports are a handful of
// loading vessels, whose ordinary week-to-week swing (Poisson: ±60% at
// 2–3 vessels) crosses the percentage thresholds all the time. A deviation
// is an anomaly only when the week's vessel count is itself improbable
// under the reference's rate, the counts' noise being Poisson scaled by the
// port's own dispersion (quasi-Poisson), among all the weeks a type judges
// (a false-discovery rate: DetectAll, docs/forecasts.md).

// Count test settings.
const (
	// MinExpectedVessels: a week whose reference loads fewer vessels a
	// week than this on average is not judged (one vessel more or less is
	// already half the volume).
	MinExpectedVessels = 2
	// FalseDiscoveryRate is the expected share of false anomalies among
	// those a type flags (DetectAll): the p-values are the two-sided
	// probability of a vessel count at least as far from the reference's
	// rate, under the same Poisson rate in the week and in the reference
	// weeks.
	FalseDiscoveryRate = 0.10
	// MinDispersion is the least dispersion of a port's counts: a port
	// whose weekly counts hardly vary (a fixed schedule: the median
	// residual is then 0) is judged as if its counts varied this much
	// (half of Poisson's variance), so that the turn of a season at a
	// port that loaded the same few vessels for months is not judged
	// impossible.
	MinDispersion = 0.5
)

// Dispersion is the variance of a port's weekly vessel counts relative to
// Poisson's: over the weeks whose 8 weeks before loaded any vessel, the
// squared Pearson residuals (count − their mean)² / (their mean × (1 +
// 1/8)) (against the trailing mean, its own noise counted), whose median
// over that of a χ² of one degree of freedom (0.455) estimates it. The
// median, not the mean: the weeks to be judged (a closed port's empty
// week, its catch-up) must not widen the yardstick they are judged by.
// 1 for Poisson counts, above for bursty ports (harvests, seasons), below
// for scheduled ones; at least MinDispersion, and 1 when no week has such
// a reference.
func Dispersion(v []float64) float64 {
	var r []float64
	for t := TrailingWeeks; t < len(v); t++ {
		m := 0.0
		for _, c := range v[t-TrailingWeeks : t] {
			m += finite(c)
		}
		if m /= TrailingWeeks; m > 0 {
			d := finite(v[t]) - m
			if q := d * d / (m * (1 + 1.0/TrailingWeeks)); !math.IsInf(q, 0) {
				r = append(r, q)
			}
		}
	}
	if len(r) == 0 {
		return 1
	}
	sort.Float64s(r)
	med := r[len(r)/2]
	if len(r)%2 == 0 {
		med = (r[len(r)/2-1] + r[len(r)/2]) / 2
	}
	return math.Max(MinDispersion, med/chiSquare1Median)
}

// chiSquare1Median is the median of a χ² distribution of one degree of
// freedom.
const chiSquare1Median = 0.4549

// CountPValue is the two-sided p-value of x vessels in a week against a
// reference of refs weeks that loaded refTotal vessels together, under the
// hypothesis that both are Poisson with the same weekly rate. Conditioned
// on the total n = x + refTotal, the week's count is then binomial
// (n, 1/(refs+1)): the test accounts for the reference's own noise (a
// single reference week, as for yoy, is as noisy as the week judged).
// It is 1 when there is no reference or no vessel at all.
func CountPValue(x, refTotal float64, refs int) float64 {
	xi, si := int(math.Round(finite(x))), int(math.Round(finite(refTotal)))
	if refs < 1 || xi < 0 || si < 0 || xi+si == 0 {
		return 1
	}
	n, p := xi+si, 1/float64(refs+1)
	if n > maxExactCount { // the normal approximation
		z := (float64(xi) - float64(n)*p) / math.Sqrt(float64(n)*p*(1-p))
		return math.Erfc(math.Abs(z) / math.Sqrt2)
	}
	lower, upper := 0.0, 0.0 // P(X ≤ x), P(X ≥ x)
	for k := 0; k <= n; k++ {
		pk := binomialPMF(k, n, p)
		if k <= xi {
			lower += pk
		}
		if k >= xi {
			upper += pk
		}
	}
	return math.Min(1, 2*math.Min(lower, upper))
}

// maxExactCount is the largest vessel total whose binomial tail is summed
// exactly (beyond it, no port's weekly counts: the normal approximation).
const maxExactCount = 1000

// binomialPMF is P(X = k) for X ~ Binomial(n, p), 0 < p < 1.
func binomialPMF(k, n int, p float64) float64 {
	ln, _ := math.Lgamma(float64(n + 1))
	lk, _ := math.Lgamma(float64(k + 1))
	lnk, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(ln - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// countTest is the p-value of a week of obs vessels against reference
// weeks that loaded ref vessels, at a port of dispersion phi: the counts
// divided by phi (whose variance is then their mean) go through the
// Poisson test of CountPValue. ok is false when the counts deviate in the
// other direction than surge says (or there is no reference).
func countTest(obs float64, ref []float64, surge bool, phi float64) (p float64, ok bool) {
	if len(ref) == 0 {
		return 1, false
	}
	total := 0.0
	for _, v := range ref {
		total += finite(v)
	}
	expected := total / float64(len(ref))
	if obs = finite(obs); surge != (obs > expected) {
		return 1, false
	}
	return CountPValue(obs/phi, total/phi, len(ref)), true
}

// benjaminiHochberg is the p-value bound of the Benjamini–Hochberg
// procedure at false-discovery rate q over m hypotheses, of which the
// p-values ps may be rejected (the others are never rejected, as if their
// p-values were 1): the largest p_(k) with p_(k) ≤ q·k/m, or -1 when none
// qualifies.
func benjaminiHochberg(ps []float64, m int, q float64) float64 {
	sorted := append([]float64(nil), ps...)
	sort.Float64s(sorted)
	bound := -1.0
	for k, p := range sorted {
		if p <= q*float64(k+1)/float64(max(m, len(ps))) {
			bound = p
		}
	}
	return bound
}
