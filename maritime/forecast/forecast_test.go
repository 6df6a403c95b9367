package forecast

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

var monday = time.Date(2022, 1, 3, 0, 0, 0, 0, time.UTC)

// synthetic is a seasonal series with a trend and Gaussian noise: a
// harvest season peaking in autumn over a base volume.
func synthetic(weeks int, noise float64, seed uint64) Series {
	r := rand.New(rand.NewPCG(seed, 1))
	rows := make([]Week, weeks)
	for i := range rows {
		season := 40000 * math.Max(0, math.Sin(2*math.Pi*(float64(i%Season)-13)/Season))
		v := 60000 + 150*float64(i) + season + r.NormFloat64()*noise
		rows[i] = Week{Start: monday.Add(time.Duration(i) * week), Tonnes: math.Max(0, v), Vessels: math.Round(math.Max(0, v) / 50000)}
	}
	return NewSeries("test-port", rows)
}

func find(acc []Accuracy, method string, h int) Accuracy {
	for _, a := range acc {
		if a.Method == method && a.Horizon == h {
			return a
		}
	}
	return Accuracy{}
}

func TestHoltWintersBeatsSeasonalNaive(t *testing.T) {
	s := synthetic(4*Season, 6000, 7)
	acc := Backtest(s, nil)
	for h := 1; h <= BacktestHorizons; h++ {
		a := find(acc, MethodStatistical, h)
		if a.Forecasts == 0 || !(a.MAPE < a.BaselineMAPE) || !a.BeatsBaseline {
			t.Errorf("horizon %d: statistical MAPE %.2f%% vs seasonal naive %.2f%% (%d forecasts, beats %v)",
				h, a.MAPE, a.BaselineMAPE, a.Forecasts, a.BeatsBaseline)
		}
		t.Logf("h%d statistical MAPE %.2f%% MAE %.0f dir %.2f | baseline MAPE %.2f%% MAE %.0f | ml MAPE %.2f%%", h, a.MAPE, a.MAE,
			a.Directional, a.BaselineMAPE, a.BaselineMAE, find(acc, MethodML, h).MAPE)
	}
	// On two years, the backtest still measures Holt-Winters (from a
	// season and a quarter on) against the baseline.
	two := Backtest(synthetic(2*Season, 6000, 11), nil)
	if a := find(two, MethodStatistical, 1); a.Forecasts != 2*Season-MinHoltWintersWeeks || !a.BeatsBaseline {
		t.Errorf("two years: %+v", a)
	}
}

func TestStatisticalModels(t *testing.T) {
	s := synthetic(3*Season, 0, 1)
	model, f, sigma := Statistical(s.Tonnes(), 4)
	if model != ModelHoltWinters || len(f) != 4 || sigma > 5000 {
		t.Fatalf("%s %v σ=%.0f", model, f, sigma)
	}
	// Noise-free: the forecasts follow the seasonal pattern closely.
	next := synthetic(3*Season+4, 0, 1).Tonnes()[3*Season:]
	for i := range f {
		if math.Abs(f[i]-next[i]) > 0.05*next[i] {
			t.Errorf("week %d: %.0f, truth %.0f", i+1, f[i], next[i])
		}
	}
	if m, _, _ := Statistical(s.Tonnes()[:30], 2); m != ModelHoltLinear {
		t.Errorf("30 weeks: %s", m)
	}
	if m, f, _ := Statistical([]float64{5}, 2); m != ModelNaive || f[1] != 5 {
		t.Errorf("one week: %s %v", m, f)
	}
	if m, f, _ := SeasonalNaive([]float64{1, 2, 3}, 2); m != ModelLastWeek || f[0] != 3 || f[1] != 3 {
		t.Errorf("short seasonal naive: %s %v", m, f)
	}
	y := s.Tonnes()
	if m, f, _ := SeasonalNaive(y, 2); m != ModelSeasonalNaive || f[0] != y[len(y)-Season] || f[1] != y[len(y)-Season+1] {
		t.Errorf("seasonal naive: %s %v", m, f)
	}
}

func TestForecasts(t *testing.T) {
	s := synthetic(2*Season, 3000, 3)
	out := Forecasts(s, &Expected{Vessels: 3, Tonnes: 150000, Count: 4}, nil)
	methods := map[string]int{}
	for _, f := range out {
		methods[f.Method]++
		if !(f.Lower <= f.Tonnes && f.Tonnes <= f.Upper) || f.Week != f.Origin.Add(time.Duration(f.Horizon)*week) || f.HistoryWeeks != 2*Season {
			t.Errorf("%+v", f)
		}
	}
	if methods[MethodPipeline] != 1 || methods[MethodStatistical] != Horizons || methods[MethodML] != Horizons {
		t.Fatalf("methods: %v", methods)
	}
	p := out[0]
	// Uncalibrated (no history of the pipeline): the model's figures.
	if p.Method != MethodPipeline || p.Vessels != 3 || math.Abs(p.Tonnes-150000) > 1e-6 {
		t.Errorf("pipeline: %+v", p)
	}
	// The interval widens with the horizon.
	var stat []Forecast
	for _, f := range out {
		if f.Method == MethodStatistical {
			stat = append(stat, f)
		}
	}
	if w1, w12 := stat[0].Upper-stat[0].Tonnes, stat[11].Upper-stat[11].Tonnes; !(w12 > 3*w1*0.99) {
		t.Errorf("interval: ±%.0f at 1 week, ±%.0f at 12", w1, w12)
	}
	if Forecasts(NewSeries("empty", []Week{{Start: monday}}), nil, nil) != nil {
		t.Error("an empty series has forecasts")
	}
}

func TestNewSeriesFillsGaps(t *testing.T) {
	s := NewSeries("p", []Week{{Start: monday.Add(3 * week), Tonnes: 3}, {Start: monday, Tonnes: 1, Vessels: math.NaN()}})
	if len(s.Weeks) != 4 || s.Weeks[0].Tonnes != 1 || s.Weeks[0].Vessels != 0 || s.Weeks[1].Tonnes != 0 || s.Weeks[3].Tonnes != 3 {
		t.Fatalf("%+v", s.Weeks)
	}
	if b := s.Before(monday.Add(3 * week)); len(b.Weeks) != 3 {
		t.Errorf("before: %d weeks", len(b.Weeks))
	}
}

func TestDetectInjectedDrop(t *testing.T) {
	s := synthetic(2*Season, 2000, 5)
	for i := range s.Weeks { // a busy port: 12 to 20 vessels a week
		s.Weeks[i].Vessels = math.Round(s.Weeks[i].Tonnes / 5000)
	}
	const drop = 90
	s.Weeks[drop].Tonnes *= 0.2
	s.Weeks[drop].Vessels = math.Round(s.Weeks[drop].Vessels * 0.2)
	found := map[string]Anomaly{}
	for _, a := range Detect(s) {
		if a.Week.Equal(s.Weeks[drop].Start) {
			found[a.Type] = a
		} else if a.Severity != SeverityModerate && a.Type != TypeSeasonalRange {
			t.Errorf("unexpected %s anomaly: %+v", a.Severity, a)
		}
	}
	want := map[string]string{TypeTrailing: SeverityCritical, TypeYoY: SeverityCritical, TypeSeasonalAvg: SeverityCritical,
		TypeSeasonalRange: SeverityCritical}
	for typ, sev := range want {
		a, ok := found[typ]
		if !ok || a.Severity != sev || a.Direction != "drop" || !(a.DeviationPct < -75) {
			t.Errorf("%s: %+v (want %s)", typ, a, sev)
		}
	}
	if a := found[TypeTrailing]; math.IsNaN(a.Z) || a.Z > -ZGate || a.References != TrailingWeeks {
		t.Errorf("trailing z: %+v", a)
	}
	if a := found[TypeSeasonalRange]; !(a.Expected == a.Lower && a.Observed < a.Lower) {
		t.Errorf("range: %+v", a)
	}
	// The first year has no yoy or seasonal anomaly.
	for _, a := range Detect(synthetic(Season, 2000, 5)) {
		if a.Type != TypeTrailing {
			t.Errorf("first year: %+v", a)
		}
	}
}

func TestMaturity(t *testing.T) {
	m := MaturityOf(synthetic(60, 0, 1))
	byName := map[string]Requirement{}
	for _, r := range append(m.Anomalies, m.Forecasts...) {
		byName[r.Name] = r
	}
	if m.Weeks != 60 || !byName[TypeTrailing].Ready || !byName[TypeYoY].Ready || byName[MethodStatistical].Ready ||
		byName[MethodStatistical].Missing != MinHoltWintersWeeks-60 || byName[MethodStatistical].Model != ModelHoltLinear ||
		byName[MethodML].Missing != MinRidgeSeasonalWeeks-60 || !byName[MethodBaseline].Ready {
		t.Errorf("%+v", byName)
	}
}

// FuzzFit fits every model to any series: no panic, and every forecast,
// interval, accuracy and anomaly figure is finite (MAPE and z may be NaN
// by definition, never infinite).
func FuzzFit(f *testing.F) {
	f.Add([]byte{1, 2, 3})
	f.Add(make([]byte, 8*80))
	seed := make([]byte, 0, 8*120)
	for _, v := range synthetic(120, 500, 1).Tonnes() {
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(v))
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		var rows []Week
		for i := 0; i+8 <= len(data) && len(rows) < 160; i += 8 {
			v := math.Float64frombits(binary.LittleEndian.Uint64(data[i:]))
			rows = append(rows, Week{Start: monday.Add(time.Duration(len(rows)) * week), Tonnes: v, Vessels: v / 40000})
		}
		s := NewSeries("fuzz", rows)
		ok := func(what string, v ...float64) {
			for _, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("%s: %v", what, v)
				}
			}
		}
		for _, fc := range Forecasts(s, &Expected{Vessels: 1, Tonnes: 40000, DepartedTonnes: 1000}, map[time.Time]Expected{monday.Add(3 * week): {Vessels: 1, Tonnes: 1}}) {
			ok(fc.Method+"/"+fc.Model, fc.Tonnes, fc.Lower, fc.Upper, fc.Vessels)
			if fc.Lower > fc.Tonnes || fc.Tonnes > fc.Upper {
				t.Fatalf("interval: %+v", fc)
			}
		}
		if len(s.Weeks) <= 2*Season {
			for _, a := range Backtest(s, map[time.Time]Expected{monday.Add(70 * week): {Vessels: 2, Tonnes: 80000}}) {
				ok("accuracy", a.MAE, a.Directional, a.BaselineMAE, a.BaselineDirectional)
				if math.IsInf(a.MAPE, 0) || math.IsInf(a.BaselineMAPE, 0) {
					t.Fatalf("accuracy: %+v", a)
				}
			}
		}
		for _, a := range Detect(s) {
			ok("anomaly", a.Expected, a.Observed, a.DeviationPct)
			if math.IsInf(a.Z, 0) {
				t.Fatalf("anomaly: %+v", a)
			}
		}
	})
}

// BenchmarkPort is what the jobs compute per port on two years of
// history: the forecasts, the backtest and the anomalies.
func BenchmarkPort(b *testing.B) {
	s := synthetic(2*Season, 3000, 9)
	for b.Loop() {
		Forecasts(s, &Expected{Vessels: 2, Tonnes: 80000}, nil)
		Backtest(s, nil)
		Detect(s)
	}
}
