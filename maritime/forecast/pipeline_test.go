package forecast

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/portcall"
)

func TestPipelines(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	arrived := now.Add(-20 * time.Hour)
	calls := []InPort{{IMO: 1, Port: "santos", Operation: portcall.OpLoad, Arrival: arrived, DWT: 50000},
		{IMO: 2, Port: "santos", Operation: portcall.OpDischarge, Arrival: arrived},
		{IMO: 3, Port: "santos", Operation: portcall.OpUnknown, Arrival: arrived}}
	moving := []Underway{
		{IMO: 4, At: now.Add(-time.Hour), Lat: -24.5, Lon: -45.5, SpeedKt: 12, Destination: "SANTOS BR", DWT: 80000}, // ~150 km away
		{IMO: 5, At: now.Add(-time.Hour), Lat: 30, Lon: -40, SpeedKt: 12, Destination: "SANTOS"},                     // weeks away
		{IMO: 6, At: now.Add(-100 * time.Hour), Lat: -24.5, Lon: -45.5, SpeedKt: 12, Destination: "SANTOS"},          // stale
		{IMO: 7, At: now.Add(-time.Hour), Lat: -24.5, Lon: -45.5, SpeedKt: 0.5, Destination: "SANTOS"},               // not under way
		{IMO: 1, At: now.Add(-time.Hour), Lat: -24.5, Lon: -45.5, SpeedKt: 12, Destination: "SANTOS"},                // in port already
	}
	got := Pipelines(now, calls, moving)["santos"]
	if len(got) != 3 || !got[0].InPort || !got[1].InPort || got[2].InPort || got[2].IMO != 4 {
		t.Fatalf("%+v", got)
	}
	if got[0].Capacity != 50000*portcall.PayloadShare || got[1].Capacity != 0 || got[2].Capacity != 80000*portcall.PayloadShare {
		t.Errorf("capacities: %+v", got)
	}
	if eta := got[2].Arrival.Sub(now); eta < 2*time.Hour || eta > 6*time.Hour { // ~55 nm at 12 kn, from an hour ago
		t.Errorf("ETA in %s", eta)
	}
}

// Only vessels of a kind that loaded at the port lately count: a tanker
// bound for a grain terminal comes to discharge.
func TestExpectCountsTheKindsThatLoad(t *testing.T) {
	w := monday.Add(10 * week)
	at := func(h int) *time.Time { v := w.Add(time.Duration(h) * time.Hour); return &v }
	calls := []portcall.Call{ // bulk carriers (AIS 70) loaded here
		{IMO: 1, Port: "rouen", Arrival: w.Add(-100 * time.Hour), Departure: at(-52), Operation: portcall.OpLoad, Confidence: 4, ShipType: 70},
		{IMO: 2, Port: "rouen", Arrival: w.Add(-200 * time.Hour), Departure: at(-152), Operation: portcall.OpLoad, Confidence: 4, ShipType: 71},
	}
	d := DwellOf(calls, "rouen", w)
	if len(d.Loaders) != 1 || !d.Loaders[7] {
		t.Fatalf("loaders: %v", d.Loaders)
	}
	bound := []Bound{
		{IMO: 3, Arrival: w.Add(-time.Hour), InPort: true, Capacity: 50000, ShipType: 70},
		{IMO: 4, Arrival: w.Add(-time.Hour), InPort: true, Capacity: 90000, ShipType: 80}, // a tanker
		{IMO: 5, Arrival: w.Add(-time.Hour), InPort: true, Capacity: 50000},               // kind unknown: counted
	}
	e := Expect(bound, d, w, w.Add(week), 0)
	if e.Count != 2 || !(e.Vessels > 0) || math.Abs(e.Tonnes-e.Vessels*50000) > 1e-6 { // the unknown capacity: the others' mean
		t.Errorf("expected: %+v", e)
	}
	if e := Expect(bound, Dwell{}, w, w.Add(week), 0); e.Count != 3 { // no loader known: every kind counts
		t.Errorf("without loaders: %+v", e)
	}
}

func TestDwellLeaves(t *testing.T) {
	w := monday
	d := Dwell{Call: durations{24, 48, 72, 96}, Berth: durations{10, 20, 30, 40}} // hours
	end := w.Add(week)
	cases := []struct {
		name string
		b    Bound
		now  time.Time
		want float64
	}{
		{"due Monday: every call fits the week", Bound{Arrival: w}, w, 1},
		{"due Saturday: calls up to 48 h fit", Bound{Arrival: end.Add(-48 * time.Hour)}, w, 0.5},
		{"due after the week", Bound{Arrival: end.Add(time.Hour)}, w, 0},
		{"in port 30 h: every longer call ends within the week", Bound{Arrival: w.Add(-30 * time.Hour), InPort: true}, w, 1},
		{"in port 50 h, 24 h left: 72 of {72, 96}", Bound{Arrival: end.Add(-74 * time.Hour), InPort: true}, end.Add(-24 * time.Hour), 0.5},
		{"in port longer than any call", Bound{Arrival: w.Add(-200 * time.Hour), InPort: true}, w, 1},
		{"the week is over", Bound{Arrival: w}, end, 0},
		{"alongside 15 h, 10 h left: 20 of {20, 30, 40}", Bound{Arrival: w.Add(-100 * time.Hour), InPort: true, Berthed: end.Add(-25 * time.Hour)}, end.Add(-10 * time.Hour), 1.0 / 3},
		{"alongside from the future: timed as at anchor", Bound{Arrival: w.Add(-30 * time.Hour), InPort: true, Berthed: end}, w, 1},
	}
	for _, c := range cases {
		if got := d.leaves(c.b, c.now, end); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if got := (Dwell{}).leaves(Bound{Arrival: w}, w, end); got != 1 {
		t.Errorf("no history, a whole week: %v", got)
	}
	// Alongside, but no berth stay seen: timed by the whole call (30 h of
	// {24, 48}: the 48 h call ends 18 h later, beyond the 10 h left).
	if got := (Dwell{Call: durations{24, 48}}).leaves(Bound{Arrival: w.Add(-30 * time.Hour), InPort: true, Berthed: w}, w, w.Add(10*time.Hour)); got != 0 {
		t.Errorf("alongside, no berth stays seen: %v", got)
	}
	// Expect: a vessel of unknown capacity counts at the others' mean.
	e := Expect([]Bound{{Arrival: w, Capacity: 40000}, {Arrival: w, Capacity: 60000}, {Arrival: w}}, d, w, end, 1)
	if e.Count != 3 || e.Vessels != 3 || e.Tonnes != 150000 {
		t.Errorf("expect: %+v", e)
	}
	if e := Expect([]Bound{{Arrival: w}}, d, w, end, 7000); e.Tonnes != 7000 {
		t.Errorf("fallback: %+v", e)
	}
}

func TestPipelineHistoryAndCalibration(t *testing.T) {
	w := monday.Add(10 * week)
	at := func(h int) *time.Time { v := w.Add(time.Duration(h) * time.Hour); return &v }
	calls := []portcall.Call{
		// Durations of 48 h, left before the Monday.
		{IMO: 1, Port: "santos", Arrival: w.Add(-100 * time.Hour), Departure: at(-52), Operation: portcall.OpLoad, Confidence: 4},
		{IMO: 2, Port: "santos", Arrival: w.Add(-200 * time.Hour), Departure: at(-152), Operation: portcall.OpLoad, Confidence: 4},
		// In port at the Monday, and arriving in the week having declared it.
		{IMO: 3, Port: "santos", Arrival: w.Add(-time.Hour), Departure: at(40), Operation: portcall.OpLoad, Confidence: 4, DWTEstimate: 50000},
		{IMO: 4, Port: "santos", Arrival: w.Add(30 * time.Hour), Operation: portcall.OpLoad, DeclaredPort: "santos", Confidence: 4, DWTEstimate: 50000},
		// Not counted: arrives late in the week (its 48 h do not fit), undeclared, discharging, unpublished.
		{IMO: 5, Port: "santos", Arrival: w.Add(150 * time.Hour), Operation: portcall.OpLoad, DeclaredPort: "santos", Confidence: 4, DWTEstimate: 50000},
		{IMO: 6, Port: "santos", Arrival: w.Add(30 * time.Hour), Operation: portcall.OpLoad, Confidence: 4, DWTEstimate: 50000},
		{IMO: 7, Port: "santos", Arrival: w.Add(-time.Hour), Operation: portcall.OpDischarge, Confidence: 4, DWTEstimate: 50000},
		{IMO: 8, Port: "santos", Arrival: w.Add(-time.Hour), Operation: portcall.OpLoad, Confidence: 1, DWTEstimate: 50000},
	}
	hist := PipelineHistory(calls, []time.Time{w})
	e := hist["santos"][w]
	if e.Count != 3 || math.Abs(e.Vessels-2) > 1e-9 || math.Abs(e.Tonnes-2*50000*portcall.PayloadShare) > 1e-6 {
		t.Fatalf("history: %+v", e)
	}
	// Calibration: the exports were twice the model's in the weeks before.
	var rows []Week
	h := map[time.Time]Expected{}
	for i := range 12 {
		start := monday.Add(time.Duration(i) * week)
		rows = append(rows, Week{Start: start, Tonnes: 200000, Vessels: 4})
		h[start] = Expected{Vessels: 2, Tonnes: 100000}
	}
	s := NewSeries("santos", rows)
	c := Calibrate(s, h, 12)
	if c.Weeks != 12 || math.Abs(c.Factor-2) > 1e-9 || c.RelSD > 1e-9 {
		t.Errorf("calibration: %+v", c)
	}
	if c := Calibrate(s, h, 3); c.Factor != 1 || c.Weeks != 3 {
		t.Errorf("three weeks are too few: %+v", c)
	}
	tonnes, lo, hi, vessels := Pipeline(Expected{Vessels: 2, Tonnes: 100000, DepartedTonnes: 30000, DepartedVessels: 1}, Calibration{Factor: 2, RelSD: 0.1, Weeks: 8})
	if tonnes != 230000 || math.Abs(lo-(230000-1.96*0.1*200000)) > 1e-6 || math.Abs(hi-(230000+1.96*0.1*200000)) > 1e-6 || vessels != 3 {
		t.Errorf("pipeline: %v %v %v %v", tonnes, lo, hi, vessels)
	}
	// A week in which the port stopped (no departure though the model
	// expected 4 or more vessels: a closure) is not calibrated on.
	h[monday.Add(5*week)] = Expected{Vessels: 6, Tonnes: 300000}
	rows[5].Tonnes, rows[5].Vessels = 0, 0
	if c := Calibrate(NewSeries("santos", rows), h, 12); c.Weeks != 11 || math.Abs(c.Factor-2) > 1e-9 {
		t.Errorf("a stopped week calibrated on: %+v", c)
	}
	// An import port's pipeline, mostly vessels that come to discharge,
	// calibrates far below 1 (bounded at 0.02).
	for k := range h {
		h[k] = Expected{Vessels: 10, Tonnes: 1e6}
	}
	if c := Calibrate(s, h, 12); math.Abs(c.Factor-0.2) > 1e-9 {
		t.Errorf("import port: %+v", c)
	}
	// Uncalibrated: a Poisson count of vessels at their mean cargo.
	if tonnes, lo, _, _ := Pipeline(Expected{Vessels: 4, Tonnes: 200000}, Calibration{Factor: 1}); tonnes != 200000 || math.Abs(lo-(4-1.96*2)*50000) > 1e-6 {
		t.Errorf("uncalibrated: %v %v", tonnes, lo)
	}
}
