// Package tracktest is the shared kit of the domain packages' tests: points
// on the real map moved by distances, the reference ports by slug, and time
// helpers for building synthetic tracks and calls. Only tests import it.
package tracktest

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/geo"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// KMPerDegLat is the length of a degree of latitude (mean Earth radius).
const KMPerDegLat = 111.195

// LL is a point on the map, in degrees.
type LL struct{ Lat, Lon float64 }

// Offset moves p north and east by the distances in km (flat-earth, fine
// at the scale of a port or a day's sailing away from the poles).
func Offset(p LL, northKM, eastKM float64) LL {
	return LL{
		Lat: p.Lat + northKM/KMPerDegLat,
		Lon: p.Lon + eastKM/(KMPerDegLat*math.Cos(p.Lat*math.Pi/180)),
	}
}

// ZonePoint is the centre of a port area, anchorage or berth zone.
func ZonePoint(z seaport.Zone) LL { return LL{z.Lat, z.Lon} }

// DistKM is the great-circle distance between two points.
func DistKM(a, b LL) float64 { return geo.DistanceKM(a.Lat, a.Lon, b.Lat, b.Lon) }

// Ports is the index of the reference ports, as the jobs build it.
var Ports = seaport.NewIndex(seaport.All())

// MustPort returns the reference port of the slug, or fails the test.
func MustPort(t testing.TB, slug string) seaport.Port {
	t.Helper()
	p, ok := seaport.BySlug(slug)
	if !ok {
		t.Fatalf("no port %q", slug)
	}
	return p
}

// Hours is base plus h hours.
func Hours(base time.Time, h float64) time.Time {
	return base.Add(time.Duration(h * float64(time.Hour)))
}

// Ptr returns a pointer to t (calls and events hold optional times).
func Ptr(t time.Time) *time.Time { return &t }

// HoursPtr is Ptr(Hours(base, h)).
func HoursPtr(base time.Time, h float64) *time.Time { return Ptr(Hours(base, h)) }

// EastTrack sails due east along the equator at knots from hour from to
// hour to after t0, one position every step hours, skipping the hours skip
// says (nil: none), reporting a draught of 12.1 m.
func EastTrack(t0 time.Time, from, to, step, knots float64, skip func(h float64) bool) []vessel.TrackPoint {
	var out []vessel.TrackPoint
	for h := from; h <= to+1e-9; h += step {
		if skip != nil && skip(h) {
			continue
		}
		lon := (h - from) * knots * 1.852 / 111.19492664455873 // degrees of longitude on the equator
		out = append(out, vessel.TrackPoint{TS: Hours(t0, h), Lat: 0, Lon: lon, SOG: knots, Draft: 12.1})
	}
	return out
}

// FuzzSOG decodes a fuzzed speed byte: below 100, hundredths of a knot
// (stopped and slow); up to 254, sixths of a knot above 100; 255, no speed
// reported (NaN).
func FuzzSOG(b byte) float64 {
	switch {
	case b < 100:
		return float64(b) / 100
	case b < 255:
		return float64(b-100) / 6
	}
	return math.NaN()
}

// FuzzStep advances ts by a fuzzed step: its low 14 bits counted in the unit
// its top two bits choose (seconds, tens of seconds, minutes, hours; hours
// only when hours is set, else no step).
func FuzzStep(ts time.Time, step uint16, hours bool) time.Time {
	v := time.Duration(step & 0x3fff)
	switch step >> 14 {
	case 0:
		return ts.Add(v * time.Second)
	case 1:
		return ts.Add(v * 10 * time.Second)
	case 2:
		return ts.Add(v * time.Minute)
	}
	if hours {
		return ts.Add(v * time.Hour)
	}
	return ts
}
