package predict

import (
	"context"
	"reflect"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portcall"
	"overwatch/maritime/vessel"
)

// memSource is a Source over one vessel held in memory (the voyage of
// predict_test.go), counting the backtests it serves.
type memSource struct {
	imo   overwatch.IMO
	calls []portcall.Call
	track []vessel.TrackPoint
	reads int // PredictionCalls calls
}

func (m *memSource) PredictionCalls(_ context.Context, from, to time.Time) ([]portcall.Call, error) {
	m.reads++
	var out []portcall.Call
	for _, c := range m.calls {
		if c.Arrival.Before(to) && (c.Departure == nil || !c.Departure.Before(from)) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (m *memSource) PredictionTracks(_ context.Context, from, to time.Time, only []overwatch.IMO, fn func(overwatch.IMO, []vessel.TrackPoint) error) error {
	var tr []vessel.TrackPoint
	for _, p := range m.track {
		if !p.TS.Before(from) && p.TS.Before(to) {
			tr = append(tr, p)
		}
	}
	if len(tr) == 0 {
		return nil
	}
	return fn(m.imo, tr)
}

func (m *memSource) Declarations(context.Context, time.Time, time.Time, []overwatch.IMO) (map[overwatch.IMO]Declaration, error) {
	return map[overwatch.IMO]Declaration{}, nil
}

func TestCalibrationCacheKeepsTheHourAndVersion(t *testing.T) {
	in, _, _ := voyage(t, 30)
	src := &memSource{imo: 9300001, track: in.Track}
	for _, c := range in.Calls {
		c.IMO, c.Confidence = src.imo, portcall.PublishConfidence
		src.calls = append(src.calls, c)
	}
	ctx := context.Background()
	// the backtest instants are 8-10 days before the vessel's last position
	asOf := in.Track[len(in.Track)-1].TS.Add(9*24*time.Hour + 10*time.Minute)
	var cache CalibrationCache
	first, hit, err := cache.Get(ctx, src, asOf, 1)
	if err != nil || hit || src.reads != 1 {
		t.Fatalf("first get: hit %v, %d reads, %v; want a computation", hit, src.reads, err)
	}
	later := asOf.Add(40 * time.Minute) // the same hour
	again, hit, err := cache.Get(ctx, src, later, 1)
	if err != nil || !hit || again != first || src.reads != 1 {
		t.Fatalf("same hour, same version: hit %v, %d reads, %v", hit, src.reads, err)
	}
	// what was kept is what the later instant computes from the same data
	fresh, err := CalibrationAsOf(ctx, src, later)
	if err != nil || !reflect.DeepEqual(fresh, first) {
		t.Fatalf("kept %+v, computed as of the later instant %+v (%v)", first, fresh, err)
	}
	src.reads = 0
	if _, hit, _ := cache.Get(ctx, src, later, 2); hit || src.reads != 1 {
		t.Fatalf("the port calls changed: hit %v, %d reads; want a computation", hit, src.reads)
	}
	if _, hit, _ := cache.Get(ctx, src, later.Add(30*time.Minute), 2); hit || src.reads != 2 {
		t.Fatalf("the next hour: hit %v, %d reads; want a computation", hit, src.reads)
	}
	if _, hit, _ := cache.Get(ctx, src, later.Add(35*time.Minute), 2); !hit || src.reads != 2 {
		t.Fatalf("the next hour again: hit %v, %d reads; want the kept one", hit, src.reads)
	}
}
