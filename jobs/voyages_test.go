package jobs

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch/maritime/emissions"
	"overwatch/maritime/sealane"

	"overwatch"
)

var voyageT0 = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

func vh(hours float64) time.Time { return voyageT0.Add(time.Duration(hours * float64(time.Hour))) }
func vp(hours float64) *time.Time {
	t := vh(hours)
	return &t
}

// straightTrack sails due east along the equator at knots from hour from
// to hour to, one position every step hours, skipping the hours in gaps.
func straightTrack(from, to, step, knots float64, skip func(h float64) bool) []TrackPoint {
	var out []TrackPoint
	for h := from; h <= to+1e-9; h += step {
		if skip != nil && skip(h) {
			continue
		}
		lon := (h - from) * knots * 1.852 / 111.19492664455873 // degrees of longitude on the equator
		out = append(out, TrackPoint{TS: vh(h), Lat: 0, Lon: lon, SOG: knots, Draft: 12.1})
	}
	return out
}

func TestBuildVoyagesFromTrack(t *testing.T) {
	calls := []PortCall{
		{IMO: 9000001, Port: "santos", Arrival: vh(-40), Departure: vp(0), Confidence: 4, BerthZone: "santos-berth-1",
			BerthStart: vp(-30), BerthEnd: vp(-2), Operation: OpLoad, CargoTonnes: 55000, CargoQuality: CargoMeasured, DraftAfter: 12.2, Name: "CAPE TEST"},
		{IMO: 9000001, Port: "qingdao", Arrival: vh(100), Departure: vp(150), Confidence: 3, AnchorStart: vp(100), AnchorEnd: vp(112),
			Operation: OpDischarge, CargoTonnes: 54000, CargoQuality: CargoMeasured},
		{IMO: 9000001, Port: "dalian", Arrival: vh(200), Confidence: 1}, // unpublished: no leg
	}
	// 12 kn for 100 h, every 30 minutes, with a 20-hour hole (hours 40-60).
	track := straightTrack(0, 100, 0.5, 12, func(h float64) bool { return h > 40 && h < 60 })
	prof := VesselProfile{IMO: 9000001, Name: "CAPE TEST", ShipType: 70, LengthM: 225, BeamM: 32, MaxDraftM: 14.2}
	vs := BuildVoyages(9000001, calls, track, prof)
	if len(vs) != 1 {
		t.Fatalf("%d voyages, want 1", len(vs))
	}
	v := vs[0]
	in := v.Input
	if v.ID != VoyageID(9000001, vh(0)) || in.IMO != "9000001" || in.From != "santos" || in.To != "qingdao" ||
		!in.Departure.Equal(vh(0)) || !in.Arrival.Equal(vh(100)) || in.Name != "CAPE TEST" {
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
	calls := []PortCall{
		{IMO: 9000002, Port: "qingdao", Arrival: vh(-50), Departure: vp(0), Confidence: 3, Operation: OpDischarge, CargoTonnes: 30000},
		{IMO: 9000002, Port: "port-hedland", Arrival: vh(200), Departure: vp(260), Confidence: 3, Operation: OpLoad, CargoTonnes: 80000,
			CargoQuality: CargoAssumed, BerthZone: "port-hedland-berth-1"},
		{IMO: 9000002, Port: "rizhao", Arrival: vh(500), Departure: vp(530), Confidence: 3, Operation: OpUnknown},
		{IMO: 9000002, Port: "rizhao", Arrival: vh(520 + 24*61), Confidence: 3}, // too long after: no leg
	}
	// A few positions only on the second leg: 10 % of it covered.
	track := straightTrack(300, 330, 1, 13, nil)
	vs := BuildVoyages(9000002, calls, track, VesselProfile{ShipType: 71, LengthM: 290, BeamM: 45})
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
	in := emissions.VoyageInput{Departure: vh(0), Arrival: vh(10)}
	track := []TrackPoint{
		{TS: vh(0), SOG: 0.1, Lat: 0, Lon: 0},
		{TS: vh(1), SOG: 0.1, Lat: 0, Lon: 0},      // stopped 1 h
		{TS: vh(2), SOG: 2, Lat: 0, Lon: 2.0 / 60}, // manoeuvring 1 h at 2 kn
		{TS: vh(3), SOG: math.NaN(), Lat: 0, Lon: 12.0 / 60},
		{TS: vh(4), SOG: 10, Lat: 0, Lon: 30}, // a jump of 1,600 nm in an hour: left out
		{TS: vh(5), SOG: 10, Lat: 0, Lon: 22.0 / 60},
	}
	trackInputs(&in, track)
	if in.HoursAtAnchor != 1 || in.HoursManoeuvring != 1 || in.HoursAtSea != 1 || math.Abs(in.TrackCoverage-0.3) > 1e-9 {
		t.Errorf("phases: anchor %.2f manoeuvring %.2f sea %.2f coverage %.3f", in.HoursAtAnchor, in.HoursManoeuvring, in.HoursAtSea, in.TrackCoverage)
	}
	if math.Abs(in.TrackDistanceNM-12) > 0.1 {
		t.Errorf("distance %.2f nm, want 12 (the jump left out)", in.TrackDistanceNM)
	}
}

// fakeEmissionsStore serves fixed calls and tracks and keeps what is written.
type fakeEmissionsStore struct {
	calls      []PortCall
	tracks     map[uint32][]TrackPoint
	first      time.Time
	last       time.Time
	trackFrom  time.Time
	written    []VoyageRecord
	days       []time.Time
	callsRange [2]time.Time
}

func (f *fakeEmissionsStore) DataSpan(context.Context) (time.Time, time.Time, error) {
	return f.first, f.last, nil
}

func (f *fakeEmissionsStore) Calls(_ context.Context, from, to time.Time) ([]PortCall, error) {
	f.callsRange = [2]time.Time{from, to}
	return f.calls, nil
}

func (f *fakeEmissionsStore) Tracks(_ context.Context, from, to time.Time, flt TrackFilter, fn func(uint32, []TrackPoint) error) error {
	if f.trackFrom.IsZero() || from.Before(f.trackFrom) {
		f.trackFrom = from // the earliest read
	}
	for _, imo := range flt.Only {
		if tr, ok := f.tracks[imo]; ok {
			if err := fn(imo, tr); err != nil {
				return err
			}
		}
	}
	return nil
}

func (f *fakeEmissionsStore) VesselProfiles(context.Context) (map[uint32]VesselProfile, error) {
	return map[uint32]VesselProfile{9000001: {ShipType: 70, LengthM: 200, BeamM: 32, MaxDraftM: 12.5}}, nil
}

func (f *fakeEmissionsStore) WriteVoyageEmissions(_ context.Context, _ uint64, days []time.Time, rows []VoyageRecord) error {
	f.days, f.written = days, rows
	return nil
}

func TestEmissionsJobWindow(t *testing.T) {
	store := &fakeEmissionsStore{
		first: vh(-24 * 30), last: vh(24 * 10),
		calls: []PortCall{
			{IMO: 9000001, Port: "santos", Arrival: vh(-24 * 20), Departure: vp(-24 * 19), Confidence: 3, Operation: OpLoad, CargoTonnes: 40000},
			{IMO: 9000001, Port: "rotterdam", Arrival: vh(-24 * 5), Departure: vp(-24 * 4), Confidence: 3},
			{IMO: 9000001, Port: "santos", Arrival: vh(24 * 8), Confidence: 3}, // arrives in the window, goes on
			{IMO: 9000003, Port: "santos", Arrival: vh(24 * 1), Departure: vp(24 * 2), Confidence: 3},
			{IMO: 9000003, Port: "rotterdam", Arrival: vh(24 * 9), Confidence: 3}, // no track at all
		},
		tracks: map[uint32][]TrackPoint{9000001: straightTrack(-24*4, 24*8, 1, 12, nil)},
	}
	job := EmissionsJob(store)
	// An incremental run: the watermark 5 days before the end of the data.
	res, err := job.Run(context.Background(), State{Watermark: vh(24 * 5)})
	if err != nil {
		t.Fatal(err)
	}
	wantStart := vh(24 * 5).Add(-EmissionsTrailingDays * day)
	if !res.From.Equal(wantStart) || !store.days[0].Equal(wantStart) || !res.Watermark.Equal(store.last) {
		t.Errorf("window from %s (days from %s), watermark %s; want %s", res.From, store.days[0], res.Watermark, wantStart)
	}
	if len(store.written) != 2 || res.Rows != 2 {
		t.Fatalf("%d voyages written: %+v", len(store.written), store.written)
	}
	if !store.trackFrom.Equal(vh(-24*4).Truncate(day)) || !store.callsRange[0].Equal(wantStart.Add(-MaxVoyage)) {
		t.Errorf("tracks read from %s, calls from %s", store.trackFrom, store.callsRange[0])
	}
	for _, r := range store.written {
		if r.Result.IMO != r.Input.IMO || r.Result.TTW.Central <= 0 && r.Result.Method != emissions.MethodNone {
			t.Errorf("voyage %s: %+v", r.ID, r.Result)
		}
	}
	// The first run covers the whole history: the first leg too.
	if _, err := job.Run(context.Background(), State{}); err != nil {
		t.Fatal(err)
	}
	if len(store.written) != 3 || !store.days[0].Equal(store.first.Truncate(day)) {
		t.Errorf("first run: %d voyages from %s", len(store.written), store.days[0])
	}
}
