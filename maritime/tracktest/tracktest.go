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
