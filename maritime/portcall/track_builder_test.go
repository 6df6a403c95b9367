package portcall

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/seaport"
	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
)

// Tests of the port-call detector on synthetic tracks laid over the real
// geometry of reference ports (ports.json): each track is built by a
// trackBuilder that moves a vessel along straight lines at a set speed and
// reports its position every `every`, and keeps the continuous path so the
// true edge-crossing times can be computed independently of the detector.

// segment is a piece of the continuous path: the vessel goes from a to b
// in a straight line (linear in latitude and longitude) from t0 to t1.
type segment struct {
	t0, t1 time.Time
	a, b   tracktest.LL
}

func (s segment) at(t time.Time) tracktest.LL {
	if !s.t1.After(s.t0) {
		return s.b
	}
	f := float64(t.Sub(s.t0)) / float64(s.t1.Sub(s.t0))
	return tracktest.LL{Lat: s.a.Lat + f*(s.b.Lat-s.a.Lat), Lon: s.a.Lon + f*(s.b.Lon-s.a.Lon)}
}

type trackBuilder struct {
	t     time.Time
	pos   tracktest.LL
	every time.Duration
	draft float64
	dest  string
	nav   uint8
	pts   []vessel.TrackPoint
	segs  []segment
}

// newTrack starts a track at the position and time with one report
// there, under way at the speed.
func newTrack(start time.Time, at tracktest.LL, every time.Duration, knots float64) *trackBuilder {
	b := &trackBuilder{t: start, pos: at, every: every}
	b.emit(knots)
	return b
}

func (b *trackBuilder) emit(sog float64) {
	b.pts = append(b.pts, vessel.TrackPoint{TS: b.t, Lat: b.pos.Lat, Lon: b.pos.Lon, SOG: sog, NavStatus: b.nav, Draft: b.draft, Destination: b.dest})
}

// moveTo sails to the point at about the speed (the leg is rounded up to a
// whole number of reporting intervals), reporting the speed, and returns
// the time of arrival there (the last report of the leg).
func (b *trackBuilder) moveTo(to tracktest.LL, knots float64) time.Time {
	return b.travel(to, knots, time.Duration(tracktest.DistKM(b.pos, to)/(knots*1.852)*float64(time.Hour)))
}

// drift goes to the point in the duration, reporting sog whatever the
// real speed.
func (b *trackBuilder) drift(to tracktest.LL, d time.Duration, sog float64) time.Time {
	return b.travel(to, sog, d)
}

func (b *trackBuilder) travel(to tracktest.LL, sog float64, d time.Duration) time.Time {
	n := int(math.Ceil(float64(d) / float64(b.every)))
	if n < 1 {
		n = 1
	}
	seg := segment{t0: b.t, t1: b.t.Add(time.Duration(n) * b.every), a: b.pos, b: to}
	b.segs = append(b.segs, seg)
	for i := 1; i <= n; i++ {
		b.t = b.t.Add(b.every)
		b.pos = seg.at(b.t)
		b.emit(sog)
	}
	b.pos = to
	return b.t
}

// stay reports from where the vessel is for the duration, stopped: speeds
// 0.0, 0.05, 0.1 in turn. It returns the time of the last report.
func (b *trackBuilder) stay(d time.Duration) time.Time {
	i := 0
	return b.stayAt(d, func() float64 { i++; return float64(i%3) * 0.05 })
}

// stayAt reports from where the vessel is for the duration with the speed
// sog() gives.
func (b *trackBuilder) stayAt(d time.Duration, sog func() float64) time.Time {
	n := int(d / b.every)
	b.segs = append(b.segs, segment{t0: b.t, t1: b.t.Add(time.Duration(n) * b.every), a: b.pos, b: b.pos})
	for i := 0; i < n; i++ {
		b.t = b.t.Add(b.every)
		b.emit(sog())
	}
	return b.t
}

// silence lets time pass without a report: the vessel jumps to the point
// (its path while silent is unknown).
func (b *trackBuilder) silence(d time.Duration, to tracktest.LL) {
	b.t = b.t.Add(d)
	b.pos = to
}

func constSOG(v float64) func() float64 { return func() float64 { return v } }

// crossings are the true times the continuous path entered and left the
// area (1 s resolution): the first entry, and the first exit after it.
func (b *trackBuilder) crossings(area seaport.Zone) (entry, exit time.Time) {
	in := false
	for _, s := range b.segs {
		for t := s.t0; !t.After(s.t1); t = t.Add(time.Second) {
			p := s.at(t)
			now := area.Contains(p.Lat, p.Lon)
			if now && !in && entry.IsZero() {
				entry = t
			}
			if !now && in && exit.IsZero() {
				exit = t
			}
			in = now
		}
	}
	return entry, exit
}

// outside is the point dist km outside the port area, south of its centre
// (then shifted east by eastKM).
func outside(p seaport.Port, distKM, eastKM float64) tracktest.LL {
	return tracktest.Offset(tracktest.ZonePoint(p.Area), -(p.Area.RadiusKM + distKM), eastKM)
}

var t0 = time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)

const every = 10 * time.Minute

func near(t *testing.T, what string, got *time.Time, want time.Time, tol time.Duration) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = nil, want %s", what, want.Format(time.RFC3339))
		return
	}
	if d := got.Sub(want); d < -tol || d > tol {
		t.Errorf("%s = %s, want %s ± %s (off by %s)", what, got.Format(time.RFC3339), want.Format(time.RFC3339), tol, d)
	}
}

func oneCall(t *testing.T, calls []Call) *Call {
	t.Helper()
	if len(calls) != 1 {
		for i, c := range calls {
			t.Logf("call %d: %+v", i, c)
		}
		t.Fatalf("got %d calls, want 1", len(calls))
	}
	return &calls[0]
}

func inPortCount(pts []vessel.TrackPoint, slug string) int {
	n := 0
	for _, p := range pts {
		if tracktest.Ports.PortAt(p.Lat, p.Lon) == slug {
			n++
		}
	}
	return n
}
