package risk

import (
	"testing"
	"time"

	"overwatch"

	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
)

// recCrossing is the hourly track of a vessel sailing due east at 12 kn
// from `from` for the hours, silent (no position) between the hours
// silentFrom and silentTo.
func recCrossing(from tracktest.LL, start time.Time, hours, silentFrom, silentTo int) []vessel.TrackPoint {
	var out []vessel.TrackPoint
	for h := 0; h <= hours; h++ {
		if h > silentFrom && h < silentTo {
			continue
		}
		p := tracktest.Offset(from, 0, float64(h)*12*kmPerNM)
		out = append(out, vessel.TrackPoint{TS: start.Add(time.Duration(h) * time.Hour), Lat: p.Lat, Lon: p.Lon})
	}
	return out
}

// recGap is a suspected intentional gap of the vessel between two points of
// the parallel rkOcean lies on, hours long.
func recGap(imo overwatch.IMO, fromKM, toKM float64, hours float64) Event {
	a, b := tracktest.Offset(rkOcean, 0, fromKM), tracktest.Offset(rkOcean, 0, toKM)
	end := rkT0.Add(time.Duration(hours * float64(time.Hour)))
	return Event{Type: EventGap, Subtype: "intentional", IMO: imo, Start: rkT0, End: &end, Lat: a.Lat, Lon: a.Lon, EndLat: b.Lat, EndLon: b.Lon,
		Severity: TierHigh, Detail: map[string]any{"hours": hours, "intentional": true, "draught_change": nil, "reception_quality": nil}}
}

// A stretch of ocean where every vessel crossing goes silent is a coverage
// hole: a gap across it is not the vessel's doing, while one where the
// other vessels are heard stays intentional (gaps by cause). The
// vessel's own silences there do not count, and where nobody else sailed
// the reception is unknown.
func TestJudgeReception(t *testing.T) {
	t.Parallel()
	r := NewReception()
	// Ten vessels sail 60 hours along the parallel; each is silent from
	// its hour 20 to 40 (the hole, 20 h × 22 km from the start), except
	// vessel 5, heard throughout, east of the hole only... all of them
	// heard before and after it.
	for v := 1; v <= 10; v++ {
		r.Add(overwatch.IMO(9000000+v), recCrossing(rkOcean, rkT0.Add(time.Duration(v)*24*time.Hour), 60, 20, 40))
	}
	// The vessel judged sailed there silent too, many times.
	for k := 0; k < 20; k++ {
		r.Add(9000099, recCrossing(rkOcean, rkT0.Add(time.Duration(k)*72*time.Hour), 60, 45, 60))
	}
	km := 12 * kmPerNM
	hole := recGap(9000099, 21*km, 39*km, 18)
	heard := recGap(9000099, 2*km, 18*km, 16)
	ownOnly := recGap(9000099, 46*km, 59*km, 13) // silent there only itself
	elsewhere := recGap(9000099, 0, 100, 12)
	elsewhere.Lat, elsewhere.EndLat = -40, -40
	loaded := recGap(9000099, 21*km, 39*km, 18) // across the hole, its draught up 3 m
	loaded.Severity, loaded.Detail["draught_change"] = TierCritical, 3.0
	events := []Event{hole, heard, ownOnly, elsewhere, loaded}
	JudgeReception(events, r)
	if e := events[0]; e.Subtype != "" || e.Detail["intentional"] != false || e.Severity != TierLow || e.Detail["reception_quality"].(float64) >= ReceptionPoor {
		t.Errorf("across the hole: %s %s %v", e.Subtype, e.Severity, e.Detail)
	}
	if e := events[1]; e.Subtype != "intentional" || e.Severity != TierHigh || e.Detail["reception_quality"].(float64) < 0.9 {
		t.Errorf("where the others are heard: %s %s %v", e.Subtype, e.Severity, e.Detail)
	}
	if e := events[2]; e.Subtype != "intentional" || e.Detail["reception_quality"].(float64) < ReceptionPoor {
		t.Errorf("silent there only itself: %s %v", e.Subtype, e.Detail)
	}
	if e := events[3]; e.Subtype != "intentional" || e.Detail["reception_quality"] != nil {
		t.Errorf("where nobody sailed: %s %v", e.Subtype, e.Detail)
	}
	// Cargo moved while dark: no coverage hole explains that.
	if e := events[4]; e.Subtype != "intentional" || e.Detail["intentional"] != true || e.Severity != TierCritical {
		t.Errorf("across the hole with 3 m of cargo moved: %s %s %v", e.Subtype, e.Severity, e.Detail)
	}
}

// A feed that keeps one position in half an hour and a static report in
// three hours can never give 20 positions in 12 hours: its reception
// before a gap is dense when a position came in during 36 or more of the
// 48 hours (intentional-gap recall 0.90 at sparse sampling).
func TestGapDenseOnAThinnedFeed(t *testing.T) {
	t.Parallel()
	b := rkStart(rkOcean)
	for h := 0; h < 60; h++ { // positions every half hour, the second lost in 3 hours of 4: 60 in 48 h
		b.emit(12)
		b.move(30*time.Minute, 12)
		if h%4 == 0 {
			b.emit(12)
		}
		b.move(30*time.Minute, 12)
	}
	b.move(20*time.Hour, 12)
	b.reports(4, 30*time.Minute, 12)
	for _, c := range []struct {
		every time.Duration
		want  string
	}{{3 * time.Hour, "intentional"}, {0, ""}, {6 * time.Minute, ""}} {
		ev := DetectGaps(6, b.pts, b.t, c.every)
		if len(ev) != 1 || ev[0].Subtype != c.want {
			t.Errorf("static reports every %s: %+v, want subtype %q", c.every, ev, c.want)
		}
	}
	// On a thinned feed with hours of silence before, not dense.
	b = rkStart(rkOcean).reports(40, time.Hour, 12)
	b.move(20*time.Hour, 12)
	b.reports(4, 30*time.Minute, 12)
	b.pts = append(b.pts[:20:20], b.pts[30:]...) // 10 silent hours in the 48 before
	if ev := DetectGaps(6, b.pts, b.t, 3*time.Hour); len(ev) != 1 || ev[0].Subtype != "" {
		t.Errorf("thinned and sparse before: %+v", ev)
	}
}

// Dark port calls at one spot do not make it a coverage hole: vessels that
// fall silent there and come back there a day and a half later (having
// been in port) say nothing of the reception where they vanished, and a
// gap of another vessel there stays intentional (intentional-gap
// recall 0.71 with the rates doubled, all misses dark calls at
// Novorossiysk).
func TestJudgeReceptionDarkCalls(t *testing.T) {
	t.Parallel()
	r := NewReception()
	for v := 1; v <= 20; v++ {
		start := rkT0.Add(time.Duration(v) * 24 * time.Hour)
		var track []vessel.TrackPoint
		spot, back := tracktest.Offset(rkOcean, 10, 10), tracktest.Offset(rkOcean, 10, 14)
		for h := 0; h <= 12; h++ { // heard for 12 hours on the spot, silent 36 h, back near it
			track = append(track, vessel.TrackPoint{TS: start.Add(time.Duration(h) * time.Hour), Lat: spot.Lat, Lon: spot.Lon})
		}
		for h := 48; h <= 60; h++ {
			track = append(track, vessel.TrackPoint{TS: start.Add(time.Duration(h) * time.Hour), Lat: back.Lat, Lon: back.Lon})
		}
		r.Add(overwatch.IMO(9000000+v), track)
	}
	gap := recGap(9000099, 10, 13, 40) // from the spot to 3 km east of it, inside one cell
	a, b := tracktest.Offset(rkOcean, 10, 10), tracktest.Offset(rkOcean, 10, 13)
	gap.Lat, gap.Lon, gap.EndLat, gap.EndLon = a.Lat, a.Lon, b.Lat, b.Lon
	events := []Event{gap}
	JudgeReception(events, r)
	if e := events[0]; e.Subtype != "intentional" || e.Detail["reception_quality"].(float64) < 0.9 {
		t.Errorf("where the others went dark to call at a port: %s %v", e.Subtype, e.Detail)
	}
}
