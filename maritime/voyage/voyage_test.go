package voyage

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/emissions"
	"overwatch/maritime/portcall"
	"overwatch/maritime/sealane"
	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"

	"overwatch"
)

var voyageT0 = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

func TestBuildVoyagesFromTrack(t *testing.T) {
	t.Parallel()
	calls := []portcall.Call{
		{IMO: 9000001, Port: "santos", Arrival: tracktest.Hours(voyageT0, -40), Departure: tracktest.HoursPtr(voyageT0, 0), Confidence: 4, BerthZone: "santos-berth-1",
			BerthStart: tracktest.HoursPtr(voyageT0, -30), BerthEnd: tracktest.HoursPtr(voyageT0, -2), Operation: portcall.OpLoad, CargoTonnes: 55000, CargoQuality: portcall.CargoMeasured, DraftAfter: 12.2, Name: "CAPE TEST"},
		{IMO: 9000001, Port: "qingdao", Arrival: tracktest.Hours(voyageT0, 100), Departure: tracktest.HoursPtr(voyageT0, 150), Confidence: 3, AnchorStart: tracktest.HoursPtr(voyageT0, 100), AnchorEnd: tracktest.HoursPtr(voyageT0, 112),
			Operation: portcall.OpDischarge, CargoTonnes: 54000, CargoQuality: portcall.CargoMeasured},
		{IMO: 9000001, Port: "dalian", Arrival: tracktest.Hours(voyageT0, 200), Confidence: 1}, // unpublished: no leg
	}
	// 12 kn for 100 h, every 30 minutes, with a 20-hour hole (hours 40-60).
	track := tracktest.EastTrack(voyageT0, 0, 100, 0.5, 12, func(h float64) bool { return h > 40 && h < 60 })
	prof := vessel.Profile{IMO: 9000001, Name: "CAPE TEST", ShipType: 70, LengthM: 225, BeamM: 32, MaxDraftM: 14.2}
	vs := Build(9000001, calls, track, prof)
	if len(vs) != 1 {
		t.Fatalf("%d voyages, want 1", len(vs))
	}
	v := vs[0]
	in := v.Input
	if v.ID != ID(9000001, tracktest.Hours(voyageT0, 0)) || in.IMO != 9000001 || in.From != "santos" || in.To != "qingdao" ||
		!in.Departure.Equal(tracktest.Hours(voyageT0, 0)) || !in.Arrival.Equal(tracktest.Hours(voyageT0, 100)) || in.Name != "CAPE TEST" {
		t.Fatalf("voyage %s %+v", v.ID, in)
	}
	// 80 of the 100 hours covered; 80 h x 12 kn sailed on the covered part.
	if math.Abs(in.TrackCoverage-0.8) > 0.01 || math.Abs(in.TrackDistanceNM-960) > 2 {
		t.Errorf("coverage %.3f distance %.1f nm, want 0.8 and 960", in.TrackCoverage, in.TrackDistanceNM)
	}
	if len(in.SpeedBands) != 1 || in.SpeedBands[0].Knots != 12.5 || math.Abs(in.SpeedBands[0].Hours-80) > 0.01 ||
		math.Abs(in.HoursAtSea-80) > 0.01 || math.Abs(in.MeanSpeedKnots-12) > 0.05 {
		t.Errorf("speed profile %+v, %.2f h at sea, mean %.2f kn", in.SpeedBands, in.HoursAtSea, in.MeanSpeedKnots)
	}
	if in.CargoTonnes != 55000 || in.CargoQuality != emissions.CargoHigh || in.Ballast {
		t.Errorf("cargo %.0f %s ballast %v, want the loaded 55,000 t, high", in.CargoTonnes, in.CargoQuality, in.Ballast)
	}
	if in.Commodity != overwatch.CommodityGrain || in.Class != emissions.ClassBulkCarrier {
		t.Errorf("commodity %q class %q", in.Commodity, in.Class)
	}
	if in.HoursAtBerth != 28 || in.HoursAtAnchor != 12 || in.DraughtM != 12.1 || in.DesignDraughtM != 14.2 {
		t.Errorf("berth %.1f h, anchor %.1f h, draught %.1f / %.1f", in.HoursAtBerth, in.HoursAtAnchor, in.DraughtM, in.DesignDraughtM)
	}
	want, err := sealane.DistanceNM("santos", "qingdao")
	if err != nil || in.SeaLaneDistanceNM == 0 || math.Abs(in.SeaLaneDistanceNM-want) > 0.1 {
		t.Errorf("sea-lane distance %.1f, want %.1f (%v)", in.SeaLaneDistanceNM, want, err)
	}
	e := emissions.ComputeVoyage(in)
	if e.Method != emissions.MethodBottomUp || e.DistanceSource != "ais" || e.TTW.Central <= 0 || !e.AISCargo {
		t.Errorf("emissions %+v", e)
	}
}

func TestBuildVoyagesCargoAndSparseTracks(t *testing.T) {
	t.Parallel()
	calls := []portcall.Call{
		{IMO: 9000002, Port: "qingdao", Arrival: tracktest.Hours(voyageT0, -50), Departure: tracktest.HoursPtr(voyageT0, 0), Confidence: 3, Operation: portcall.OpDischarge, CargoTonnes: 30000},
		{IMO: 9000002, Port: "port-hedland", Arrival: tracktest.Hours(voyageT0, 200), Departure: tracktest.HoursPtr(voyageT0, 260), Confidence: 3, Operation: portcall.OpLoad, CargoTonnes: 80000,
			CargoQuality: portcall.CargoAssumed, BerthZone: "port-hedland-berth-1"},
		{IMO: 9000002, Port: "rizhao", Arrival: tracktest.Hours(voyageT0, 500), Departure: tracktest.HoursPtr(voyageT0, 530), Confidence: 3, Operation: portcall.OpUnknown},
		{IMO: 9000002, Port: "rizhao", Arrival: tracktest.Hours(voyageT0, 520+24*61), Confidence: 3}, // too long after: no leg
	}
	// A few positions only on the second leg: 10 % of it covered.
	track := tracktest.EastTrack(voyageT0, 300, 330, 1, 13, nil)
	vs := Build(9000002, calls, track, vessel.Profile{ShipType: 71, LengthM: 290, BeamM: 45})
	if len(vs) != 2 {
		t.Fatalf("%d voyages, want 2", len(vs))
	}
	ballast, laden := vs[0].Input, vs[1].Input
	if !ballast.Ballast || ballast.CargoTonnes != 0 || ballast.Commodity != "" || ballast.TrackCoverage != 0 || ballast.TrackDistanceNM != 0 {
		t.Errorf("leg after a discharge: %+v", ballast)
	}
	if laden.CargoTonnes != 80000 || laden.CargoQuality != emissions.CargoMedium || laden.Commodity != overwatch.CommodityIronOre {
		t.Errorf("laden leg: cargo %.0f %s %q", laden.CargoTonnes, laden.CargoQuality, laden.Commodity)
	}
	if laden.TrackCoverage > 0.15 || laden.TrackCoverage < 0.05 || laden.SeaLaneDistanceNM == 0 {
		t.Errorf("laden leg: coverage %.3f sea lane %.0f", laden.TrackCoverage, laden.SeaLaneDistanceNM)
	}
	e := emissions.ComputeVoyage(laden)
	if e.Method != emissions.MethodDefaultIntensity || e.DistanceSource != "sea_lane" || !e.HasFlag(emissions.FlagDefaultIntensity) || e.Reason == "" {
		t.Errorf("sparse leg: %s from %s, flags %v, reason %q", e.Method, e.DistanceSource, e.Flags, e.Reason)
	}
}

func TestTrackInputsPhasesAndJumps(t *testing.T) {
	t.Parallel()
	in := emissions.VoyageInput{Departure: tracktest.Hours(voyageT0, 0), Arrival: tracktest.Hours(voyageT0, 10)}
	track := []vessel.TrackPoint{
		{TS: tracktest.Hours(voyageT0, 0), SOG: 0.1, Lat: 0, Lon: 0},
		{TS: tracktest.Hours(voyageT0, 1), SOG: 0.1, Lat: 0, Lon: 0},      // stopped 1 h
		{TS: tracktest.Hours(voyageT0, 2), SOG: 2, Lat: 0, Lon: 2.0 / 60}, // manoeuvring 1 h at 2 kn
		{TS: tracktest.Hours(voyageT0, 3), SOG: math.NaN(), Lat: 0, Lon: 12.0 / 60},
		{TS: tracktest.Hours(voyageT0, 4), SOG: 10, Lat: 0, Lon: 30}, // a jump of 1,600 nm in an hour: left out
		{TS: tracktest.Hours(voyageT0, 5), SOG: 10, Lat: 0, Lon: 22.0 / 60},
	}
	trackInputs(&in, track)
	if in.HoursAtAnchor != 1 || in.HoursManoeuvring != 1 || in.HoursAtSea != 1 || math.Abs(in.TrackCoverage-0.3) > 1e-9 {
		t.Errorf("phases: anchor %.2f manoeuvring %.2f sea %.2f coverage %.3f", in.HoursAtAnchor, in.HoursManoeuvring, in.HoursAtSea, in.TrackCoverage)
	}
	if math.Abs(in.TrackDistanceNM-12) > 0.1 {
		t.Errorf("distance %.2f nm, want 12 (the jump left out)", in.TrackDistanceNM)
	}
}
