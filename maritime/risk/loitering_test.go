package risk

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/seaport"
	"overwatch/maritime/tracktest"
)

// rkLoiter is a track that sails south at 12 kn, reporting every 6
// minutes, to `at`, where it stops for `stop` (a multiple of 6 minutes)
// moving south at knots, then sails on. Its reports (speed knots, or not
// reported) fall 3 minutes either side of the stop's start and end, so
// that both of the detector's estimates (sailing at 12 kn from or to the
// reports either side, or half-way to them when no speed is reported)
// give the true stop, within the drift of 3 minutes; it returns the track
// and the stop's start and end.
func rkLoiter(at tracktest.LL, stop time.Duration, knots float64, noSOG bool) (*rkBuilder, time.Time, time.Time) {
	const every = 6 * time.Minute
	start, end := rkT0.Add(3*time.Hour), rkT0.Add(3*time.Hour+stop)
	south := func(d time.Duration, kn float64) float64 { return -kn * kmPerNM * d.Hours() }
	stopEnd := tracktest.Offset(at, south(stop, knots), 0)
	b := &rkBuilder{noSOG: noSOG}
	add := func(ts time.Time, p tracktest.LL, kn float64) {
		b.t, b.pos = ts, p
		b.emit(kn)
	}
	for k := 19; k >= 0; k-- {
		d := every/2 + time.Duration(k)*every
		add(start.Add(-d), tracktest.Offset(at, -south(d, 12), 0), 12)
	}
	for d := every / 2; d < stop; d += every {
		add(start.Add(d), tracktest.Offset(at, south(d, knots), 0), knots)
	}
	for k := 0; k < 20; k++ {
		d := every/2 + time.Duration(k)*every
		add(end.Add(d), tracktest.Offset(stopEnd, south(d, 12), 0), 12)
	}
	return b, start, end
}

func TestLoiteringDuration(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		stop  time.Duration
		knots float64
		want  string // subtype, "" for none
	}{
		{"stationary 4.1 h", 4*time.Hour + 6*time.Minute, 0.1, LoiterStationary},
		{"stationary 3.9 h", 3*time.Hour + 54*time.Minute, 0.1, ""},
		{"slow roll 4.1 h", 4*time.Hour + 6*time.Minute, 1.2, LoiterSlowRoll},
		{"slow roll 3.9 h", 3*time.Hour + 54*time.Minute, 1.2, ""},
		{"at 2 kn: not loitering", 10 * time.Hour, 2.0, ""},
		{"at 1.9 kn", 10 * time.Hour, 1.9, LoiterSlowRoll},
		{"at 0.5 kn: a slow roll", 10 * time.Hour, 0.5, LoiterSlowRoll},
		{"at 0.4 kn: stationary", 10 * time.Hour, 0.4, LoiterStationary},
	} {
		for _, noSOG := range []bool{false, true} {
			name := c.name
			if noSOG {
				name += ", speed not reported"
			}
			t.Run(name, func(t *testing.T) {
				b, start, end := rkLoiter(rkOcean, c.stop, c.knots, noSOG)
				events := DetectLoitering(7, b.pts, tracktest.Ports, b.t.Add(24*time.Hour))
				if c.want == "" {
					if len(events) != 0 {
						t.Fatalf("want none, got %+v", events)
					}
					return
				}
				if len(events) != 1 {
					t.Fatalf("want one event, got %+v", events)
				}
				e := events[0]
				if e.Type != EventLoitering || e.Subtype != c.want || e.IMO != 7 || e.End == nil {
					t.Fatalf("event %+v, want %s", e, c.want)
				}
				if e.Start.Sub(start).Abs() > 30*time.Second || e.End.Sub(end).Abs() > 30*time.Second {
					t.Errorf("from %v to %v, want %v to %v", e.Start, *e.End, start, end)
				}
				d := e.Detail
				if h := d["hours"].(float64); math.Abs(h-c.stop.Hours()) > 0.05 {
					t.Errorf("hours %v, want %.1f", h, c.stop.Hours())
				}
				if v := d["mean_speed_kn"].(float64); math.Abs(v-c.knots) > 0.1 {
					t.Errorf("mean speed %v, want %v", v, c.knots)
				}
				if d["context"] != ContextOffshore || d["ongoing"] != false || e.Severity == "" {
					t.Errorf("detail %v severity %s", d, e.Severity)
				}
			})
		}
	}
}

// Loitering is 20 nm or more from shore; nearer, only in a known transfer
// area; never in a port area.
func TestLoiteringWhere(t *testing.T) {
	t.Parallel()
	laconia := TransferAreas()[0]
	if laconia.Name != "Gulf of Laconia" || rkShoreNM(tracktest.LL{Lat: laconia.Lat, Lon: laconia.Lon}) > 10 {
		t.Fatalf("transfer area %+v", laconia)
	}
	santos, _ := seaport.BySlug("santos")
	for _, c := range []struct {
		name    string
		at      tracktest.LL
		context string // "" for none
	}{
		{"20.2 nm from shore", rkShorePoint(t, 20.2), ContextOffshore},
		{"19.8 nm from shore", rkShorePoint(t, 19.8), ""},
		{"known transfer area, 5 nm from shore", tracktest.LL{Lat: laconia.Lat, Lon: laconia.Lon}, ContextTransferArea},
		{"at anchor in a port area", tracktest.ZonePoint(santos.Anchorages[0]), ""},
		{"port approach", rkApproachPoint(t), ContextPortApproach},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _, _ := rkLoiter(c.at, 10*time.Hour, 0.1, false)
			events := DetectLoitering(8, b.pts, tracktest.Ports, b.t)
			if c.context == "" {
				if len(events) != 0 {
					t.Fatalf("want none, got %+v", events)
				}
				return
			}
			if len(events) != 1 {
				t.Fatalf("want one, got %+v", events)
			}
			d := events[0].Detail
			if d["context"] != c.context {
				t.Errorf("context %v, want %s (%v)", d["context"], c.context, d)
			}
			switch c.context {
			case ContextTransferArea:
				if d["area"] != laconia.Name || events[0].Severity != TierHigh {
					t.Errorf("area %v severity %s", d["area"], events[0].Severity)
				}
			case ContextPortApproach:
				if d["port"] == nil || events[0].Severity != TierLow {
					t.Errorf("port %v severity %s", d["port"], events[0].Severity)
				}
			case ContextOffshore:
				if nm := d["distance_from_shore_nm"].(float64); math.Abs(nm-20.2) > 0.15 {
					t.Errorf("distance from shore %v nm", nm)
				}
			}
		})
	}
}

// rkApproachPoint is a point 20 nm or more from shore, outside every port
// area, within PortApproachKM of one.
func rkApproachPoint(t *testing.T) tracktest.LL {
	t.Helper()
	for _, p := range seaport.All() {
		for bearing := 0.0; bearing < 360; bearing += 15 {
			for km := p.Area.RadiusKM + 5; km <= p.Area.RadiusKM+45; km += 5 {
				rad := bearing * math.Pi / 180
				q := tracktest.Offset(tracktest.ZonePoint(p.Area), km*math.Cos(rad), km*math.Sin(rad))
				if rkShoreNM(q) > 22 && tracktest.Ports.PortAt(q.Lat, q.Lon) == "" && !inTransferArea(q.Lat, q.Lon) {
					return q
				}
			}
		}
	}
	t.Fatal("no port approach 20 nm from shore")
	return tracktest.LL{}
}

func TestLoiteringOngoingAndSplit(t *testing.T) {
	t.Parallel()
	// stopped mid-ocean until the end of the data
	b := rkStart(rkOcean).reports(10, 10*time.Minute, 12)
	b.reports(60, 10*time.Minute, 0.2)
	last := b.pts[len(b.pts)-1].TS
	events := DetectLoitering(9, b.pts, tracktest.Ports, last.Add(time.Hour))
	if len(events) != 1 || events[0].End != nil || events[0].Detail["ongoing"] != true {
		t.Fatalf("want one ongoing event, got %+v", events)
	}
	// the data go on 11 h after the last position: it may go on still
	// (silences under GapMinimum are bridged)
	if events = DetectLoitering(9, b.pts, tracktest.Ports, last.Add(11*time.Hour)); len(events) != 1 || events[0].End != nil {
		t.Fatalf("want one ongoing event, got %+v", events)
	}
	// the data go on 12 h after the last position: silent, so it ended
	events = DetectLoitering(9, b.pts, tracktest.Ports, last.Add(12*time.Hour))
	if len(events) != 1 || events[0].End == nil || !events[0].End.Equal(last) {
		t.Fatalf("want one closed event ending %v, got %+v", last, events)
	}
	// a silence of 12 h (an AIS gap) splits a stop in two
	b = rkStart(rkOcean).reports(30, 10*time.Minute, 0.2)
	b.move(12*time.Hour, 0.2)
	b.reports(30, 10*time.Minute, 0.2)
	b.reports(10, 10*time.Minute, 12)
	events = DetectLoitering(9, b.pts, tracktest.Ports, b.t)
	if len(events) != 2 {
		t.Fatalf("want two events, got %+v", events)
	}
	// a silence of 8 h (a satellite's revisit interval: at sparse sampling, silences
	// of 6–12 h fell between the detectors) does not
	b = rkStart(rkOcean).reports(30, 10*time.Minute, 0.2)
	b.move(8*time.Hour, 0.2)
	b.reports(30, 10*time.Minute, 0.2)
	b.reports(10, 10*time.Minute, 12)
	if events = DetectLoitering(9, b.pts, tracktest.Ports, b.t); len(events) != 1 {
		t.Fatalf("want one event, got %+v", events)
	}
	// a jump of 20 km between reports of 0.2 kn (faster than 2 kn) splits
	b = rkStart(rkOcean).reports(30, 10*time.Minute, 0.2)
	b.pos = tracktest.Offset(b.pos, 20, 0)
	b.reports(30, 10*time.Minute, 0.2)
	if events = DetectLoitering(9, b.pts, tracktest.Ports, b.t.Add(24*time.Hour)); len(events) != 2 {
		t.Fatalf("want two events, got %+v", events)
	}
	if len(DetectLoitering(9, nil, tracktest.Ports, rkT0)) != 0 {
		t.Error("events for no track")
	}
}

// A vessel that stays within 1 km of a spot is stationary whatever the
// speed it reports.
func TestLoiteringStationarySpread(t *testing.T) {
	t.Parallel()
	b := rkStart(rkOcean).reports(10, 10*time.Minute, 12)
	spot := b.pos
	for k := 0; k < 40; k++ { // 0.9 km about the spot, reporting 1.5 kn
		rad := float64(k) * 0.5
		b.pos = tracktest.Offset(spot, 0.9*math.Cos(rad), 0.9*math.Sin(rad))
		b.reports(1, 10*time.Minute, 1.5)
	}
	b.pos = spot
	b.reports(10, 10*time.Minute, 12)
	events := DetectLoitering(10, b.pts, tracktest.Ports, b.t)
	if len(events) != 1 || events[0].Subtype != LoiterStationary || events[0].Detail["mean_speed_kn"] != 1.5 {
		t.Fatalf("want one stationary event, got %+v", events)
	}
}

// Across the antimeridian, the mean position is on it, not at 0°.
func TestLoiteringAntimeridian(t *testing.T) {
	t.Parallel()
	b := rkStart(tracktest.LL{Lat: 0, Lon: 180})
	for k := 0; k < 40; k++ {
		b.pos = tracktest.LL{Lat: 0, Lon: 179.999}
		if k%2 == 1 {
			b.pos = tracktest.LL{Lat: 0, Lon: -179.999}
		}
		b.reports(1, 10*time.Minute, 0.1)
	}
	events := DetectLoitering(10, b.pts, tracktest.Ports, b.t.Add(24*time.Hour))
	if len(events) != 1 || events[0].Subtype != LoiterStationary || events[0].Detail["context"] != ContextOffshore {
		t.Fatalf("want one stationary event offshore, got %+v", events)
	}
}

// A silence at the end of a stop: the vessel left when sailing at the
// speed it then reports brings it to its next position.
func TestLoiteringEdgeAcrossSilence(t *testing.T) {
	t.Parallel()
	b := rkStart(rkOcean).reports(10, 10*time.Minute, 12)
	b.reports(22, 10*time.Minute, 0.1) // 3 h 40 min of reports
	left := b.t.Add(50 * time.Minute)  // silent; leaves 4 h 30 min after stopping
	b.t = left
	b.move(90*time.Minute, 13) // first heard 1.5 h later, 19.5 nm on
	b.reports(10, 10*time.Minute, 13)
	events := DetectLoitering(10, b.pts, tracktest.Ports, b.t)
	if len(events) != 1 || events[0].End == nil || events[0].End.Sub(left).Abs() > time.Minute {
		t.Fatalf("want one event ending %v, got %+v", left, events)
	}
	// without a speed reported after, the stop ends at the last report
	// (3 h 40 min: too short)
	b.pts[32].SOG = math.NaN()
	if events = DetectLoitering(10, b.pts, tracktest.Ports, b.t); len(events) != 0 {
		t.Fatalf("want none, got %+v", events)
	}
}

func TestLoiteringSeverity(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		context string
		hours   float64
		want    string
	}{
		{ContextTransferArea, 24, TierCritical},
		{ContextTransferArea, 4, TierHigh},
		{ContextOffshore, 24, TierHigh},
		{ContextOffshore, 12, TierMedium},
		{ContextOffshore, 11.9, TierLow},
		{ContextPortApproach, 48, TierMedium},
		{ContextAnchorage, 47, TierLow},
	} {
		if got := loiterSeverity(c.context, c.hours); got != c.want {
			t.Errorf("%s %.1f h: %s, want %s", c.context, c.hours, got, c.want)
		}
	}
}
