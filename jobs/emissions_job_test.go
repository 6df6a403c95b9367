package jobs

import (
	"context"
	"testing"
	"time"

	"overwatch"

	"overwatch/maritime/emissions"
	"overwatch/maritime/portcall"
	"overwatch/maritime/tracktest"
	"overwatch/maritime/vessel"
	"overwatch/maritime/voyage"
)

var voyageT0 = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

// fakeEmissionsStore serves fixed calls and tracks and keeps what is written.
type fakeEmissionsStore struct {
	calls      []portcall.Call
	tracks     map[overwatch.IMO][]vessel.TrackPoint
	first      time.Time
	last       time.Time
	trackFrom  time.Time
	written    []voyage.Record
	days       []time.Time
	callsRange [2]time.Time
}

func (f *fakeEmissionsStore) DataSpan(context.Context) (time.Time, time.Time, error) {
	return f.first, f.last, nil
}

func (f *fakeEmissionsStore) PositionDaysSince(context.Context, time.Time) (time.Time, bool, error) {
	return time.Time{}, false, nil
}

func (f *fakeEmissionsStore) DerivedDaysSince(context.Context, string, time.Time) (time.Time, bool, error) {
	return time.Time{}, false, nil
}

func (f *fakeEmissionsStore) Calls(_ context.Context, from, to time.Time) ([]portcall.Call, error) {
	f.callsRange = [2]time.Time{from, to}
	return f.calls, nil
}

func (f *fakeEmissionsStore) Tracks(_ context.Context, from, to time.Time, flt TrackFilter, fn func(overwatch.IMO, []vessel.TrackPoint) error) error {
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

func (f *fakeEmissionsStore) VesselProfiles(context.Context) (map[overwatch.IMO]vessel.Profile, error) {
	return map[overwatch.IMO]vessel.Profile{9000001: {ShipType: 70, LengthM: 200, BeamM: 32, MaxDraftM: 12.5}}, nil
}

func (f *fakeEmissionsStore) WriteVoyageEmissions(_ context.Context, _ uint64, days []time.Time, rows []voyage.Record) error {
	f.days, f.written = days, rows
	return nil
}

func TestEmissionsJobWindow(t *testing.T) {
	t.Parallel()
	store := &fakeEmissionsStore{
		first: tracktest.Hours(voyageT0, -24*30), last: tracktest.Hours(voyageT0, 24*10),
		calls: []portcall.Call{
			{IMO: 9000001, Port: "santos", Arrival: tracktest.Hours(voyageT0, -24*20), Departure: tracktest.HoursPtr(voyageT0, -24*19), Confidence: 3, Operation: portcall.OpLoad, CargoTonnes: 40000},
			{IMO: 9000001, Port: "rotterdam", Arrival: tracktest.Hours(voyageT0, -24*5), Departure: tracktest.HoursPtr(voyageT0, -24*4), Confidence: 3},
			{IMO: 9000001, Port: "santos", Arrival: tracktest.Hours(voyageT0, 24*8), Confidence: 3}, // arrives in the window, goes on
			{IMO: 9000003, Port: "santos", Arrival: tracktest.Hours(voyageT0, 24*1), Departure: tracktest.HoursPtr(voyageT0, 24*2), Confidence: 3},
			{IMO: 9000003, Port: "rotterdam", Arrival: tracktest.Hours(voyageT0, 24*9), Confidence: 3}, // no track at all
		},
		tracks: map[overwatch.IMO][]vessel.TrackPoint{9000001: tracktest.EastTrack(voyageT0, -24*4, 24*8, 1, 12, nil)},
	}
	run := Emissions(store)
	// An incremental run: the watermark 5 days before the end of the data.
	res, err := run(context.Background(), State{Watermark: tracktest.Hours(voyageT0, 24*5)})
	if err != nil {
		t.Fatal(err)
	}
	wantStart := tracktest.Hours(voyageT0, 24*5).Add(-EmissionsTrailingDays * day)
	if !res.From.Equal(wantStart) || !store.days[0].Equal(wantStart) || !res.Watermark.Equal(store.last) {
		t.Errorf("window from %s (days from %s), watermark %s; want %s", res.From, store.days[0], res.Watermark, wantStart)
	}
	if len(store.written) != 2 || res.Rows != 2 {
		t.Fatalf("%d voyages written: %+v", len(store.written), store.written)
	}
	if !store.trackFrom.Equal(tracktest.Hours(voyageT0, -24*4).Truncate(day)) || !store.callsRange[0].Equal(wantStart.Add(-voyage.MaxVoyage)) {
		t.Errorf("tracks read from %s, calls from %s", store.trackFrom, store.callsRange[0])
	}
	for _, r := range store.written {
		if r.Result.IMO != r.Input.IMO || r.Result.TTW.Central <= 0 && r.Result.Method != emissions.MethodNone {
			t.Errorf("voyage %s: %+v", r.ID, r.Result)
		}
	}
	// The first run covers the whole history: the first leg too.
	if _, err := run(context.Background(), State{}); err != nil {
		t.Fatal(err)
	}
	if len(store.written) != 3 || !store.days[0].Equal(store.first.Truncate(day)) {
		t.Errorf("first run: %d voyages from %s", len(store.written), store.days[0])
	}
}
