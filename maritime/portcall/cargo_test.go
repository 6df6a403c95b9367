package portcall

import (
	"math"
	"testing"

	"overwatch/maritime/vessel"
)

// panamax is a Panamax bulk carrier (ITU type 70, cargo) whose reported
// draughts have ranged from ballast 7.0 m to design 14.1 m.
var panamax = vessel.Profile{IMO: 9300001, Name: "PANAMAX ONE", Flag: "PA", ShipType: 70, LengthM: 225, BeamM: 32.2, MinDraftM: 7.0, MaxDraftM: 14.1}

// dwtFormula is EstimateDWT written out from its doc comment: LBP (97 %
// of the length overall) × beam × draught × Cb × seawater density × the
// category's deadweight/displacement ratio, rounded to 100 t.
func dwtFormula(cb, ratio, length, beam, draught float64) float64 {
	return math.Round(0.97*length*beam*draught*cb*1.025*ratio/100) * 100
}

func TestEstimateCargoPanamaxFullLoad(t *testing.T) {
	t.Parallel()
	dwt, ok := vessel.EstimateDWT(70, 225, 32.2, 14.1)
	if !ok {
		t.Fatal("EstimateDWT: no estimate")
	}
	if want := dwtFormula(0.84, 0.84, 225, 32.2, 14.1); dwt != want {
		t.Errorf("EstimateDWT = %.0f, the formula gives %.0f", dwt, want)
	}
	c := Call{DraftBefore: 7.0, DraftAfter: 14.1}
	EstimateCargo(&c, panamax)
	want := math.Round(0.96 * dwt) // the whole range: the whole payload
	if c.Operation != OpLoad || c.CargoQuality != CargoMeasured || c.DWTEstimate != dwt {
		t.Errorf("operation %q quality %q dwt %.0f; want load, measured, %.0f", c.Operation, c.CargoQuality, c.DWTEstimate, dwt)
	}
	if c.CargoTonnes != want {
		t.Errorf("cargo %.0f t, want 0.96 × %.0f = %.0f", c.CargoTonnes, dwt, want)
	}
	if c.CargoTonnes < 65000 || c.CargoTonnes > 72000 {
		t.Errorf("a full Panamax loads %.0f t, outside 65–72 kt", c.CargoTonnes)
	}
}

func TestEstimateCargo(t *testing.T) {
	t.Parallel()
	dwt, _ := vessel.EstimateDWT(70, 225, 32.2, 14.1)
	payload := 0.96 * dwt        // PayloadShare
	assumedBallast := 0.5 * 14.1 // DefaultBallastShare of the design draught
	noDims := panamax
	noDims.LengthM = 0
	noRange := panamax
	noRange.MinDraftM = 0
	narrow := panamax
	narrow.MinDraftM = 12.0 // 2.1 m of range: under MinRangeShare of 14.1
	for _, tc := range []struct {
		name          string
		v             vessel.Profile
		before, after float64
		op, quality   string
		tonnes        float64 // within 1 t
		dwt           float64
	}{
		{"full load", panamax, 7.0, 14.1, OpLoad, CargoMeasured, math.Round(payload), dwt},
		{"half load", panamax, 7.0, 10.55, OpLoad, CargoMeasured, payload / 2, dwt},
		{"half load from half", panamax, 10.55, 14.1, OpLoad, CargoMeasured, payload / 2, dwt},
		{"full discharge", panamax, 14.1, 7.0, OpDischarge, CargoMeasured, math.Round(payload), dwt},
		{"half discharge", panamax, 14.1, 10.55, OpDischarge, CargoMeasured, payload / 2, dwt},
		{"change of 0.3 m is an operation", panamax, 10.0, 10.3, OpLoad, CargoMeasured, payload * 0.3 / 7.1, dwt},
		{"7.0 to 7.3 m (0.29999… in floating point) is an operation", panamax, 7.0, 7.3, OpLoad, CargoMeasured, payload * 0.3 / 7.1, dwt},
		{"change of 0.2 m is none", panamax, 10.0, 10.2, OpNone, CargoMeasured, 0, dwt},
		{"change of 0.29 m is none", panamax, 10.0, 9.71, OpNone, CargoMeasured, 0, dwt},
		{"no change", panamax, 12.0, 12.0, OpNone, CargoMeasured, 0, dwt},
		{"no draught before", panamax, 0, 14.1, OpUnknown, CargoNoDraught, 0, dwt},
		{"no draught after", panamax, 7.0, 0, OpUnknown, CargoNoDraught, 0, dwt},
		{"no draughts", panamax, 0, 0, OpUnknown, CargoNoDraught, 0, dwt},
		{"no dimensions", noDims, 7.0, 14.1, OpUnknown, CargoNoDraught, 0, 0},
		{"no range: ballast assumed half the design", noRange, 8.0, 14.1, OpLoad, CargoAssumed, payload * 6.1 / (14.1 - assumedBallast), dwt},
		{"no range, full", noRange, assumedBallast, 14.1, OpLoad, CargoAssumed, math.Round(payload), dwt},
		{"narrow range: ballast assumed", narrow, 12.0, 14.1, OpLoad, CargoAssumed, payload * 2.1 / (14.1 - assumedBallast), dwt},
		{"capped at the payload", panamax, 5.0, 14.1, OpLoad, CargoMeasured, math.Round(payload), dwt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Call{DraftBefore: tc.before, DraftAfter: tc.after, Operation: "stale", CargoTonnes: 123, CargoQuality: "stale", DWTEstimate: 1}
			EstimateCargo(&c, tc.v)
			if c.Operation != tc.op || c.CargoQuality != tc.quality {
				t.Errorf("operation %q quality %q; want %q, %q", c.Operation, c.CargoQuality, tc.op, tc.quality)
			}
			if math.Abs(c.CargoTonnes-tc.tonnes) > 1 {
				t.Errorf("cargo %.0f t, want %.0f", c.CargoTonnes, tc.tonnes)
			}
			if c.CargoTonnes < 0 || c.CargoTonnes > payload+0.5 {
				t.Errorf("cargo %.0f t outside [0, payload %.0f]", c.CargoTonnes, payload)
			}
			if c.DWTEstimate != tc.dwt {
				t.Errorf("DWT %.0f, want %.0f", c.DWTEstimate, tc.dwt)
			}
		})
	}
}

// The design draught is the deepest known: the call's own when deeper
// than the profile's.
func TestEstimateCargoDeeperThanProfile(t *testing.T) {
	t.Parallel()
	c := Call{DraftBefore: 7.0, DraftAfter: 14.6}
	EstimateCargo(&c, panamax)
	dwt, _ := vessel.EstimateDWT(70, 225, 32.2, 14.6)
	if c.DWTEstimate != dwt {
		t.Errorf("DWT %.0f, want %.0f (at the call's 14.6 m)", c.DWTEstimate, dwt)
	}
	if want := math.Round(0.96 * dwt); c.CargoTonnes != want {
		t.Errorf("cargo %.0f, want %.0f", c.CargoTonnes, want)
	}
}

func TestEnrich(t *testing.T) {
	t.Parallel()
	c := Call{IMO: 9500000, Port: "santos", Declared: "BR SSZ", DraftBefore: 7.0, DraftAfter: 14.1}
	v := panamax
	v.BuildYear = 0
	Enrich(&c, v)
	if c.Name != v.Name || c.Flag != v.Flag || c.ShipType != 70 || c.Category != "cargo" {
		t.Errorf("identity %q %q %d %q", c.Name, c.Flag, c.ShipType, c.Category)
	}
	if c.BuildYear != vessel.BuildYearFromIMO(9500000) || !c.BuildYearEstimated || c.BuildYear != 2010 {
		t.Errorf("build year %d estimated %v, want 2010 from the IMO number", c.BuildYear, c.BuildYearEstimated)
	}
	if c.DeclaredPort != "santos" {
		t.Errorf("declared port %q, want santos", c.DeclaredPort)
	}
	if c.Operation != OpLoad || c.CargoTonnes == 0 {
		t.Errorf("no cargo estimate: %q %.0f", c.Operation, c.CargoTonnes)
	}

	v.BuildYear, v.ShipType = 2015, 84
	c = Call{IMO: 9500000, Declared: "FOR ORDERS"}
	Enrich(&c, v)
	if c.BuildYear != 2015 || c.BuildYearEstimated || c.Category != "tanker" || c.DeclaredPort != "" {
		t.Errorf("build year %d estimated %v category %q declared port %q", c.BuildYear, c.BuildYearEstimated, c.Category, c.DeclaredPort)
	}
}

// An implausible deepest draught (AIS's 25.5 m "or more", a decimal slip
// deeper than half the beam) is no design draught: the call's own deepest
// stands for it, and the quality says the range was assumed.
func TestEstimateCargoImplausibleProfileDraught(t *testing.T) {
	t.Parallel()
	dwt, _ := vessel.EstimateDWT(70, 225, 32.2, 14.1)
	for _, maxDraft := range []float64{25.5, 22.6, 16.2} { // 16.2 > 32.2/2
		v := panamax
		v.MaxDraftM = maxDraft
		c := Call{DraftBefore: 7.0, DraftAfter: 14.1}
		EstimateCargo(&c, v)
		if c.DWTEstimate != dwt || c.Operation != OpLoad || c.CargoQuality != CargoAssumed {
			t.Errorf("max %.1f m: DWT %.0f op %q quality %q; want %.0f at the call's 14.1 m, load, %q", maxDraft, c.DWTEstimate, c.Operation, c.CargoQuality, dwt, CargoAssumed)
		}
		if want := math.Round(0.96 * dwt); c.CargoTonnes != want {
			t.Errorf("max %.1f m: cargo %.0f, want %.0f", maxDraft, c.CargoTonnes, want)
		}
	}
	// A call whose own draught is implausible has no estimate.
	c := Call{DraftBefore: 7.0, DraftAfter: 25.5}
	EstimateCargo(&c, panamax)
	if c.Operation != OpUnknown || c.CargoTonnes != 0 {
		t.Errorf("a 25.5 m draught after the call: op %q cargo %.0f; want unknown, 0", c.Operation, c.CargoTonnes)
	}
	for d, want := range map[float64]bool{0: false, 14.1: true, 16.1: true, 16.2: false, 25.5: false} {
		if got := PlausibleDraught(d, panamax); got != want {
			t.Errorf("PlausibleDraught(%.1f) = %v, want %v", d, got, want)
		}
	}
	if !PlausibleDraught(24.0, vessel.Profile{}) || PlausibleDraught(25.1, vessel.Profile{}) {
		t.Error("without a beam, the limit is MaxDraughtM")
	}
}

// At a berth of LNG only, the payload is LNGPayloadShare of the deadweight
// (cargo tanks limit a gas carrier); elsewhere PayloadShare.
func TestEstimateCargoLNGBerth(t *testing.T) {
	t.Parallel()
	lng := vessel.Profile{IMO: 9300002, ShipType: 84, LengthM: 290, BeamM: 47, MinDraftM: 9.0, MaxDraftM: 12.0}
	dwt, _ := vessel.EstimateDWT(84, 290, 47, 12.0)
	for _, tc := range []struct {
		port, berth string
		share       float64
	}{
		{"ras-laffan", "ras-laffan-berth-1", LNGPayloadShare},
		{"ras-laffan", "ras-laffan-berth-3", PayloadShare}, // crude oil and products
		{"ras-laffan", "", PayloadShare},
	} {
		c := Call{Port: tc.port, BerthZone: tc.berth, DraftBefore: 9.0, DraftAfter: 12.0}
		EstimateCargo(&c, lng)
		if want := math.Round(tc.share * dwt); c.CargoTonnes != want {
			t.Errorf("%s %q: cargo %.0f, want %.2f × %.0f = %.0f", tc.port, tc.berth, c.CargoTonnes, tc.share, dwt, want)
		}
	}
}

// A loading that starts in the ballast band (the lowest tenth of the
// range) measures from its own arrival draught; one that starts above it
// from the profile's shallowest.
func TestEstimateCargoBallastBand(t *testing.T) {
	t.Parallel()
	dwt, _ := vessel.EstimateDWT(70, 225, 32.2, 14.1)
	payload := 0.96 * dwt
	for _, tc := range []struct {
		name          string
		before, after float64
		want          float64
	}{
		{"arrives 0.5 m above its lightest: a full cargo", 7.5, 14.1, math.Round(payload)},
		{"arrives 0.5 m above, loads to 10.8 m", 7.5, 10.8, payload * 3.3 / 6.6},
		{"discharges to 0.4 m above its lightest", 14.1, 7.4, math.Round(payload)},
		{"arrives above the band (part-laden): from 7.0 m", 8.0, 14.1, payload * 6.1 / 7.1},
	} {
		c := Call{DraftBefore: tc.before, DraftAfter: tc.after}
		EstimateCargo(&c, panamax)
		if math.Abs(c.CargoTonnes-tc.want) > 1 {
			t.Errorf("%s: cargo %.0f, want %.0f", tc.name, c.CargoTonnes, tc.want)
		}
	}
}

// At a berth of LNG only, a deepest draught beyond beam/3 is a gas
// carrier's error (LNG carriers draw a quarter of their beam): the call's
// own deepest stands for it. Elsewhere the same draught is within half the
// beam and stands.
func TestEstimateCargoLNGImplausible(t *testing.T) {
	t.Parallel()
	lng := vessel.Profile{IMO: 9300002, ShipType: 84, LengthM: 290, BeamM: 47, MinDraftM: 9.0, MaxDraftM: 20.1}
	c := Call{Port: "ras-laffan", BerthZone: "ras-laffan-berth-1", DraftBefore: 9.0, DraftAfter: 12.0}
	EstimateCargo(&c, lng)
	dwt, _ := vessel.EstimateDWT(84, 290, 47, 12.0)
	if c.DWTEstimate != dwt || c.CargoQuality != CargoAssumed {
		t.Errorf("LNG berth: DWT %.0f quality %q, want %.0f at the call's 12.0 m, %q", c.DWTEstimate, c.CargoQuality, dwt, CargoAssumed)
	}
	c = Call{Port: "ras-laffan", BerthZone: "ras-laffan-berth-3", DraftBefore: 9.0, DraftAfter: 12.0}
	EstimateCargo(&c, lng)
	if want, _ := vessel.EstimateDWT(84, 290, 47, 20.1); c.DWTEstimate != want || c.CargoQuality != CargoMeasured {
		t.Errorf("oil berth: DWT %.0f quality %q, want %.0f at 20.1 m, %q", c.DWTEstimate, c.CargoQuality, want, CargoMeasured)
	}
}

// A tanker whose deepest draught is a draught-limited terminal's limit
// has its design draught from its beam; elsewhere, or as a gas carrier
// (type 84), it keeps the deepest it reported.
func TestEstimateCargoDraughtLimitedTanker(t *testing.T) {
	t.Parallel()
	suezmax := vessel.Profile{IMO: 9300003, ShipType: 80, LengthM: 274, BeamM: 48, MinDraftM: 8.0, MaxDraftM: 12.5}
	c := Call{Port: "ras-laffan", BerthZone: "ras-laffan-berth-3", DraftBefore: 8.0, DraftAfter: 12.5}
	EstimateCargo(&c, suezmax)
	design := 48 / TankerBeamDraughtRatio
	dwt, _ := vessel.EstimateDWT(80, 274, 48, design)
	want := math.Round(PayloadShare * dwt * 4.5 / (design - 8.0))
	if c.DWTEstimate != dwt || c.CargoTonnes != want || c.CargoQuality != CargoAssumed {
		t.Errorf("ras-laffan: dwt %.0f cargo %.0f (%s); want %.0f, %.0f, %s", c.DWTEstimate, c.CargoTonnes, c.CargoQuality, dwt, want, CargoAssumed)
	}
	deep, _ := vessel.EstimateDWT(80, 274, 48, 12.5)
	for _, tc := range []struct {
		port string
		v    vessel.Profile
	}{
		{"rotterdam", suezmax}, // a deep port: its limit is not what the draught shows
		{"ras-laffan", vessel.Profile{IMO: 9300004, ShipType: 84, LengthM: 274, BeamM: 48, MinDraftM: 8.0, MaxDraftM: 12.5}},
	} {
		c := Call{Port: tc.port, DraftBefore: 8.0, DraftAfter: 12.5}
		EstimateCargo(&c, tc.v)
		if c.DWTEstimate != deep {
			t.Errorf("%s type %d: dwt %.0f, want %.0f (the deepest draught reported)", tc.port, tc.v.ShipType, c.DWTEstimate, deep)
		}
	}
}
