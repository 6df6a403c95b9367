package jobs

import (
	"context"
	"testing"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/trade"
)

// fakeTradeStore is a TradeStore over calls in memory that records what
// the job read and wrote.
type fakeTradeStore struct {
	calls          []portcall.Call
	late           time.Time // the earliest port-call day rewritten, if any
	callsFrom      time.Time
	historyFrom    time.Time
	flowWeeks      []time.Time
	flows          []trade.Flow
	deceptionWeeks []time.Time
	deceptions     []trade.Deception
	shifts         []trade.Shift
	shiftWrites    int
}

func (f *fakeTradeStore) PositionDaysSince(context.Context, time.Time) (time.Time, bool, error) {
	return time.Time{}, false, nil
}

func (f *fakeTradeStore) DerivedDaysSince(_ context.Context, table string, _ time.Time) (time.Time, bool, error) {
	return f.late, table == "port_calls" && !f.late.IsZero(), nil
}

func (f *fakeTradeStore) CallSpan(context.Context) (time.Time, time.Time, error) {
	var first, last time.Time
	for _, c := range f.calls {
		end := c.Arrival
		if c.Departure != nil {
			end = *c.Departure
		}
		if first.IsZero() || c.Arrival.Before(first) {
			first = c.Arrival
		}
		if end.After(last) {
			last = end
		}
	}
	return first, last, nil
}

func (f *fakeTradeStore) Calls(_ context.Context, from, to time.Time) ([]portcall.Call, error) {
	f.callsFrom = from
	var out []portcall.Call
	for _, c := range f.calls {
		if c.Arrival.Before(to) && (c.Departure == nil || !c.Departure.Before(from)) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (f *fakeTradeStore) DestinationHistory(_ context.Context, from, _ time.Time) (map[overwatch.IMO][]trade.Declaration, error) {
	f.historyFrom = from
	return nil, nil
}

func (f *fakeTradeStore) WriteRouteFlows(_ context.Context, _ uint64, weeks []time.Time, rows []trade.Flow) error {
	f.flowWeeks, f.flows = weeks, rows
	return nil
}

func (f *fakeTradeStore) WriteRouteShifts(_ context.Context, _ uint64, rows []trade.Shift) error {
	f.shifts = rows
	f.shiftWrites++
	return nil
}

func (f *fakeTradeStore) WriteRouteDeceptions(_ context.Context, _ uint64, weeks []time.Time, rows []trade.Deception) error {
	f.deceptionWeeks, f.deceptions = weeks, rows
	return nil
}

// The job's windows: every week on the first run, TradeTrailingDays
// before the watermark after, further back when port calls of earlier days
// were rewritten; the flows and deceptions of the window only.
func TestTradeRoutesWindows(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC) // a Monday
	at := func(days float64) *time.Time {
		v := start.Add(time.Duration(days * 24 * float64(time.Hour)))
		return &v
	}
	var calls []portcall.Call
	// A voyage a week for 30 weeks, Santos → Qingdao in 20 days, the one
	// of week 28 declaring Rizhao until it reached Qingdao.
	for w := 0; w < 30; w++ {
		imo := overwatch.IMO(9000000 + w)
		d := float64(7 * w)
		declared := "QINGDAO"
		if w == 28 {
			declared = "RIZHAO"
		}
		calls = append(calls,
			portcall.Call{IMO: imo, Port: "santos", Arrival: *at(d), Departure: at(d + 1), Confidence: 4, Operation: portcall.OpLoad, CargoTonnes: 1000},
			portcall.Call{IMO: imo, Port: "qingdao", Arrival: *at(d + 21), Departure: at(d + 22), Confidence: 4, Operation: portcall.OpDischarge, Declared: declared})
	}
	store := &fakeTradeStore{calls: calls}
	run := TradeRoutes(store)
	res, err := run(context.Background(), State{})
	if err != nil {
		t.Fatal(err)
	}
	last := *at(29*7 + 22)
	if !res.From.Equal(start) || !res.Watermark.Equal(last) || len(store.flows) != 30 || len(store.deceptions) != 1 || store.shiftWrites != 1 {
		t.Fatalf("first run: %+v, %d flows, %d deceptions", res, len(store.flows), len(store.deceptions))
	}
	if d := store.deceptions[0]; d.IMO != 9000028 || d.DeclaredPort != "rizhao" || !d.Suspicious {
		t.Errorf("deception %+v", d)
	}
	// The next run: the weeks of departure from 77 days before the
	// watermark, of arrival from 21 days before it; calls read from 71 days
	// before the earlier of the first and the shifts' baseline, the
	// destinations from 71 days before the second.
	res, err = run(context.Background(), State{Watermark: last, LastSuccess: last})
	if err != nil {
		t.Fatal(err)
	}
	wantFrom := time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC) // the Monday of last − 77 days (Thursday 5 June)
	wantDec := time.Date(2025, 7, 28, 0, 0, 0, 0, time.UTC) // the Monday of last − 21 days (Tuesday 29 July)
	if !res.From.Equal(wantFrom) || !store.flowWeeks[0].Equal(wantFrom) || !store.deceptionWeeks[0].Equal(wantDec) {
		t.Errorf("incremental run from %s (flow weeks from %s, deceptions from %s), want %s, %s", res.From, store.flowWeeks[0],
			store.deceptionWeeks[0], wantFrom, wantDec)
	}
	_, baseline := trade.Window(last)
	if want := minT(wantFrom, baseline).AddDate(0, 0, -71); !store.callsFrom.Equal(want) || !store.historyFrom.Equal(wantDec.AddDate(0, 0, -71)) {
		t.Errorf("calls read from %s (want %s), history from %s", store.callsFrom, want, store.historyFrom)
	}
	for _, f := range store.flows {
		if f.Week.Before(wantFrom) {
			t.Errorf("flow of week %s outside the window", f.Week)
		}
	}
	if len(store.flows) != 9 || len(store.deceptions) != 1 { // departures of weeks 21 to 29
		t.Errorf("incremental: %d flows, %d deceptions", len(store.flows), len(store.deceptions))
	}
	// Port calls of an early day rewritten: from MaxTransitDays before it.
	store.late = *at(100)
	res, err = run(context.Background(), State{Watermark: last, LastSuccess: last})
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2025, 2, 3, 0, 0, 0, 0, time.UTC); !res.From.Equal(want) { // Monday of day 100 − 70 days
		t.Errorf("late run from %s, want %s", res.From, want)
	}
	if want := time.Date(2025, 4, 7, 0, 0, 0, 0, time.UTC); !store.deceptionWeeks[0].Equal(want) { // Monday of day 100 − 7 days
		t.Errorf("late run's deceptions from %s, want %s", store.deceptionWeeks[0], want)
	}
}

func minT(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
