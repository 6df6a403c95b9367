package accuracy

import (
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/apptest"
	"overwatch/maritime/sealane"
	"overwatch/read"
	"overwatch/write/sim"
)

// The accuracy of the next-port and ETA predictions against the
// simulator's truth: a seeded simulation through the real pipeline, the
// port calls derived by the jobs command, and every vessel's prediction as
// of an instant three days before the data ends read from the real
// server's API (GET /v1/predictions?as_of=, predicted on read from the
// data before that instant), then compared with the true next call.
//
// OVERWATCH_ACCURACY_PREDICTIONS chooses the run: smoke (make test: the
// detectors' smoke fleet, seed 31, 300 vessels over 21 days, default
// sampling, read again rather than simulated again; floors well below the
// targets), full (seed 41) (make accuracy: the default fleet of 800 vessels over 30
// days, default and sparse sampling, the targets asserted). Unset, the
// test is skipped.
//
// Scope: the vessels the predictor calls under way that the truth has at
// sea at the instant (not inside a call) and whose true next call arrives
// before the data ends. Top-1 is the share whose first port is the true
// next port; the ETA error is |eta − true arrival| (entry into the port
// area) over the right first ports, by the true arrival's horizon; the
// 80% interval's coverage the share of those arrivals in [eta_low,
// eta_high]. The baselines, on the same vessels: the declared destination
// and ETA as broadcast (the prediction's evidence); the vessel's most
// frequent next port after its last true port in its true history before
// the instant, with the sea-lane distance from its last port at the
// vessel's recent speed from its departure.
func TestAccuracyPredictions(t *testing.T) {
	type plan struct {
		seed          uint64
		vessels, days int
		settings      []accSetting
		strict        bool
	}
	var p plan
	switch mode := os.Getenv("OVERWATCH_ACCURACY_PREDICTIONS"); mode {
	case "smoke": // the detectors' smoke fleet (seed, size, setting): simulated once for both (sharedFleet)
		p = plan{seed: 31, vessels: 300, days: 21, settings: accSettings[:1]}
	case "full":
		p = plan{seed: 41, vessels: 800, days: 30, settings: []accSetting{accSettings[0], accSettings[2]}, strict: true}
	case "":
		t.Skip("OVERWATCH_ACCURACY_PREDICTIONS is unset: make test runs smoke, make accuracy full")
	default:
		t.Fatalf("OVERWATCH_ACCURACY_PREDICTIONS=%q: want smoke or full", mode)
	}
	var md strings.Builder
	only := os.Getenv("OVERWATCH_ACCURACY_SETTINGS") // e.g. sparse
	for _, st := range p.settings {
		if only != "" && !strings.Contains(","+only+",", ","+st.name+",") {
			continue
		}
		t.Run(st.name, func(t *testing.T) {
			sc := predictionAccuracyRun(t, st, p.seed, p.vessels, p.days)
			text := sc.table()
			t.Logf("predictions against the truth, %s sampling, %d vessels over %d days, as of 3 and 7 days before the end (%s):\n%s",
				st.name, p.vessels, p.days, sc.asOf.Format(time.RFC3339), text)
			fmt.Fprintf(&md, "### %s sampling (%d vessels, %d days, as of 3 and 7 days before the end)\n\n%s\n", st.name, p.vessels, p.days, sc.markdown())
			for _, miss := range sc.misses(p.strict) {
				t.Error(miss)
			}
		})
	}
	if out := os.Getenv("OVERWATCH_ACCURACY_OUT"); out != "" && md.Len() > 0 {
		if err := os.WriteFile(out, []byte(md.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// predictionAccuracyRun simulates, derives the port calls, serves, reads
// every prediction as of three days before the end and scores it.
func predictionAccuracyRun(t *testing.T, st accSetting, seed uint64, vessels, days int) *predScore {
	r := sharedFleet(t, fmt.Sprintf("acc_pred_%s_%d", st.name, seed), seed, vessels, days, st.flags...)
	r.Command(t, io.Discard, "jobs", "--job", "port_calls")
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL})
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	truth := apptest.ReadTruth(t, r.TruthPath)
	// as of three days before the end (the arrivals within 72 hours), and
	// seven days before it for the arrivals of the 7-day horizon
	var sc *predScore
	for _, back := range []time.Duration{72 * time.Hour, 7 * 24 * time.Hour} {
		asOf := r.End.Add(-back)
		preds := apptest.FetchPredictions(t, s, key, "as_of="+url.QueryEscape(asOf.Format(time.RFC3339)))
		sc = scorePredictions(t, sc, truth, preds, r.Start, asOf, r.End)
	}
	s.Stop()
	return sc
}

// predScore is the scored predictions of one run.
type predScore struct {
	asOf                 time.Time
	underWay, predicted  int // at sea per the truth with a next call; of them predicted
	inPort               int // predicted but inside a true call at the instant
	pred, declared, freq predTally
	horizons             []time.Duration
}

// predTally is one predictor's hits and ETA errors by horizon.
type predTally struct {
	cases, right int
	byH          []predHorizon
}

type predHorizon struct {
	cases, right    int
	errs            []float64
	inside, counted int
}

func newTally(n int) predTally { return predTally{byH: make([]predHorizon, n)} }

// add records one guess: its port, its ETA (zero: none), its interval.
func (p *predTally) add(hs []time.Duration, asOf time.Time, truth sim.PortCall, port string, eta, lo, hi time.Time) {
	p.cases++
	ok := port == truth.Port
	if ok {
		p.right++
	}
	for i, h := range hs {
		if truth.Arrival.Sub(asOf) > h {
			continue
		}
		b := &p.byH[i]
		b.cases++
		if !ok {
			continue
		}
		b.right++
		if eta.IsZero() {
			continue
		}
		b.errs = append(b.errs, math.Abs(eta.Sub(truth.Arrival).Hours()))
		if !lo.IsZero() {
			b.counted++
			if !truth.Arrival.Before(lo) && !truth.Arrival.After(hi) {
				b.inside++
			}
		}
	}
}

// scorePredictions adds the predictions as of asOf to sc (nil: a new
// score).
func scorePredictions(t *testing.T, sc *predScore, truth []sim.Truth, preds []read.Prediction, start, asOf, end time.Time) *predScore {
	hs := []time.Duration{24 * time.Hour, 48 * time.Hour, 72 * time.Hour, 7 * 24 * time.Hour}
	if sc == nil {
		sc = &predScore{asOf: asOf, horizons: hs, pred: newTally(len(hs)), declared: newTally(len(hs)), freq: newTally(len(hs))}
	}
	debug := os.Getenv("EVAL_DEBUG") != ""
	calls := map[overwatch.IMO][]sim.PortCall{}
	for _, tr := range truth {
		if tr.Type == "port_call" && tr.Call != nil {
			calls[tr.Vessels[0]] = append(calls[tr.Vessels[0]], *tr.Call)
		}
	}
	for _, cs := range calls {
		sort.Slice(cs, func(i, j int) bool { return cs[i].Arrival.Before(cs[j].Arrival) })
	}
	byIMO := map[overwatch.IMO]read.Prediction{}
	for _, p := range preds {
		imo, _ := overwatch.ParseIMO(p.IMONumber)
		byIMO[imo] = p
	}
	for imo, cs := range calls {
		var last, next *sim.PortCall
		in := false
		for i := range cs {
			c := &cs[i]
			if c.Arrival.Before(asOf) && c.Departure.After(asOf) {
				in = true
			}
			if !c.Arrival.After(asOf) && c.Departure.Before(asOf) {
				last = c
			}
			if c.Arrival.After(asOf) && next == nil {
				next = c
			}
		}
		p, ok := byIMO[imo]
		if in {
			if ok {
				sc.inPort++
			}
			continue
		}
		if next == nil || !next.Arrival.Before(end) {
			continue
		}
		sc.underWay++
		if !ok || len(p.NextPorts) == 0 {
			// not predicted: a miss for the predictor, scored as a wrong port
			sc.pred.add(hs, asOf, *next, "", time.Time{}, time.Time{}, time.Time{})
		} else {
			sc.predicted++
			n := p.NextPorts[0]
			if debug && n.Port != next.Port {
				t.Logf("miss %s as of %s: predicted %+v, true %s at %s (declared %q, last %s, on lanes %v, reliability %v)", imo, asOf.Format(time.RFC3339),
					p.NextPorts, next.Port, next.Arrival.Format(time.RFC3339), p.Evidence.Declared, p.Evidence.LastPort, p.Evidence.OnLaneTo, p.Evidence.Reliability)
			}
			sc.pred.add(hs, asOf, *next, n.Port, ts(n.ETA), ts(n.ETALow), ts(n.ETAHigh))
		}
		// the declared baseline, from the evidence the API returned
		dport, deta := "", time.Time{}
		if ok {
			dport = p.Evidence.DeclaredPort
			if p.Evidence.DeclaredETA != nil && p.Evidence.DeclaredETA.After(asOf) {
				deta = *p.Evidence.DeclaredETA
			}
		}
		sc.declared.add(hs, asOf, *next, dport, deta, time.Time{}, time.Time{})
		// the frequent baseline, from the true history
		fport, feta := "", time.Time{}
		if last != nil {
			seen, recent := map[string]int{}, map[string]int{}
			for i := 1; i < len(cs); i++ {
				if cs[i].Arrival.After(asOf) || cs[i-1].Arrival.Before(start) {
					continue
				}
				if cs[i-1].Port == last.Port {
					seen[cs[i].Port]++
					recent[cs[i].Port] = i
				}
			}
			for port, n := range seen {
				if fport == "" || n > seen[fport] || n == seen[fport] && recent[port] > recent[fport] {
					fport = port
				}
			}
			if fport != "" && ok && p.Evidence.SpeedKn > 0 {
				if d, err := sealane.DistanceNM(last.Port, fport); err == nil {
					feta = last.Departure.Add(time.Duration(d / p.Evidence.SpeedKn * float64(time.Hour)))
				}
			}
		}
		sc.freq.add(hs, asOf, *next, fport, feta, time.Time{}, time.Time{})
	}
	return sc
}

func ts(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

func (p predTally) top1() float64 { return ratio(p.right, p.cases) }

func (b predHorizon) median() float64 {
	if len(b.errs) == 0 {
		return math.NaN()
	}
	e := append([]float64(nil), b.errs...)
	sort.Float64s(e)
	if n := len(e); n%2 == 1 {
		return e[n/2]
	} else {
		return (e[n/2-1] + e[n/2]) / 2
	}
}

func (sc *predScore) rows() [][]string {
	var out [][]string
	out = append(out, []string{"vessels at sea with a next call", fmt.Sprint(sc.underWay), "", ""})
	out = append(out, []string{"of them predicted (under way)", fmt.Sprint(sc.predicted), "", ""})
	out = append(out, []string{"top-1 next port", f3(sc.pred.top1()), f3(sc.declared.top1()), f3(sc.freq.top1())})
	for i, h := range sc.horizons {
		p, d, f := sc.pred.byH[i], sc.declared.byH[i], sc.freq.byH[i]
		label := fmt.Sprintf("≤%d h", int(h.Hours()))
		out = append(out, []string{label + ": top-1 (arrivals)", fmt.Sprintf("%s (%d)", f3(ratio(p.right, p.cases)), p.cases),
			f3(ratio(d.right, d.cases)), f3(ratio(f.right, f.cases))})
		out = append(out, []string{label + ": median ETA error, h (ETAs)", fmt.Sprintf("%.2f (%d)", p.median(), len(p.errs)),
			fmt.Sprintf("%.2f (%d)", d.median(), len(d.errs)), fmt.Sprintf("%.2f (%d)", f.median(), len(f.errs))})
		out = append(out, []string{label + ": 80% interval holds", f3(ratio(p.inside, p.counted)), "", ""})
	}
	return out
}

func f3(v float64) string { return fmt.Sprintf("%.3f", v) }

func (sc *predScore) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-40s %-16s %-16s %-16s\n", "", "predictor", "declared", "most frequent")
	for _, r := range sc.rows() {
		fmt.Fprintf(&b, "%-40s %-16s %-16s %-16s\n", r[0], r[1], r[2], r[3])
	}
	return b.String()
}

func (sc *predScore) markdown() string {
	var b strings.Builder
	b.WriteString("| measure | predictor | declared destination | most frequent next port |\n|---|---|---|---|\n")
	for _, r := range sc.rows() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r[0], r[1], r[2], r[3])
	}
	return b.String()
}

// misses are the targets the run did not reach: strict, the issue's
// targets (top-1 ≥ 0.85; median ETA error ≤ 4 h within 72 h and ≤ 12 h
// within 7 days; the interval holding 75–85%; better than both
// baselines); otherwise floors that catch a broken predictor.
func (sc *predScore) misses(strict bool) []string {
	var out []string
	top, med72, med7d, covLo, covHi := 0.7, 8.0, 24.0, 0.6, 0.995
	if strict {
		top, med72, med7d, covLo, covHi = 0.85, 4, 12, 0.75, 0.85
	}
	if sc.underWay < 20 {
		return []string{fmt.Sprintf("only %d vessels at sea with a next call", sc.underWay)}
	}
	if v := sc.pred.top1(); v < top {
		out = append(out, fmt.Sprintf("top-1 %.3f below %.2f", v, top))
	}
	if m := sc.pred.byH[2].median(); !(m <= med72) {
		out = append(out, fmt.Sprintf("median ETA error within 72 h %.2f h above %.0f h", m, med72))
	}
	if m := sc.pred.byH[3].median(); !(m <= med7d) {
		out = append(out, fmt.Sprintf("median ETA error within 7 days %.2f h above %.0f h", m, med7d))
	}
	b := sc.pred.byH[3]
	if c := ratio(b.inside, b.counted); c < covLo || c > covHi {
		out = append(out, fmt.Sprintf("the 80%% interval holds %.3f of the arrivals within 7 days, outside %.2f–%.2f", c, covLo, covHi))
	}
	if strict {
		if sc.pred.top1() <= sc.declared.top1() || sc.pred.top1() <= sc.freq.top1() {
			out = append(out, fmt.Sprintf("top-1 %.3f not above the baselines' %.3f and %.3f", sc.pred.top1(), sc.declared.top1(), sc.freq.top1()))
		}
		for i, h := range sc.horizons {
			p := sc.pred.byH[i].median()
			for name, b := range map[string]predHorizon{"declared": sc.declared.byH[i], "most frequent": sc.freq.byH[i]} {
				// a baseline's median over fewer than 10 right ports is not
				// a figure to beat
				if o := b.median(); len(b.errs) >= 10 && !(p < o) {
					out = append(out, fmt.Sprintf("within %d h the median ETA error %.2f h is not below the %s baseline's %.2f h", int(h.Hours()), p, name, o))
				}
			}
		}
	}
	return out
}
