package earnings

import (
	"testing"
	"time"

	"overwatch/maritime/emissions"
)

// A leg stored with the default intensity is computed again bottom-up at
// the speed its times imply; other legs keep their stored fuel; FuelOf
// sums the vessel's legs within the voyage only.
func TestFuelLegs(t *testing.T) {
	t0 := time.Date(2026, 2, 7, 0, 0, 0, 0, time.UTC)
	in := emissions.VoyageInput{IMO: 9559341, ShipType: 70, From: "tacoma", To: "dalian", Departure: t0, Arrival: t0.Add(405 * time.Hour),
		DesignDraughtM: 13.9, DraughtM: 13.6, LengthM: 229, BeamM: 32, TrackDistanceNM: 167, TrackCoverage: 0.03, SeaLaneDistanceNM: 5465,
		HoursAtSea: 12.7, CargoTonnes: 61776, CargoQuality: emissions.CargoHigh}
	stored := emissions.ComputeVoyage(in)
	if stored.Method != emissions.MethodDefaultIntensity {
		t.Fatalf("stored method %s", stored.Method)
	}
	leg := FuelLeg{IMO: 9559341, Departure: t0, Arrival: t0.Add(405 * time.Hour), Method: string(stored.Method), Input: &in,
		FuelTonnes: Bounds{stored.FuelTonnes.Low, stored.FuelTonnes.Central, stored.FuelTonnes.High}, DistanceNM: stored.DistanceNM}
	f, nm := leg.Fuel()
	in2 := in
	in2.SpeedKnots = 5465.0 / 405
	want := emissions.ComputeVoyage(in2)
	if want.Method != emissions.MethodBottomUp || f.Central != want.FuelTonnes.Central || nm != 5465 || !(f.Low < f.Central && f.Central < f.High) {
		t.Errorf("recomputed %+v %v, want %+v", f, nm, want.FuelTonnes)
	}
	if in.SpeedKnots != 0 {
		t.Error("the stored input was changed")
	}
	keep := FuelLeg{IMO: 1, Departure: t0, Arrival: t0.Add(time.Hour), Method: "bottom_up", FuelTonnes: Bounds{1, 2, 3}, DistanceNM: 10}
	if f, nm := keep.Fuel(); f != (Bounds{1, 2, 3}) || nm != 10 {
		t.Errorf("bottom-up leg %+v %v", f, nm)
	}
	legs := []FuelLeg{keep, {IMO: 1, Departure: t0.Add(2 * time.Hour), Arrival: t0.Add(5 * time.Hour), FuelTonnes: Bounds{1, 1, 1}, DistanceNM: 5, DWT: 50000},
		{IMO: 1, Departure: t0.Add(10 * time.Hour), Arrival: t0.Add(20 * time.Hour), FuelTonnes: Bounds{9, 9, 9}}, {IMO: 2, Departure: t0, Arrival: t0.Add(time.Hour)}}
	fuel, dist, dwt, ok := FuelOf(legs, 1, t0, t0.Add(5*time.Hour))
	if !ok || fuel != (Bounds{2, 3, 4}) || dist != 15 || dwt != 50000 {
		t.Errorf("FuelOf: %+v %v %v %v", fuel, dist, dwt, ok)
	}
	if _, _, _, ok := FuelOf(legs, 3, t0, t0.Add(time.Hour)); ok {
		t.Error("a vessel without legs")
	}
}
