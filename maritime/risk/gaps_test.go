package risk

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
)

// Synthetic tracks for the single-vessel risk detectors (gaps, loitering,
// spoofing): an rkBuilder moves a vessel on the real map and reports its
// position at a set interval.

var rkT0 = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)

// rkOcean is in the middle of the North Atlantic, some 450 nm south-west of
// the Azores.
var rkOcean = tracktest.LL{Lat: 30, Lon: -40}

type rkBuilder struct {
	t      time.Time
	pos    tracktest.LL
	draft  float64
	noSOG  bool
	pts    []vessel.TrackPoint
	course float64 // degrees
}

func rkStart(at tracktest.LL) *rkBuilder { return &rkBuilder{t: rkT0, pos: at, draft: 10, course: 90} }

// emit reports the position now.
func (b *rkBuilder) emit(knots float64) {
	sog := knots
	if b.noSOG {
		sog = math.NaN()
	}
	b.pts = append(b.pts, vessel.TrackPoint{TS: b.t, Lat: b.pos.Lat, Lon: b.pos.Lon, SOG: sog, Draft: b.draft})
}

// move advances the vessel silently for d at the speed on its course.
func (b *rkBuilder) move(d time.Duration, knots float64) {
	km := knots * kmPerNM * d.Hours()
	rad := b.course * math.Pi / 180
	b.pos = tracktest.Offset(b.pos, km*math.Cos(rad), km*math.Sin(rad))
	b.t = b.t.Add(d)
}

// run reports every `every` for d (the first report now, the last before
// d) while moving at the speed.
func (b *rkBuilder) run(d, every time.Duration, knots float64) *rkBuilder {
	for at := time.Duration(0); at < d; at += every {
		b.emit(knots)
		b.move(every, knots)
	}
	return b
}

// reports emits n reports every `every`.
func (b *rkBuilder) reports(n int, every time.Duration, knots float64) *rkBuilder {
	return b.run(time.Duration(n)*every, every, knots)
}

// rkShorePoint is a point at sea off Namibia (24° S), where the coast runs
// straight north–south with open ocean west of it, nm nautical miles from
// shore, found by bisection on the parallel.
func rkShorePoint(t *testing.T, nm float64) tracktest.LL {
	t.Helper()
	lo, hi := 5.0, 14.4 // lo far at sea, hi near the coast
	shore := func(lon float64) float64 { return geo.DistanceToShoreKM(-24, lon) / kmPerNM }
	if shore(hi) > nm || shore(lo) < nm || geo.OnLand(-24, hi) {
		t.Fatalf("the coast off Namibia is not where the test expects: %.1f nm at %.1f E, %.1f at %.1f E", shore(hi), hi, shore(lo), lo)
	}
	for i := 0; i < 60; i++ {
		m := (lo + hi) / 2
		if shore(m) > nm {
			lo = m
		} else {
			hi = m
		}
	}
	return tracktest.LL{Lat: -24, Lon: (lo + hi) / 2}
}

func rkShoreNM(p tracktest.LL) float64 { return geo.DistanceToShoreKM(p.Lat, p.Lon) / kmPerNM }

func TestGapBoundaries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		quiet time.Duration
		want  bool
	}{
		{"exactly 12 h", 12 * time.Hour, true},
		{"12 h less a second", 12*time.Hour - time.Second, false},
		{"7 h (an off/on event, not a gap)", 7 * time.Hour, false},
		{"30 h", 30 * time.Hour, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := rkStart(rkOcean).reports(10, 30*time.Minute, 12)
			b.move(c.quiet-30*time.Minute, 12)
			b.reports(10, 30*time.Minute, 12)
			events := DetectGaps(1, b.pts, b.t, 0)
			if got := len(events) == 1; got != c.want {
				t.Fatalf("%d events, want a gap: %v", len(events), c.want)
			}
			if !c.want {
				return
			}
			e := events[0]
			if e.Type != EventGap || e.IMO != 1 || !e.Start.Equal(b.pts[9].TS) || e.End == nil || !e.End.Equal(b.pts[10].TS) {
				t.Fatalf("gap %+v, want %v to %v", e, b.pts[9].TS, b.pts[10].TS)
			}
			if h := e.Detail["hours"].(float64); math.Abs(h-c.quiet.Hours()) > 0.05 {
				t.Errorf("hours %v, want %v", h, c.quiet.Hours())
			}
		})
	}
}

func TestGapOpenAtTheEnd(t *testing.T) {
	t.Parallel()
	b := rkStart(rkOcean).reports(100, 30*time.Minute, 12)
	last := b.pts[len(b.pts)-1].TS
	if got := DetectGaps(1, b.pts, last.Add(12*time.Hour-time.Second), 0); len(got) != 0 {
		t.Fatalf("silent for under 12 h: %d events", len(got))
	}
	got := DetectGaps(1, b.pts, last.Add(20*time.Hour), 0)
	if len(got) != 1 || got[0].End != nil || !got[0].Ongoing() || !got[0].Start.Equal(last) {
		t.Fatalf("want one open gap from %v, got %+v", last, got)
	}
	d := got[0].Detail
	if d["ongoing"] != true || d["end_position"] != nil || d["distance_nm"] != nil || d["hours"].(float64) != 20 {
		t.Errorf("open gap detail %v", d)
	}
	// mid-ocean after dense reception, but not judged until it closes
	if got[0].Subtype != "" || d["intentional"] != false || got[0].Severity != TierLow {
		t.Errorf("open gap of 20 h: subtype %q severity %s", got[0].Subtype, got[0].Severity)
	}
	if got := DetectGaps(1, b.pts, last.Add(30*time.Hour), 0); len(got) != 1 || got[0].Severity != TierMedium {
		t.Errorf("open gap of 30 h: %+v", got)
	}
}

// The intentional criteria: both ends more than 50 nm from shore, and at
// least 20 positions per 12 h (80) in the 48 h before.
func TestGapIntentional(t *testing.T) {
	t.Parallel()
	offshore, inshore := rkShorePoint(t, 50.3), rkShorePoint(t, 49.7)
	t.Logf("off Namibia: %.2f nm and %.2f nm from shore", rkShoreNM(offshore), rkShoreNM(inshore))
	for _, c := range []struct {
		name       string
		before     int
		start, end tracktest.LL
		draftAfter float64 // the draught after the gap, 10 before it
		want       bool
	}{
		{"80 positions, both ends beyond 50 nm", 80, offshore, offshore, 10, true},
		{"79 positions", 79, offshore, offshore, 10, false},
		{"start within 50 nm", 80, inshore, offshore, 10, false},
		{"end within 50 nm", 80, offshore, inshore, 10, false},
		{"sparse and near shore", 20, inshore, inshore, 10, false},
		// A port call made dark: 3 m of cargo loaded while silent.
		{"sparse and near shore, loaded 3 m while dark", 20, inshore, inshore, 13, true},
		{"sparse and near shore, discharged 1 m while dark", 20, inshore, inshore, 9, true},
		{"sparse and near shore, draught 0.9 m up", 20, inshore, inshore, 10.9, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			// c.before positions at c.start over the 48 h before the gap
			// (the earliest exactly 48 h before its start, the latest its
			// start), one more just outside the window, then the end
			start := rkT0.Add(72 * time.Hour)
			every := 48 * time.Hour / 79
			pts := []vessel.TrackPoint{{TS: start.Add(-48*time.Hour - time.Minute), Lat: c.start.Lat, Lon: c.start.Lon, SOG: 0.1, Draft: 10}}
			for k := c.before - 1; k >= 0; k-- {
				at := start.Add(-time.Duration(k) * every)
				if k == 79 {
					at = start.Add(-48 * time.Hour)
				}
				pts = append(pts, vessel.TrackPoint{TS: at, Lat: c.start.Lat, Lon: c.start.Lon, SOG: 0.1, Draft: 10})
			}
			end := start.Add(20 * time.Hour)
			pts = append(pts, vessel.TrackPoint{TS: end, Lat: c.end.Lat, Lon: c.end.Lon, SOG: 10, Draft: c.draftAfter})
			b := &rkBuilder{pts: pts}
			events := DetectGaps(2, b.pts, end, 0)
			var gap *Event
			for i := range events {
				if events[i].End != nil && events[i].End.Equal(end) {
					gap = &events[i]
				}
			}
			if gap == nil {
				t.Fatalf("no gap ending %v: %+v", end, events)
			}
			if got := gap.Detail["intentional"].(bool); got != c.want || (gap.Subtype == "intentional") != c.want {
				t.Errorf("intentional %v (subtype %q), want %v; detail %v", got, gap.Subtype, c.want, gap.Detail)
			}
			if n := gap.Detail["dense_reception_before"].(int); n != c.before {
				t.Errorf("dense_reception_before %d, want %d", n, c.before)
			}
		})
	}
}

func TestGapDetailAndSeverity(t *testing.T) {
	t.Parallel()
	// 12 kn due east for 30 h dark, mid-ocean, after dense reception
	b := rkStart(rkOcean).reports(200, 15*time.Minute, 12)
	startPos := b.pts[len(b.pts)-1]
	b.move(30*time.Hour-15*time.Minute, 12)
	b.reports(3, 15*time.Minute, 12) // before the first static report after the gap
	b.draft = 14.5
	b.reports(8, 15*time.Minute, 12)
	b.move(time.Hour, 12)
	b.draft = 9 // beyond GapDraughtSettle
	b.reports(8, 15*time.Minute, 12)
	events := DetectGaps(3, b.pts, b.t, 0)
	if len(events) != 1 {
		t.Fatalf("%d events", len(events))
	}
	e, d := events[0], events[0].Detail
	if e.Lat != startPos.Lat || e.Lon != startPos.Lon || e.EndLat != b.pts[200].Lat {
		t.Errorf("positions %v,%v → %v,%v", e.Lat, e.Lon, e.EndLat, e.EndLon)
	}
	if nm := d["distance_nm"].(float64); math.Abs(nm-360) > 2 {
		t.Errorf("distance %v nm, want about 360", nm)
	}
	if kn := d["implied_speed_kn"].(float64); math.Abs(kn-12) > 0.2 {
		t.Errorf("implied speed %v kn, want 12", kn)
	}
	// the draught after is read at the last position within 3 h
	if d["draught_before"] != 10.0 || d["draught_after"] != 14.5 || d["draught_change"] != 4.5 {
		t.Errorf("draughts %v → %v (%v)", d["draught_before"], d["draught_after"], d["draught_change"])
	}
	if e.Subtype != "intentional" || e.Severity != TierCritical {
		t.Errorf("subtype %q severity %s, want intentional and critical (draught change)", e.Subtype, e.Severity)
	}
	for _, k := range []string{"start_distance_shore_nm", "end_distance_shore_nm"} {
		if d[k].(float64) < 150 {
			t.Errorf("%s %v", k, d[k])
		}
	}

	sev := func(hours float64, intentional bool, draftAfter float64) string {
		b := rkStart(rkOcean)
		n := 80
		if !intentional {
			n = 10
		}
		b.reports(n, 30*time.Minute, 12)
		b.move(time.Duration(hours*float64(time.Hour))-30*time.Minute, 12)
		b.draft = draftAfter
		b.reports(3, 30*time.Minute, 12)
		ev := DetectGaps(4, b.pts, b.t, 0)
		if len(ev) != 1 {
			t.Fatalf("%d events", len(ev))
		}
		return ev[0].Severity
	}
	for _, c := range []struct {
		hours       float64
		intentional bool
		draft       float64
		want        string
	}{
		{48, true, 10, TierCritical},
		{47.9, true, 10, TierHigh},
		{13, true, 10, TierHigh},
		{13, false, 11, TierCritical}, // cargo moved while dark
		{13, false, 10.9, TierLow},
		{24, false, 10, TierMedium},
		{23.9, false, 10, TierLow},
	} {
		if got := sev(c.hours, c.intentional, c.draft); got != c.want {
			t.Errorf("%.1f h, intentional %v, draught 10 → %.1f: %s, want %s", c.hours, c.intentional, c.draft, got, c.want)
		}
	}
}

func TestGapUnknownDraught(t *testing.T) {
	t.Parallel()
	b := rkStart(rkOcean)
	b.draft = 0
	b.reports(5, time.Hour, 12)
	b.move(20*time.Hour, 12)
	b.reports(5, time.Hour, 12)
	ev := DetectGaps(5, b.pts, b.t, 0)
	if len(ev) != 1 {
		t.Fatalf("%d events", len(ev))
	}
	for _, k := range []string{"draught_before", "draught_after", "draught_change"} {
		if v, ok := ev[0].Detail[k]; !ok || v != nil {
			t.Errorf("%s = %v, want null", k, v)
		}
	}
	if len(DetectGaps(5, nil, rkT0, 0)) != 0 {
		t.Error("events for no track")
	}
}
