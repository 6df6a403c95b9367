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
	// Santos grain: 2 a week to Qingdao and 1 to Rotterdam for 12 weeks,
	// then 1 to Qingdao and 2 to Rotterdam, from week 12 on (a shift of
	// a third of the flow). Santos oilseeds: a steady flow. Rosario: too
	// few voyages for a comparison. The week of the end is not counted.
	vs := arrivals("santos", "grain", T0, 0, 12, map[string]int{"qingdao": 2, "rotterdam": 1})
	vs = append(vs, arrivals("santos", "grain", T0, 12, 17, map[string]int{"qingdao": 1, "rotterdam": 2})...)
	vs = append(vs, arrivals("santos", "oilseeds", T0, 0, 16, map[string]int{"qingdao": 1})...)
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
	if len(shifts) != 4 {
		t.Fatalf("%d shifts, want 4: %+v", len(shifts), shifts)
	}
	q := got["grain qingdao"]
	if !approx(q.BaselineShare, 2.0/3, 1e-9) || !approx(q.CurrentShare, 1.0/3, 1e-9) || !approx(q.Change, -1.0/3, 1e-9) ||
		q.Severity != SeverityHigh || q.BaselineVoyages != 36 || q.CurrentVoyages != 12 || q.CurrentTonnes != 600000 {
		t.Errorf("grain qingdao = %+v", q)
	}
	if want := T0.AddDate(0, 0, 7*12); !q.Started.Equal(want) {
		t.Errorf("started %s, want %s", q.Started, want)
	}
	if len(q.Gaining) != 1 || q.Gaining[0].Port != "rotterdam" || len(q.Losing) != 1 || q.Losing[0].Port != "qingdao" {
		t.Errorf("movers %+v %+v", q.Gaining, q.Losing)
	}
	// All commodities: 48 baseline voyages, 36 to Qingdao; 16 current, 8.
	a := got["all qingdao"]
	if !approx(a.BaselineShare, 36.0/48, 1e-9) || !approx(a.CurrentShare, 8.0/16, 1e-9) || a.Severity != SeverityHigh || a.BaselineVoyages != 48 {
		t.Errorf("all qingdao = %+v", a)
	}
	if r := got["grain rotterdam"]; !approx(r.Change, 1.0/3, 1e-9) || r.Severity != SeverityHigh {
		t.Errorf("grain rotterdam = %+v", r)
	}
	if !approx(abs(shifts[0].Change), 1.0/3, 1e-9) || !approx(abs(shifts[len(shifts)-1].Change), 0.25, 1e-9) {
		t.Errorf("not by the size of the change: %+v", shifts)
	}
}

func TestShiftsCritical(t *testing.T) {
	t.Parallel()
	end := T0.AddDate(0, 0, 7*16)
	// The whole flow moves from Qingdao to a new destination, Dalian, two
	// weeks into the current window.
	vs := arrivals("new-orleans", "grain", T0, 0, 14, map[string]int{"qingdao": 2})
	vs = append(vs, arrivals("new-orleans", "grain", T0, 14, 16, map[string]int{"dalian": 2})...)
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
	// Below the minimum volume of the current window: no shift.
	if s := Shifts(vs[:len(vs)-1], end); len(s) != 4 {
		t.Errorf("with 3 current voyages: %d shifts, want 4", len(s))
	}
	short := arrivals("new-orleans", "grain", T0, 0, 12, map[string]int{"qingdao": 2})
	short = append(short, arrivals("new-orleans", "grain", T0, 15, 16, map[string]int{"dalian": MinCurrentVoyages - 1})...)
	if s := Shifts(short, end); len(s) != 0 {
		t.Errorf("%d shifts below the minimum volume: %+v", len(s), s)
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
