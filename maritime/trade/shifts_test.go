package trade

import (
	"testing"
	"time"
)

func TestSeverityOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		change float64
		want   string
	}{
		{0, ""}, {0.149, ""}, {-0.149, ""}, {0.15, SeverityModerate}, {-0.2, SeverityModerate},
		{0.25, SeverityHigh}, {-0.399, SeverityHigh}, {0.40, SeverityCritical}, {-1, SeverityCritical},
	} {
		if got := SeverityOf(tc.change); got != tc.want {
			t.Errorf("SeverityOf(%v) = %q, want %q", tc.change, got, tc.want)
		}
	}
}

// arrivals builds voyages from origin that arrived, n a week for each
// destination, in the weeks [from, to) after the Monday base.
func arrivals(origin, commodity string, base time.Time, from, to int, per map[string]int) []Voyage {
	var out []Voyage
	for w := from; w < to; w++ {
		for dest, n := range per {
			for i := 0; i < n; i++ {
				at := base.AddDate(0, 0, 7*w).Add(time.Duration(24+i) * time.Hour)
				out = append(out, Voyage{IMO: imoOf(w*10 + i), Origin: origin, Destination: dest, Commodity: commodity,
					Departure: at.AddDate(0, 0, -30), Arrival: at, Tonnes: 50000})
			}
		}
	}
	return out
}

func TestShifts(t *testing.T) {
	t.Parallel()
	// Data ends on a Wednesday: the current window is the 4 weeks before
	// its week, the baseline the 12 before those.
	end := T0.AddDate(0, 0, 7*16+2)
	asOf, start := Window(end)
	if want := T0.AddDate(0, 0, 7*15); !asOf.Equal(want) || !start.Equal(T0) {
		t.Fatalf("Window(%s) = %s, %s; want %s, %s", end, asOf, start, want, T0)
	}
	// Santos grain: 6 a week to Qingdao and 3 to Rotterdam for 12 weeks,
	// then 3 to Qingdao and 6 to Rotterdam, from week 12 on (a shift of
	// a third of the flow). Santos oilseeds: a steady flow, 20 a week to
	// Qingdao. Rosario: too few voyages for a comparison. The week of the
	// end is not counted.
	vs := arrivals("santos", "grain", T0, 0, 12, map[string]int{"qingdao": 6, "rotterdam": 3})
	vs = append(vs, arrivals("santos", "grain", T0, 12, 17, map[string]int{"qingdao": 3, "rotterdam": 6})...)
	vs = append(vs, arrivals("santos", "oilseeds", T0, 0, 16, map[string]int{"qingdao": 20})...)
	vs = append(vs, arrivals("rosario", "grain", T0, 0, 3, map[string]int{"alexandria": 2})...)
	vs = append(vs, arrivals("rosario", "grain", T0, 14, 16, map[string]int{"chiba": 2})...)
	shifts := Shifts(vs, end)
	got := map[string]Shift{}
	for _, s := range shifts {
		got[s.Commodity+" "+s.Destination] = s
		if s.Origin != "santos" || !s.AsOf.Equal(asOf) {
			t.Errorf("unexpected shift %+v", s)
		}
	}
	// All commodities: Qingdao 312 of 348 → 92 of 116 (the steady
	// oilseeds dilute the change to −0.10): below ModerateChange.
	if len(shifts) != 2 {
		t.Fatalf("%d shifts, want 2: %+v", len(shifts), shifts)
	}
	q := got["grain qingdao"]
	if !approx(q.BaselineShare, 2.0/3, 1e-9) || !approx(q.CurrentShare, 1.0/3, 1e-9) || !approx(q.Change, -1.0/3, 1e-9) ||
		q.Severity != SeverityHigh || q.BaselineVoyages != 108 || q.CurrentVoyages != 36 || q.CurrentTonnes != 1800000 || !(q.P <= MaxP) {
		t.Errorf("grain qingdao = %+v", q)
	}
	if want := T0.AddDate(0, 0, 7*12); !q.Started.Equal(want) {
		t.Errorf("started %s, want %s", q.Started, want)
	}
	if len(q.Gaining) != 1 || q.Gaining[0].Port != "rotterdam" || len(q.Losing) != 1 || q.Losing[0].Port != "qingdao" {
		t.Errorf("movers %+v %+v", q.Gaining, q.Losing)
	}
	if r := got["grain rotterdam"]; !approx(r.Change, 1.0/3, 1e-9) || r.Severity != SeverityHigh {
		t.Errorf("grain rotterdam = %+v", r)
	}
}

func TestShiftsCritical(t *testing.T) {
	t.Parallel()
	end := T0.AddDate(0, 0, 7*16)
	// The whole flow (3 a week) moves from Qingdao to a new destination,
	// Dalian, two weeks into the current window.
	vs := arrivals("new-orleans", "grain", T0, 0, 14, map[string]int{"qingdao": 3})
	vs = append(vs, arrivals("new-orleans", "grain", T0, 14, 16, map[string]int{"dalian": 3})...)
	shifts := Shifts(vs, end)
	if len(shifts) != 4 { // grain and all, Qingdao and Dalian
		t.Fatalf("%d shifts: %+v", len(shifts), shifts)
	}
	for _, s := range shifts {
		if s.Severity != SeverityCritical || !approx(abs(s.Change), 0.5, 1e-9) {
			t.Errorf("%+v", s)
		}
		if want := T0.AddDate(0, 0, 7*14); !s.Started.Equal(want) {
			t.Errorf("%s started %s, want %s", s.Destination, s.Started, want)
		}
	}
	if s := Shifts(vs[:len(vs)-1], end); len(s) != 4 {
		t.Errorf("with one current voyage less: %d shifts, want 4", len(s))
	}
	// Below the minimum volume of the current window: no shift.
	short := arrivals("new-orleans", "grain", T0, 0, 12, map[string]int{"qingdao": 3})
	short = append(short, arrivals("new-orleans", "grain", T0, 15, 16, map[string]int{"dalian": MinCurrentVoyages - 1})...)
	if s := Shifts(short, end); len(s) != 0 {
		t.Errorf("%d shifts below the minimum volume: %+v", len(s), s)
	}
}

// TestShiftsNoise: a thin origin (a voyage a week, three in four to
// Qingdao) whose current window sends one voyage more to Chiba than its
// baseline share moves that share by 0.25 — beyond HighChange, but within
// the swing of a voyage: no shift. Nor when the window has one voyage
// less to Chiba, nor at twice the volume with two more.
func TestShiftsNoise(t *testing.T) {
	t.Parallel()
	end := T0.AddDate(0, 0, 7*16)
	base := func(weeks int, perWeek int) []Voyage {
		var vs []Voyage
		for w := 0; w < weeks; w++ {
			for i := 0; i < perWeek; i++ {
				dest := "qingdao"
				if (w*perWeek+i)%4 == 3 {
					dest = "chiba"
				}
				vs = append(vs, arrivals("vancouver", "grain", T0, w, w+1, map[string]int{dest: 1})...)
			}
		}
		return vs
	}
	for _, tc := range []struct {
		name    string
		perWeek int
		chiba   int // of the current window's voyages (weeks 12–15), this many to Chiba, the rest to Qingdao
	}{
		{"one more", 1, 2},
		{"one less", 1, 0},
		{"twice the volume, two more", 2, 4},
	} {
		vs := base(12, tc.perWeek)
		n := 4 * tc.perWeek
		for i := 0; i < n; i++ {
			dest := "qingdao"
			if i < tc.chiba {
				dest = "chiba"
			}
			vs = append(vs, arrivals("vancouver", "grain", T0, 12+i%4, 13+i%4, map[string]int{dest: 1})...)
		}
		change := float64(tc.chiba)/float64(n) - 0.25
		if SeverityOf(change) == "" {
			t.Fatalf("%s: change %.3f is no severity: not the case meant", tc.name, change)
		}
		if s := Shifts(vs, end); len(s) != 0 {
			t.Errorf("%s: %d shifts from the swing of a voyage: %+v", tc.name, len(s), s)
		}
	}
}

// TestShiftsRealistic: an export port sends 6 voyages a week, 4 to
// Qingdao and 2 to Chiba; from the week before the current window (its
// first shifted voyages arrive on that week's Tuesday) Chiba's voyages go
// to Jakarta instead. The shift is reported (Jakarta gaining, Chiba
// losing), started in the week of the first shifted arrival.
func TestShiftsRealistic(t *testing.T) {
	t.Parallel()
	end := T0.AddDate(0, 0, 7*16)
	vs := arrivals("rosario", "grain", T0, 0, 11, map[string]int{"qingdao": 4, "chiba": 2})
	vs = append(vs, arrivals("rosario", "grain", T0, 11, 16, map[string]int{"qingdao": 4, "jakarta": 2})...)
	firstShifted := T0.AddDate(0, 0, 7*11).Add(24 * time.Hour)
	shifts := Shifts(vs, end)
	got := map[string]Shift{}
	for _, s := range shifts {
		got[s.Destination] = s
	}
	if len(shifts) != 4 || got["jakarta"].Change <= 0 || got["chiba"].Change >= 0 { // grain and all
		t.Fatalf("shifts %+v, want Jakarta gaining and Chiba losing, grain and all", shifts)
	}
	for _, s := range shifts {
		if d := firstShifted.Sub(s.Started); d < 0 || d > 7*24*time.Hour {
			t.Errorf("%s started %s, want within a week before the first shifted arrival %s", s.Destination, s.Started, firstShifted)
		}
	}
}

func TestFisherOneSided(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k1, n1, k2, n2 int
		greater        bool
		want           float64
	}{
		{0, 28, 4, 4, true, 1.0 / 35960},       // all 4 of the second group: 1 / C(32, 4)
		{0, 28, 4, 4, false, 1},                // in the other direction: no evidence
		{24, 36, 4, 12, false, 0.045991},       // 2/3 → 1/3 of 12: P(X ≤ 4), X hypergeometric
		{5, 10, 5, 10, true, 0.67186},          // the same share
		{3, 0, 1, 5, true, 1},                  // an empty side
		{0, 33, 5, 15, true, 3003.0 / 1712304}, // C(15, 5) / C(48, 5)
	} {
		if got := FisherOneSided(tc.k1, tc.n1, tc.k2, tc.n2, tc.greater); !approx(got, tc.want, 1e-4) {
			t.Errorf("FisherOneSided(%d, %d, %d, %d, %v) = %.6g, want %.6g", tc.k1, tc.n1, tc.k2, tc.n2, tc.greater, got, tc.want)
		}
	}
}

func TestTwoProportionZ(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k1, n1, k2, n2 int
		want           float64
	}{
		{0, 33, 5, 15, 3.5037}, // pooled 5/48
		{5, 15, 0, 33, -3.5037},
		{10, 20, 5, 10, 0},
		{0, 10, 0, 10, 0}, // pooled share 0: no evidence
		{3, 0, 1, 5, 0},   // an empty side
	} {
		if got := TwoProportionZ(tc.k1, tc.n1, tc.k2, tc.n2); !approx(got, tc.want, 1e-3) {
			t.Errorf("TwoProportionZ(%d, %d, %d, %d) = %.4f, want %.4f", tc.k1, tc.n1, tc.k2, tc.n2, got, tc.want)
		}
	}
}

// TestShiftsLeaveOutLiners: a container liner's voyages are no shift.
func TestShiftsLeaveOutLiners(t *testing.T) {
	t.Parallel()
	end := T0.AddDate(0, 0, 7*16)
	vs := arrivals("busan", "containers", T0, 0, 12, map[string]int{"fremantle": 3})
	vs = append(vs, arrivals("busan", "containers", T0, 12, 16, map[string]int{"rotterdam": 3})...)
	if s := Shifts(vs, end); len(s) == 0 {
		t.Fatal("the test's flow is no shift: not the case meant")
	}
	for i := range vs {
		vs[i].Liner = true
	}
	if s := Shifts(vs, end); len(s) != 0 {
		t.Errorf("%d shifts of liner voyages: %+v", len(s), s)
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
