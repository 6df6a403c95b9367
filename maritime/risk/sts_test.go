package risk

import (
	"math"
	"testing"
	"time"

	"overwatch"

	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
)

// stsSpot is open water in the Gulf of Laconia's transfer area.
var stsSpot = tracktest.LL{Lat: 36.55, Lon: 22.85}

// stsPoint is a position of a track for the transfer detector.
func stsPoint(at time.Time, p tracktest.LL, knots float64) vessel.TrackPoint {
	return vessel.TrackPoint{TS: at, Lat: p.Lat, Lon: p.Lon, SOG: knots}
}

// stsSparseTanker comes from 60 km west at 12 kn reporting every 30
// minutes, lies `east` km east of the spot for `stay` reporting every 90
// minutes (a thinned feed), and sails away east.
func stsSparseTanker(start time.Time, east float64, stay time.Duration) []vessel.TrackPoint {
	var out []vessel.TrackPoint
	at := start
	spot := tracktest.Offset(stsSpot, 0, east)
	for km := 60.0; km > 0; km -= 12 * kmPerNM / 2 {
		out = append(out, stsPoint(at, tracktest.Offset(spot, 0, -km), 12))
		at = at.Add(30 * time.Minute)
	}
	arrived := at.Add(-15 * time.Minute)
	for t := arrived.Add(10 * time.Minute); t.Before(arrived.Add(stay)); t = t.Add(90 * time.Minute) {
		out = append(out, stsPoint(t, spot, 0.1))
	}
	left := arrived.Add(stay)
	for k := 1; k <= 8; k++ {
		out = append(out, stsPoint(left.Add(time.Duration(k)*30*time.Minute), tracktest.Offset(spot, 0, float64(k)*12*kmPerNM/2), 12))
	}
	return out
}

// stsStation lies at the spot (east km east of it) from start for the
// hours, reporting every 90 minutes: a storage tanker waiting.
func stsStation(start time.Time, east float64, hours int) []vessel.TrackPoint {
	var out []vessel.TrackPoint
	for t := start; t.Before(start.Add(time.Duration(hours) * time.Hour)); t = t.Add(90 * time.Minute) {
		out = append(out, stsPoint(t, tracktest.Offset(stsSpot, 0, east), 0.1))
	}
	return out
}

func stsDetect(tracks map[overwatch.IMO][]vessel.TrackPoint, end time.Time) []Event {
	var c []SlowPoint
	for imo, tr := range tracks {
		c = append(c, STSCandidates(imo, tr, tracktest.Ports)...)
	}
	return DetectSTS(c, end, nil, nil)
}

// A three-hour transfer on a thinned feed (a position every 30 minutes
// under way, every 90 stopped) leaves each vessel two slow positions an
// hour and a half apart: the vessel was there from when it arrived to when
// it left, and the encounter is a transfer (sparse recall).
func TestSTSThinnedFeed(t *testing.T) {
	t.Parallel()
	start := rkT0.Add(6 * time.Hour)
	tracks := map[overwatch.IMO][]vessel.TrackPoint{
		9100001: stsSparseTanker(start, 0.15, 3*time.Hour),
		9100002: stsStation(rkT0, 0, 20),
	}
	ev := stsDetect(tracks, rkT0.Add(30*time.Hour))
	if len(ev) != 1 || ev[0].IMO != 9100001 || ev[0].Other != 9100002 || ev[0].End == nil {
		t.Fatalf("want one transfer, got %+v", ev)
	}
	if h := ev[0].End.Sub(ev[0].Start).Hours(); math.Abs(h-3) > 0.6 {
		t.Errorf("transfer of %.1f h, want about 3", h)
	}
	// Two hours alongside, reported once: still under STSMinDuration
	// between arrival and departure, no transfer.
	tracks[9100001] = stsSparseTanker(start, 0.15, 100*time.Minute)
	if ev := stsDetect(tracks, rkT0.Add(30*time.Hour)); len(ev) != 0 {
		t.Errorf("100 minutes alongside: %+v", ev)
	}
}
