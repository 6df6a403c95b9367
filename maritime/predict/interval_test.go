package predict

import (
	"math"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portcall"
	"overwatch/maritime/tracktest"
	"overwatch/testclock"
)

// errs is n errors spread evenly over [lo, hi] hours.
func errs(togo float64, basis string, n int, lo, hi float64) []ErrorSample {
	var out []ErrorSample
	for i := range n {
		out = append(out, ErrorSample{ToGoH: togo, Basis: basis, ErrH: lo + (hi-lo)*float64(i)/float64(n-1)})
	}
	return out
}

func TestCalibrateQuantilesByHorizonAndKindWithFallbacks(t *testing.T) {
	var samples []ErrorSample
	samples = append(samples, errs(10, BasisLane, 21, 0, 10)...)             // ≤24 h, lane: 10th 1, 90th 9
	samples = append(samples, errs(30, BasisDeclaredAgrees, 21, -2, 2)...)   // ≤48 h, declared agreeing
	samples = append(samples, errs(30, BasisLane, 5, 100, 100)...)           // ≤48 h, lane: too few alone
	samples = append(samples, errs(100, BasisDeclaredDiffers, 19, -5, 5)...) // ≤7 d: too few
	samples = append(samples, errs(500, BasisLane, 50, -1, 1)...)            // beyond 7 days: no bucket
	c := Calibrate(samples)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if s, ok := c.Spread(20, BasisLane); !ok || !near(s.Low, 1) || !near(s.High, 9) || s.N != 21 {
		t.Fatalf("≤24 h lane spread %+v %v, want [1, 9] of 21", s, ok)
	}
	if s, ok := c.Spread(47, BasisDeclaredAgrees); !ok || !near(s.Low, -1.6) || !near(s.High, 1.6) || s.N != 21 {
		t.Fatalf("≤48 h declared spread %+v %v, want [-1.6, 1.6] of 21", s, ok)
	}
	// the lane bucket at ≤48 h has 5 errors: the horizon's 26 over every kind
	if s, ok := c.Spread(47, BasisLane); !ok || s.N != 26 || s.High != 100 {
		t.Fatalf("≤48 h lane spread %+v %v, want the horizon's 26 errors", s, ok)
	}
	if s, ok := c.Spread(100, BasisDeclaredDiffers); ok {
		t.Fatalf("a bucket of 19 errors was used: %+v", s)
	}
	if s, ok := c.Spread(500, BasisLane); ok {
		t.Fatalf("an ETA beyond 7 days was calibrated: %+v", s)
	}
	if _, ok := (*Calibration)(nil).Spread(20, BasisLane); ok {
		t.Fatal("a nil calibration answered")
	}
}

func TestPredictIntervalIsTheETAPlusMeasuredError(t *testing.T) {
	in, _, _ := voyage(t, 380)
	in.Declared = "FOR ORDERS"
	fixed, ok := Predict(in)
	if !ok || fixed.Next[0].Port != "santos" {
		t.Fatalf("no Santos prediction: %+v", fixed.Next)
	}
	togo := fixed.Next[0].ETA.Sub(in.AsOf).Hours()
	if b := horizonBucket(togo); b != 1 && b != 2 {
		t.Fatalf("the ETA is %.1f h ahead; the test wants the 48 or 72 h bucket", togo)
	}
	// measured: between 2 h early and 6 h late (10th and 90th percentiles
	// -1.2 and 5.2 h), much wider than the fixed spread
	in.Calibration = Calibrate(errs(togo, BasisLane, 41, -2, 6))
	p, _ := Predict(in)
	top := p.Next[0]
	if top.basis != BasisLane || !top.ETA.Equal(fixed.Next[0].ETA) {
		t.Fatalf("basis %q ETA %s, want lane and the same ETA %s", top.basis, top.ETA, fixed.Next[0].ETA)
	}
	wantLo := top.ETA.Add(-72 * time.Minute)
	wantHi := top.ETA.Add(312 * time.Minute)
	if d := top.ETALow.Sub(wantLo); d.Abs() > time.Minute {
		t.Fatalf("eta_low %s, want the ETA − 1.2 h %s", top.ETALow, wantLo)
	}
	if d := top.ETAHigh.Sub(wantHi); d.Abs() > time.Minute {
		t.Fatalf("eta_high %s, want the ETA + 5.2 h %s", top.ETAHigh, wantHi)
	}
	// errors all late: the interval still holds the ETA
	in.Calibration = Calibrate(errs(togo, BasisLane, 41, 2, 6))
	p, _ = Predict(in)
	if top := p.Next[0]; !top.ETALow.Equal(top.ETA) || top.ETAHigh.Sub(top.ETA) < 5*time.Hour {
		t.Fatalf("late errors: [%s, %s] around %s", top.ETALow, top.ETAHigh, top.ETA)
	}
}

func TestPredictDeclaredETAKind(t *testing.T) {
	in, _, arrival := voyage(t, 380)
	for _, c := range []struct {
		off  time.Duration
		want string
	}{{time.Hour, BasisDeclaredAgrees}, {10 * time.Hour, BasisDeclaredDiffers}} {
		eta := arrival.Add(c.off)
		in.DeclaredETA = &eta
		p, _ := Predict(in)
		if p.Next[0].basis != c.want {
			t.Fatalf("declared ETA %s off: kind %q, want %q", c.off, p.Next[0].basis, c.want)
		}
	}
}

func TestCalibrationSamplesOnlyFromArrivalsBeforeTheInstant(t *testing.T) {
	t0 := testclock.Now().Truncate(time.Hour)
	imo := overwatch.IMO(9300001)
	calls := []portcall.Call{
		{IMO: imo, Port: "santos", Confidence: portcall.PublishConfidence, Arrival: t0.Add(-24 * time.Hour), Departure: tracktest.Ptr(t0.Add(-20 * time.Hour))},
		{IMO: imo, Port: "rotterdam", Confidence: portcall.PublishConfidence, Arrival: t0.Add(30 * time.Hour)},
		{IMO: imo + 1, Port: "santos", Confidence: portcall.PublishConfidence, Arrival: t0.Add(50 * time.Hour)}, // after the end
	}
	next := nextCalls(calls, t0, t0.Add(48*time.Hour))
	if len(next) != 1 || next[imo].Port != "rotterdam" {
		t.Fatalf("next calls %+v, want only the Rotterdam arrival before the end", next)
	}
	eta := t0.Add(28 * time.Hour)
	p := Prediction{IMO: imo, AsOf: t0, Next: []NextPort{{Port: "rotterdam", ETA: eta, basis: BasisLane}}}
	s, ok := sampleOf(p, next)
	if !ok || s.ToGoH != 28 || s.ErrH != 2 || s.Basis != BasisLane {
		t.Fatalf("sample %+v %v, want 28 h ahead, 2 h late, lane", s, ok)
	}
	p.IMO = imo + 1
	if _, ok := sampleOf(p, next); ok {
		t.Fatal("a sample from an arrival after the end")
	}
	p.IMO, p.Next[0].Port = imo, "santos"
	if _, ok := sampleOf(p, next); ok {
		t.Fatal("a sample from a wrong first port")
	}
}
