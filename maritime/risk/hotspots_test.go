package risk

import (
	"math"
	"testing"
	"time"

	"overwatch"

	"overwatch/maritime/vessel"
)

var hotNow = time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)

func hotAgo(d time.Duration) time.Time { return hotNow.Add(-d) }

func hotEvent(typ, sub string, imo, other overwatch.IMO, start time.Time, end *time.Time, lat, lon float64) Event {
	return Event{Type: typ, Subtype: sub, IMO: imo, Other: other, Start: start, End: end, Lat: lat, Lon: lon, HasPosition: true}
}

func TestHotspots(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	e5, e10, e40 := hotAgo(5*day), hotAgo(10*day), hotAgo(40*day)
	events := []Event{
		// Cell A, off Kharg Island (row 58, column 100 of 0.5° cells): 20 points.
		hotEvent(EventGap, "intentional", 1, 0, hotAgo(10*day), &e5, 29.1, 50.2),
		hotEvent(EventGap, "intentional", 2, 0, hotAgo(8*day), &e5, 29.2, 50.3),
		hotEvent(EventGap, "intentional", 3, 0, hotAgo(1*day), nil, 29.3, 50.4), // ongoing: active
		hotEvent(EventSTS, "proximity", 1, 4, hotAgo(9*day), &e5, 29.1, 50.2),
		hotEvent(EventSTS, "proximity", 2, 5, hotAgo(9*day), &e5, 29.1, 50.2),
		hotEvent(EventSpoofing, "", 1, 0, hotAgo(9*day), &e5, 29.1, 50.2),
		hotEvent(EventLoitering, "stationary", 1, 0, hotAgo(9*day), &e5, 29.1, 50.2),
		hotEvent(EventLoitering, "stationary", 2, 0, hotAgo(9*day), &e5, 29.1, 50.2),
		hotEvent(EventLoitering, "slow_roll", 3, 0, hotAgo(9*day), &e5, 29.1, 50.2),
		// Cell B: two vessels, last event five days ago: a low, inactive hotspot.
		hotEvent(EventLoitering, "stationary", 6, 0, hotAgo(12*day), &e10, 36.6, 22.9),
		hotEvent(EventLoitering, "stationary", 7, 0, hotAgo(6*day), &e5, 36.7, 22.8),
		// Cell C: two events of one vessel: no hotspot.
		hotEvent(EventGap, "", 8, 0, hotAgo(3*day), &e5, 1.3, 104.6),
		hotEvent(EventGap, "", 8, 0, hotAgo(2*day), &e5, 1.3, 104.6),
		// Cell D: older than 30 days.
		hotEvent(EventGap, "", 9, 0, hotAgo(50*day), &e40, -20, -40),
		hotEvent(EventGap, "", 10, 0, hotAgo(50*day), &e40, -20, -40),
		hotEvent(EventGap, "", 11, 0, hotAgo(50*day), &e40, -20, -40),
		// No position, sanctions, the future: left out.
		hotEvent(EventGap, "", 12, 0, hotAgo(day), nil, 0, 0),
		hotEvent(EventSanctions, "direct_imo", 13, 0, hotAgo(day), &e5, 29.1, 50.2),
		hotEvent(EventGap, "", 14, 0, hotNow.Add(day), nil, 29.1, 50.2),
		hotEvent(EventGap, "", 15, 0, hotAgo(day), nil, math.NaN(), 50.2),
	}
	got := Hotspots(events, hotNow, 0)
	if len(got) != 2 {
		t.Fatalf("%d hotspots, want 2: %+v", len(got), got)
	}
	a, b := got[0], got[1]
	if a.ID != "g0.5_58_100" || a.Events != 9 || a.Vessels != 5 || !a.Active || a.Severity != TierCritical || a.CellDeg != 0.5 {
		t.Errorf("cell A: %+v", a)
	}
	if a.ByType[EventGap] != 3 || a.ByType[EventSTS] != 2 || a.ByType[EventLoitering] != 3 || a.ByType[EventSanctions] != 0 {
		t.Errorf("cell A by type: %v", a.ByType)
	}
	if !a.FirstEvent.Equal(hotAgo(10*day)) || !a.LastEvent.Equal(hotNow) || a.Lat != 29.25 || a.Lon != 50.25 {
		t.Errorf("cell A: first %v last %v at %v,%v", a.FirstEvent, a.LastEvent, a.Lat, a.Lon)
	}
	if b.Events != 2 || b.Vessels != 2 || b.Active || b.Severity != TierLow || !b.LastEvent.Equal(e5) {
		t.Errorf("cell B: %+v", b)
	}
	// The same events on a finer grid split cell A's wider spread.
	fine := Hotspots(events, hotNow, 0.1)
	if len(fine) == 0 || fine[0].CellDeg != 0.1 || fine[0].Events >= 9 {
		t.Errorf("0.1° grid: %+v", fine)
	}
	if Hotspots(nil, hotNow, 1) != nil {
		t.Error("hotspots from nothing")
	}
}

func TestHotspotsAntimeridian(t *testing.T) {
	t.Parallel()
	events := []Event{
		hotEvent(EventGap, "", 1, 0, hotAgo(time.Hour), nil, 10.2, 180),
		hotEvent(EventGap, "", 2, 0, hotAgo(time.Hour), nil, 10.2, -180), // the same meridian
	}
	got := Hotspots(events, hotNow, 1)
	if len(got) != 1 || got[0].Vessels != 2 || got[0].ID != "g1_10_-180" {
		t.Errorf("%+v", got)
	}
}

func TestBaselineArea(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lat, lon float64
		want     string
	}{
		{44.6, 37.7, "black-sea"}, {51.9, 3.9, "northwest-europe"}, {-24.5, -45.5, "east-coast-south-america"},
		{0, -140, AreaOpenOcean}, {0, 0, AreaOpenOcean}, {math.NaN(), 10, AreaOpenOcean},
	} {
		if got := BaselineArea(c.lat, c.lon); got != c.want {
			t.Errorf("BaselineArea(%v, %v) = %s, want %s", c.lat, c.lon, got, c.want)
		}
	}
}

func TestAddVesselDays(t *testing.T) {
	t.Parallel()
	from := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var track []vessel.TrackPoint
	for h := range 48 {
		lat, lon := -24.0, -46.3 // off Santos
		if h >= 36 {
			lat, lon = 0, -30 // mid-Atlantic
		}
		for m := 0; m < 60; m += 20 {
			track = append(track, vessel.TrackPoint{TS: from.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute), Lat: lat, Lon: lon})
		}
	}
	vd := map[[2]string]float64{}
	AddVesselDays(vd, track, "tanker", from, from.Add(72*time.Hour))
	want := map[[2]string]float64{
		{"east-coast-south-america", CategoryAll}: 1.5, {"east-coast-south-america", "tanker"}: 1.5,
		{AreaOpenOcean, CategoryAll}: 0.5, {AreaOpenOcean, "tanker"}: 0.5,
	}
	if len(vd) != len(want) {
		t.Errorf("%v", vd)
	}
	for k, w := range want {
		if math.Abs(vd[k]-w) > 1e-9 {
			t.Errorf("%v: %v, want %v", k, vd[k], w)
		}
	}
	AddVesselDays(vd, track, "tanker", from.Add(24*time.Hour), from.Add(36*time.Hour)) // a day seen only off Santos
	if vd[[2]string{"east-coast-south-america", CategoryAll}] != 2.5 {
		t.Errorf("after a second track: %v", vd)
	}
}

func TestBaselines(t *testing.T) {
	t.Parallel()
	from := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	to := from.Add(10 * 24 * time.Hour)
	at := func(h int) time.Time { return from.Add(time.Duration(h) * time.Hour) }
	tanker := map[string]any{"category": "tanker"}
	endL := at(30)
	events := []Event{
		{Type: EventGap, IMO: 1, Start: at(5), Lat: -24, Lon: -46.3, Detail: tanker},
		{Type: EventGap, IMO: 1, Start: at(50), Lat: -24, Lon: -46.3, Detail: tanker},
		{Type: EventGap, IMO: 2, Start: at(60), Lat: -24, Lon: -46.3, Detail: map[string]any{"category": "cargo"}},
		{Type: EventGap, IMO: 2, Start: from.Add(-time.Hour), Lat: -24, Lon: -46.3},                         // before the period
		{Type: EventLoitering, IMO: 1, Start: at(18), End: &endL, Lat: -24, Lon: -46.3, Detail: tanker},     // 12 h
		{Type: EventLoitering, IMO: 1, Start: to.Add(-6 * time.Hour), Lat: -24, Lon: -46.3, Detail: tanker}, // ongoing: 6 h inside
		{Type: EventSTS, IMO: 1, Other: 2, Start: at(70), Lat: -24, Lon: -46.3, Detail: tanker},
		{Type: EventGap, IMO: 3, Start: at(80), Lat: 0, Lon: -140}, // open ocean, no vessel-days there
	}
	vd := map[[2]string]float64{
		{"east-coast-south-america", "tanker"}: 10, {"east-coast-south-america", "cargo"}: 20,
	}
	got := Baselines(events, vd, from, to)
	if len(got) != 3 {
		t.Fatalf("%d baselines: %+v", len(got), got)
	}
	want := []Baseline{
		{Area: "east-coast-south-america", Category: CategoryAll, VesselDays: 30, GapsPerVesselDay: 0.1, LoiterHoursPerDay: 1.8, TransfersPerDay: 0.1},
		{Area: "east-coast-south-america", Category: "cargo", VesselDays: 20, GapsPerVesselDay: 0.05},
		{Area: "east-coast-south-america", Category: "tanker", VesselDays: 10, GapsPerVesselDay: 0.2, LoiterHoursPerDay: 1.8, TransfersPerDay: 0.1},
	}
	for i, w := range want {
		w.From, w.To = from, to
		if got[i] != w {
			t.Errorf("baseline %d:\n got %+v\nwant %+v", i, got[i], w)
		}
	}
	// Categories given by vessel win over the details.
	got = BaselinesByVessel(events, map[overwatch.IMO]string{1: "cargo"}, vd, from, to)
	if got[1].Category != "cargo" || got[1].GapsPerVesselDay != 0.15 {
		t.Errorf("by vessel: %+v", got[1])
	}
	if Baselines(events, vd, to, from) != nil {
		t.Error("baselines of an empty period")
	}
}
