package predict

import (
	"testing"

	"overwatch/maritime/geo"
	"overwatch/maritime/sealane"
)

// TestRemainingRouteFollowsTheLaneFromTheVessel: a vessel halfway along
// the Rotterdam–Santos lane has the lane's second half still to go,
// starting at its position and ending at the lane's end; off the lane, or
// without a last port, the route is unknown.
func TestRemainingRouteFollowsTheLaneFromTheVessel(t *testing.T) {
	r, err := sealane.Between("rotterdam", "santos")
	if err != nil {
		t.Fatal(err)
	}
	lat, lon, _ := r.PositionAt(r.DistanceNM / 2)
	got := RemainingRoute("rotterdam", "santos", lat, lon)
	if len(got) < 3 || got[0] != [2]float64{lat, lon} || got[len(got)-1] != r.Points[len(r.Points)-1] {
		t.Fatalf("halfway: %d points from %v to %v, want from the vessel %v to the lane's end %v",
			len(got), got[0], got[len(got)-1], [2]float64{lat, lon}, r.Points[len(r.Points)-1])
	}
	// The rest of the way is the rest of the lane: about half its length.
	nm := 0.0
	for i := 1; i < len(got); i++ {
		nm += geo.DistanceKM(got[i-1][0], got[i-1][1], got[i][0], got[i][1]) / kmPerNM
	}
	if nm < 0.45*r.DistanceNM || nm > 0.55*r.DistanceNM {
		t.Errorf("halfway: %.0f nm still to go on a lane of %.0f nm", nm, r.DistanceNM)
	}
	if got := RemainingRoute("rotterdam", "santos", 10, 160); got != nil {
		t.Errorf("a vessel in the Pacific is on the Atlantic lane: %v", got[:2])
	}
	if got := RemainingRoute("", "santos", lat, lon); got != nil {
		t.Errorf("no last port: %d points", len(got))
	}
}
