package risk

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/sealane"
	"overwatch/maritime/seaport"
	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
)

// rkSailing is a track sailing east at 12 kn mid-ocean, reporting every 5
// minutes, n reports.
func rkSailing(n int) *rkBuilder { return rkStart(rkOcean).reports(n, 5*time.Minute, 12) }

// rkSpoof moves reports i..i+n-1 of the track to a point north and east of
// the true position by the distances in km.
func rkSpoof(pts []vessel.TrackPoint, i, n int, northKM, eastKM float64) {
	at := tracktest.Offset(tracktest.LL{Lat: pts[i].Lat, Lon: pts[i].Lon}, northKM, eastKM)
	for k := i; k < i+n; k++ {
		pts[k].Lat, pts[k].Lon = at.Lat, at.Lon
	}
}

func TestSpoofedSegment(t *testing.T) {
	t.Parallel()
	b := rkSailing(60)
	rkSpoof(b.pts, 30, 5, 400, 300) // 500 km away for 25 minutes
	events := DetectSpoofing(11, b.pts)
	if len(events) != 1 {
		t.Fatalf("want one event, got %+v", events)
	}
	e := events[0]
	if e.Type != EventSpoofing || e.Subtype != "" || e.IMO != 11 || !e.Start.Equal(b.pts[30].TS) || e.End == nil || !e.End.Equal(b.pts[34].TS) {
		t.Fatalf("event %+v, want %v to %v", e, b.pts[30].TS, b.pts[34].TS)
	}
	if e.Lat != b.pts[29].Lat || e.EndLat != b.pts[35].Lat {
		t.Errorf("trusted positions %v → %v", e.Lat, e.EndLat)
	}
	d := e.Detail
	if km := d["jump_km"].(float64); math.Abs(km-500) > 3 {
		t.Errorf("jump %v km, want 500", km)
	}
	if kn := d["implied_speed_kn"].(float64); kn < 3000 {
		t.Errorf("implied speed %v kn", kn)
	}
	if d["positions"] != 5 || d["on_land"] != false || d["minutes"] != 20.0 || e.Severity != TierHigh {
		t.Errorf("detail %v severity %s", d, e.Severity)
	}
	rep := d["reported"].(map[string]float64)
	if rep["lat"] != b.pts[30].Lat || rep["lon"] != b.pts[30].Lon {
		t.Errorf("reported %v", rep)
	}
}

// One bad fix is one event, and neither the position before it nor the one
// after is blamed.
func TestSpoofSingleBadFix(t *testing.T) {
	t.Parallel()
	b := rkSailing(40)
	rkSpoof(b.pts, 20, 1, 0, 30)
	events := DetectSpoofing(12, b.pts)
	if len(events) != 1 || !events[0].Start.Equal(b.pts[20].TS) || !events[0].End.Equal(b.pts[20].TS) {
		t.Fatalf("want one event at %v, got %+v", b.pts[20].TS, events)
	}
	if events[0].Detail["positions"] != 1 || events[0].Severity != TierLow {
		t.Errorf("detail %v severity %s", events[0].Detail, events[0].Severity)
	}
	// two bad fixes in a row at different places: one event
	b = rkSailing(40)
	rkSpoof(b.pts, 20, 1, 0, 300)
	rkSpoof(b.pts, 21, 1, 200, 0)
	if events = DetectSpoofing(12, b.pts); len(events) != 1 || events[0].Detail["positions"] != 2 {
		t.Fatalf("want one event of two positions, got %+v", events)
	}
	// a bad first fix or a bad last one: nothing to return to, no event
	for _, i := range []int{0, 39} {
		b = rkSailing(40)
		rkSpoof(b.pts, i, 1, 0, 300)
		if events = DetectSpoofing(12, b.pts); len(events) != 0 {
			t.Errorf("bad fix %d: %+v", i, events)
		}
	}
}

func TestSpoofNotAJump(t *testing.T) {
	t.Parallel()
	// 9 km off for one report (over 50 kn, but under 10 km)
	b := rkSailing(40)
	rkSpoof(b.pts, 20, 1, 0, 9)
	if ev := DetectSpoofing(13, b.pts); len(ev) != 0 {
		t.Errorf("9 km: %+v", ev)
	}
	// a relocation: the track jumps and goes on from there
	b = rkSailing(40)
	for i := 20; i < 40; i++ {
		p := tracktest.Offset(tracktest.LL{Lat: b.pts[i].Lat, Lon: b.pts[i].Lon}, 0, 500)
		b.pts[i].Lat, b.pts[i].Lon = p.Lat, p.Lon
	}
	if ev := DetectSpoofing(13, b.pts); len(ev) != 0 {
		t.Errorf("relocation: %+v", ev)
	}
	// 200 km over a 10 h silence is 10.8 kn: no jump
	b = rkSailing(20)
	b.move(10*time.Hour, 10.8)
	b.reports(20, 5*time.Minute, 12)
	if ev := DetectSpoofing(13, b.pts); len(ev) != 0 {
		t.Errorf("after a silence: %+v", ev)
	}
	// a jump that comes back only after SpoofReturnWindow: a relocation,
	// then another
	b = rkSailing(20)
	rkSpoof(b.pts, 10, 10, 0, 300)
	b.pts = append(b.pts[:20:20], rkStart(tracktest.LL{Lat: b.pts[9].Lat, Lon: b.pts[9].Lon}).reports(1, time.Minute, 12).pts...)
	b.pts[20].TS = b.pts[10].TS.Add(SpoofReturnWindow + time.Minute)
	if ev := DetectSpoofing(13, b.pts); len(ev) != 0 {
		t.Errorf("late return: %+v", ev)
	}
	if len(DetectSpoofing(13, nil)) != 0 {
		t.Error("events for no track")
	}
}

func TestSpoofOnLand(t *testing.T) {
	t.Parallel()
	// at sea in the Gulf of Lion, a report in Provence 2 h later (120 km
	// at 32 kn: possible at sea), then back at sea
	sea, land, back := tracktest.LL{Lat: 42.5, Lon: 5.0}, tracktest.LL{Lat: 43.55, Lon: 4.85}, tracktest.LL{Lat: 42.55, Lon: 5.0}
	if geo.OnLand(sea.Lat, sea.Lon) || !geo.OnLand(land.Lat, land.Lon) || geo.OnLand(back.Lat, back.Lon) ||
		tracktest.Ports.PortAt(land.Lat, land.Lon) != "" {
		t.Fatal("the test's points are not where it expects")
	}
	pts := []vessel.TrackPoint{
		{TS: rkT0, Lat: sea.Lat, Lon: sea.Lon, SOG: 3},
		{TS: rkT0.Add(2 * time.Hour), Lat: land.Lat, Lon: land.Lon, SOG: 3},
		{TS: rkT0.Add(4 * time.Hour), Lat: back.Lat, Lon: back.Lon, SOG: 3},
	}
	ev := DetectSpoofing(14, pts)
	if len(ev) != 1 || ev[0].Detail["on_land"] != true || ev[0].Severity != TierMedium {
		t.Fatalf("want one on-land event, got %+v", ev)
	}
}

// Every voyage between the reference ports along the sea lanes, sampled
// every 30 minutes at 14 kn (7 nm between fixes), is no spoofing: not the
// transits of the Suez and Panama canals nor the Mississippi and the
// Paraná, which the land mask draws as land (at that sampling
// the sea-and-land rule made 48 false events of 53).
func TestSpoofNotACanalOrRiverTransit(t *testing.T) {
	t.Parallel()
	ports := seaport.All()
	viaChannel := 0
	for i, a := range ports {
		for _, b := range ports[i+1:] {
			r, err := sealane.Between(a.Slug, b.Slug)
			if err != nil {
				t.Fatal(err)
			}
			var pts []vessel.TrackPoint
			next, done := 0.0, 0.0 // the distance of the next fix, and to point k-1, in nm
			for k := 1; k < len(r.Points); k++ {
				p, q := r.Points[k-1], r.Points[k]
				leg := geo.DistanceKM(p[0], p[1], q[0], q[1]) / 1.852
				for ; next <= done+leg; next += 7 {
					lat, lon := geo.Intermediate(p[0], p[1], q[0], q[1], (next-done)/math.Max(leg, 1e-9))
					pts = append(pts, vessel.TrackPoint{TS: rkT0.Add(time.Duration(len(pts)) * 30 * time.Minute), Lat: lat, Lon: lon, SOG: 14})
				}
				done += leg
			}
			if slices.ContainsFunc(r.Via, func(v string) bool { return strings.Contains(v, "Canal") }) ||
				slices.Contains([]string{"new-orleans", "rosario"}, a.Slug) || slices.Contains([]string{"new-orleans", "rosario"}, b.Slug) {
				viaChannel++
			}
			if ev := DetectSpoofing(15, pts); len(ev) != 0 {
				t.Errorf("%s → %s via %v: %d events, the first at %.3f,%.3f %v", a.Slug, b.Slug, r.Via, len(ev), ev[0].Lat, ev[0].Lon, ev[0].Detail)
			}
		}
	}
	if viaChannel < 100 {
		t.Errorf("only %d routes through a canal or up a river", viaChannel)
	}
}

// A report well inland and away from any channel, between two at sea, is
// still a jump to land at a ship's speed.
func TestSpoofOnLandNotExplained(t *testing.T) {
	t.Parallel()
	// Off the Nile delta, then 15 km inland in the delta (43 km at 23 kn),
	// then back at sea.
	sea, inland, back := tracktest.LL{Lat: 31.6, Lon: 31.3}, tracktest.LL{Lat: 31.3, Lon: 31.0}, tracktest.LL{Lat: 31.62, Lon: 31.32}
	if geo.OnLand(sea.Lat, sea.Lon) || geo.OnLand(back.Lat, back.Lon) || !geo.OnLand(inland.Lat, inland.Lon) || geo.DistanceToShoreKM(inland.Lat, inland.Lon) < SpoofInlandKM ||
		sealane.NearChannel(inland.Lat, inland.Lon, SpoofChannelKM) || tracktest.Ports.PortAt(inland.Lat, inland.Lon) != "" {
		t.Fatal("the test's points are not where it expects")
	}
	pts := []vessel.TrackPoint{
		{TS: rkT0, Lat: sea.Lat, Lon: sea.Lon, SOG: 12},
		{TS: rkT0.Add(time.Hour), Lat: inland.Lat, Lon: inland.Lon, SOG: 12},
		{TS: rkT0.Add(2 * time.Hour), Lat: back.Lat, Lon: back.Lon, SOG: 12},
	}
	if ev := DetectSpoofing(16, pts); len(ev) != 1 || ev[0].Detail["on_land"] != true {
		t.Errorf("inland: want one event on land, got %+v", ev)
	}
}

// A false fix received alone after a silence of hours, far from the track
// but within 50 kn of its last position, then the track going on where the
// vessel truly is: the fix is the spoofing (at sparse sampling a
// spoofed position received after a satellite outage was trusted and the
// true track taken for a relocation).
func TestSpoofFalseFixAfterSilence(t *testing.T) {
	t.Parallel()
	b := rkStart(rkOcean).reports(10, 30*time.Minute, 12)
	b.move(6*time.Hour+30*time.Minute, 12)
	at := b.t
	b.reports(10, 30*time.Minute, 12)
	var pts []vessel.TrackPoint
	pts = append(pts, b.pts[:10]...)
	fake := tracktest.Offset(tracktest.LL{Lat: b.pts[10].Lat, Lon: b.pts[10].Lon}, -500, 0) // 500 km south, 41 kn from the last position
	pts = append(pts, vessel.TrackPoint{TS: at.Add(-28 * time.Minute), Lat: fake.Lat, Lon: fake.Lon, SOG: 12})
	pts = append(pts, b.pts[10:]...)
	ev := DetectSpoofing(11, pts)
	if len(ev) != 1 || !ev[0].Start.Equal(pts[10].TS) || !ev[0].End.Equal(pts[10].TS) {
		t.Fatalf("want the false fix at %s, got %+v", pts[10].TS, ev)
	}
	// The vessel truly sailed there (the track goes on from the new
	// position): a relocation, no event.
	var moved []vessel.TrackPoint
	moved = append(moved, b.pts[:10]...)
	far := rkStart(tracktest.LL{Lat: fake.Lat, Lon: fake.Lon})
	far.t = at.Add(-28 * time.Minute)
	far.reports(10, 30*time.Minute, 12)
	moved = append(moved, far.pts...)
	if ev := DetectSpoofing(11, moved); len(ev) != 0 {
		t.Errorf("a relocation after a silence: %+v", ev)
	}
}
