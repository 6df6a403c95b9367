package predict

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/portcall"
	"overwatch/maritime/sealane"
	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
	"overwatch/testclock"
)

// voyage is a vessel that left Rotterdam at t0 and sails the sea lane to
// Santos at 13 knots, one position an hour for the first sailed hours,
// with the hour it enters Santos's port area.
func voyage(t *testing.T, sailed float64) (in Input, t0 time.Time, arrival time.Time) {
	t.Helper()
	r, err := sealane.Between("rotterdam", "santos")
	if err != nil {
		t.Fatal(err)
	}
	santos := tracktest.MustPort(t, "santos")
	entry := r.DistanceNM
	for d := 0.0; d < r.DistanceNM; d += 1 {
		if lat, lon, _ := r.PositionAt(d); santos.Area.Contains(lat, lon) {
			entry = d
			break
		}
	}
	t0 = testclock.Now().Add(-30 * 24 * time.Hour).Truncate(time.Hour)
	const kn = 13.0
	var track []vessel.TrackPoint
	for h := 0.0; h <= sailed; h++ {
		lat, lon, _ := r.PositionAt(h * kn)
		track = append(track, vessel.TrackPoint{TS: tracktest.Hours(t0, h), Lat: lat, Lon: lon, SOG: kn})
	}
	calls := []portcall.Call{
		{Port: "santos", Arrival: tracktest.Hours(t0, -900), Departure: tracktest.HoursPtr(t0, -860)},
		{Port: "rotterdam", Arrival: tracktest.Hours(t0, -500), Departure: tracktest.HoursPtr(t0, -460)},
		{Port: "santos", Arrival: tracktest.Hours(t0, -200), Departure: tracktest.HoursPtr(t0, -150)},
		{Port: "rotterdam", Arrival: tracktest.Hours(t0, -40), Departure: tracktest.Ptr(t0)},
	}
	in = Input{AsOf: tracktest.Hours(t0, sailed+0.5), Track: track, Calls: calls, Declared: "BRSSZ",
		Reliability: 0.95, WaitHours: map[string]float64{"santos": 20}}
	return in, t0, tracktest.Hours(t0, entry/kn)
}

func TestPredictDeclaredOnLane(t *testing.T) {
	in, _, arrival := voyage(t, 96)
	eta := arrival.Add(2 * time.Hour)
	in.DeclaredETA = &eta
	p, ok := Predict(in)
	if !ok || len(p.Next) == 0 {
		t.Fatalf("no prediction for a vessel under way: %+v", p)
	}
	top := p.Next[0]
	if top.Port != "santos" || top.Probability < 0.9 {
		t.Fatalf("top port %s at %.3f, want santos above 0.9: %+v", top.Port, top.Probability, p.Next)
	}
	sum := 0.0
	for _, n := range p.Next {
		sum += n.Probability
	}
	if sum > 1+1e-9 || len(p.Next) > 3 {
		t.Fatalf("%d ports summing to %.4f", len(p.Next), sum)
	}
	if d := math.Abs(top.ETA.Sub(arrival).Hours()); d > 2 {
		t.Fatalf("ETA %s is %.1f h from the arrival %s", top.ETA, d, arrival)
	}
	if arrival.Before(top.ETALow) || arrival.After(top.ETAHigh) {
		t.Fatalf("the arrival %s is outside [%s, %s]", arrival, top.ETALow, top.ETAHigh)
	}
	if top.BerthETA == nil || top.BerthETA.Sub(top.ETA) != 20*time.Hour {
		t.Fatalf("berth ETA %v, want the ETA plus the 20 h wait", top.BerthETA)
	}
	if p.Evidence.LastPort != "rotterdam" || p.Evidence.DeclaredPort != "santos" || p.Evidence.SpeedKn != 13 {
		t.Fatalf("evidence %+v", p.Evidence)
	}
}

func TestPredictMisdeclaredFollowsTheLane(t *testing.T) {
	in, _, _ := voyage(t, 110)
	in.Declared = "NEW ORLEANS"
	in.Reliability = 0.6
	p, ok := Predict(in)
	if !ok || p.Next[0].Port != "santos" {
		t.Fatalf("a vessel on the Santos lane declaring New Orleans: %+v", p.Next)
	}
	if b, ok := DeclaredBaseline(in); !ok || b.Port != "new-orleans" {
		t.Fatalf("the declared baseline says %+v", b)
	}
}

func TestPredictForOrdersUsesHistoryAndLane(t *testing.T) {
	in, _, arrival := voyage(t, 60)
	in.Declared = "FOR ORDERS"
	in.Reliability = math.NaN()
	p, ok := Predict(in)
	if !ok || p.Next[0].Port != "santos" {
		t.Fatalf("FOR ORDERS on the Santos lane after two Rotterdam-Santos voyages: %+v", p.Next)
	}
	if !p.Evidence.ForOrders || p.Evidence.Reliability != nil {
		t.Fatalf("evidence %+v", p.Evidence)
	}
	if d := math.Abs(p.Next[0].ETA.Sub(arrival).Hours()); d > 2 {
		t.Fatalf("ETA %.1f h off", d)
	}
	if _, ok := DeclaredBaseline(in); ok {
		t.Fatal("the declared baseline answered FOR ORDERS")
	}
	if b, ok := FrequentBaseline(in); !ok || b.Port != "santos" || b.ETA.IsZero() {
		t.Fatalf("the frequent baseline says %+v", b)
	}
}

func TestPredictNotUnderWay(t *testing.T) {
	in, t0, _ := voyage(t, 10)
	in.Calls[len(in.Calls)-1].Departure = tracktest.HoursPtr(t0, 20) // still in Rotterdam as of AsOf
	if _, ok := Predict(in); ok {
		t.Fatal("predicted a vessel in port")
	}
	in, _, _ = voyage(t, 10)
	in.AsOf = in.AsOf.Add(72 * time.Hour) // unheard of for three days
	if _, ok := Predict(in); ok {
		t.Fatal("predicted a vessel unheard of for three days")
	}
}

func TestBacktestScoresAgainstTheCallsThatFollowed(t *testing.T) {
	var cases []Case
	for _, sailed := range []float64{24, 300, 380} {
		in, _, arrival := voyage(t, sailed)
		in.Declared = "NEW ORLEANS"
		in.Reliability = 0.5
		p, _ := Predict(in)
		d, _ := DeclaredBaseline(in)
		f, _ := FrequentBaseline(in)
		cases = append(cases, Case{Prediction: p, Declared: d, Frequent: f, Port: "santos", Arrival: arrival})
	}
	acc := Backtest(cases)
	if acc.Predictor.Cases != 3 || *acc.Declared.Top1 != 0 || *acc.Frequent.Top1 != 1 {
		t.Fatalf("scores %+v / %+v / %+v", acc.Predictor, acc.Declared, acc.Frequent)
	}
	if *acc.Predictor.Top1 < 0.66 {
		t.Fatalf("predictor top-1 %.2f", *acc.Predictor.Top1)
	}
	week := acc.Predictor.Horizons[3]
	if week.Hours != 168 || week.Cases == 0 || week.MedianErrorH == nil {
		t.Fatalf("7-day horizon %+v", week)
	}
}

func TestPredictWithoutCallsUsesLanesFromAnyPort(t *testing.T) {
	in, _, _ := voyage(t, 250)
	in.Calls = nil // the data began while it was at sea
	in.Declared = "NEW ORLEANS"
	in.Reliability = math.NaN()
	p, ok := Predict(in)
	if !ok {
		t.Fatal("no prediction for a vessel at sea without calls")
	}
	if p.Next[0].Port == "new-orleans" || len(p.Evidence.OnLaneTo) == 0 {
		t.Fatalf("a vessel on the South Atlantic lane declaring New Orleans: %+v, on lanes %v", p.Next, p.Evidence.OnLaneTo)
	}
	found := false
	for _, port := range p.Evidence.OnLaneTo {
		found = found || port == "santos"
	}
	if !found || p.Evidence.LastPort != "" {
		t.Fatalf("evidence %+v", p.Evidence)
	}
}
