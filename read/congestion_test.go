package read

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// fakeCongestion is a CongestionStore: it records the requests it was
// asked and returns the rows it was given.
type fakeCongestion struct {
	err  error
	live []CongestionLiveRow
	base []CongestionBaselineRow
	days []portstats.CongestionDay

	liveReqs recorder[CongestionNowRequest]
	baseReqs recorder[CongestionBaselineRequest]
	dayReqs  recorder[CongestionHistoryRequest]
}

func (f *fakeCongestion) CongestionNow(_ context.Context, r CongestionNowRequest) ([]CongestionLiveRow, error) {
	f.liveReqs.add(r)
	return f.live, f.err
}

func (f *fakeCongestion) CongestionBaseline(_ context.Context, r CongestionBaselineRequest) ([]CongestionBaselineRow, error) {
	f.baseReqs.add(r)
	return f.base, f.err
}

func (f *fakeCongestion) CongestionHistory(_ context.Context, r CongestionHistoryRequest) ([]portstats.CongestionDay, error) {
	f.dayReqs.add(r)
	return f.days, f.err
}

// congestionRoutesOf mounts the congestion routes on the store, uncached.
func congestionRoutesOf(t *testing.T, s CongestionStore) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { congestionRoutes(r, s, nil, fixedNow) })
}

func TestCongestionParams(t *testing.T) {
	t.Parallel()
	store := &fakeCongestion{}
	routes := congestionRoutesOf(t, store)
	expectErrors(t, routes.get("/congestion"), "/v1/congestion", map[string]errCase{
		"vessel_type=submarine": {400, "vessel_type must be one of cargo, tanker"},
		"port=atlantis":         {400, "unknown port 'atlantis'"},
	})
	expectErrors(t, routes.get("/congestion/history"), "/v1/congestion/history", map[string]errCase{
		"":                                {400, "port is required"},
		"port=atlantis":                   {400, "unknown port 'atlantis'"},
		"port=santos&days=0":              {400, "days must be an integer from 1 to 365"},
		"port=santos&days=366":            {400, "days must be an integer from 1 to 365"},
		"port=santos&days=x":              {400, "days must be an integer from 1 to 365"},
		"port=santos&vessel_type=rowboat": {400, "vessel_type must be one of"},
	})
	if n := store.liveReqs.count() + store.baseReqs.count() + store.dayReqs.count(); n != 0 {
		t.Errorf("a bad request reached the store %d times", n)
	}
	failing := congestionRoutesOf(t, &fakeCongestion{err: errors.New("store down")})
	if status, _, _ := serve(t, overwatch.PlanPro, failing.get("/congestion"), "/v1/congestion"); status != 500 {
		t.Errorf("store error: %d", status)
	}
	if status, _, _ := serve(t, overwatch.PlanPro, failing.get("/congestion/history"), "/v1/congestion/history?port=santos"); status != 500 {
		t.Errorf("history store error: %d", status)
	}
}

func TestCongestionItems(t *testing.T) {
	t.Parallel()
	med, nan := 12.34, math.NaN()
	store := &fakeCongestion{
		live: []CongestionLiveRow{
			{Port: "santos", Waiting: 3, AtBerth: 2, InPort: 5, MedianWaitHours: &med, P90WaitHours: &nan, Arrivals24h: 1, Departures24h: 2, Arrivals7d: 14, Departures7d: 9},
		},
		base: []CongestionBaselineRow{{Port: "santos", Days: 10, Waiting: 2, MedianWaitHours: ptrTo(10.0), Arrivals: 1.5}, {Port: "busan", Days: 4}},
	}
	h := congestionRoutesOf(t, store).get("/congestion")
	status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/congestion")
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	var got struct {
		Congestion []map[string]any `json:"congestion"`
	}
	decode(t, body, &got)
	if len(got.Congestion) != len(seaport.All()) || got.Congestion[0]["port"] != "alexandria" {
		t.Fatalf("%d items, first %v", len(got.Congestion), got.Congestion[0])
	}
	var santos, empty map[string]any
	for _, it := range got.Congestion {
		switch it["port"] {
		case "santos":
			santos = it
		case "tubarao":
			empty = it
		}
	}
	want := `{"arrivals_24h":1,"arrivals_7d":14,"as_of":"2026-03-18T15:30:00Z","at_berth":2,` +
		`"baseline":{"arrivals_7d":10.5,"days":10,"median_wait_hours":10,"waiting":2},` +
		`"change_pct":{"arrivals_7d":33.3,"median_wait_hours":23.4,"waiting":50},"country":"BR","departures_24h":2,` +
		`"departures_7d":9,"in_port":5,"median_wait_hours":12.3,"p90_wait_hours":null,"port":"santos",` +
		`"port_name":"Santos","vessel_type":"all","waiting":3}`
	if b, _ := json.Marshal(santos); string(b) != want {
		t.Errorf("santos:\n got %s\nwant %s", b, want)
	}
	b, _ := json.Marshal(empty)
	if !strings.Contains(string(b), `"baseline":{"arrivals_7d":null,"days":0,"median_wait_hours":null,"waiting":null}`) ||
		!strings.Contains(string(b), `"change_pct":{"arrivals_7d":null,"median_wait_hours":null,"waiting":null}`) || !strings.Contains(string(b), `"waiting":0`) {
		t.Errorf("a port without data: %s", b)
	}
	// Every port is one request for all of them ("").
	if r, want := store.liveReqs.last(t), (CongestionNowRequest{Now: testNow, Since: testNow.Add(-CongestionWindow)}); r != want {
		t.Errorf("live request %+v, want %+v", r, want)
	}
	today := time.Date(2026, 3, 18, 0, 0, 0, 0, time.UTC)
	if r, want := store.baseReqs.last(t), (CongestionBaselineRequest{VesselType: "all", From: today.AddDate(0, 0, -90), To: today}); r != want {
		t.Errorf("baseline request %+v, want %+v", r, want)
	}

	// One port, a category, and Free's 7 days of history: the baseline
	// starts at the first midnight after the floor.
	status, body, _ = serve(t, overwatch.PlanFree, h, "/v1/congestion?port=santos&vessel_type=tanker")
	decode(t, body, &got)
	if status != 200 || len(got.Congestion) != 1 || got.Congestion[0]["vessel_type"] != "tanker" {
		t.Fatalf("%d %s", status, body)
	}
	if r, want := store.liveReqs.last(t), (CongestionNowRequest{Port: "santos", Category: "tanker", Now: testNow, Since: testNow.AddDate(0, 0, -7)}); r != want {
		t.Errorf("Free live request %+v, want %+v", r, want)
	}
	if r, want := store.baseReqs.last(t), (CongestionBaselineRequest{Port: "santos", VesselType: "tanker", From: today.AddDate(0, 0, -6), To: today}); r != want {
		t.Errorf("Free baseline request %+v, want %+v", r, want)
	}
}

func TestCongestionHistoryBody(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 17, 0, 0, 0, 0, time.UTC)
	store := &fakeCongestion{days: []portstats.CongestionDay{
		{Day: day, Port: "santos", VesselType: "all", Waiting: 4, AtBerth: 2, InPort: 6, Arrivals: 3, Departures: 0, Waits: 0, MedianWaitHours: math.NaN(), MedianPortHours: 99},
		{Day: day.AddDate(0, 0, 1), Port: "santos", VesselType: "all", Waiting: 5, Departures: 2, Waits: 2, MedianWaitHours: 10.06, P90WaitHours: 20.04, MedianPortHours: 40.25},
	}}
	h := congestionRoutesOf(t, store).get("/congestion/history")
	status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/congestion/history?port=santos")
	want := `{"port":"santos","port_name":"Santos","days":30,"vessel_type":null,"history":[` +
		`{"date":"2026-03-17","waiting":4,"at_berth":2,"in_port":6,"arrivals":3,"departures":0,"median_wait_hours":null,"p90_wait_hours":null,"median_port_hours":null},` +
		`{"date":"2026-03-18","waiting":5,"at_berth":0,"in_port":0,"arrivals":0,"departures":2,"median_wait_hours":10.1,"p90_wait_hours":20,"median_port_hours":40.3}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	today := time.Date(2026, 3, 18, 0, 0, 0, 0, time.UTC)
	if r, want := store.dayReqs.last(t), (CongestionHistoryRequest{Port: "santos", VesselType: "all", From: today.AddDate(0, 0, -29), To: today.AddDate(0, 0, 1)}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}
	store.days = nil
	status, body, _ = serve(t, overwatch.PlanFree, h, "/v1/congestion/history?port=santos&days=365&vessel_type=cargo")
	if status != 200 || body != `{"port":"santos","port_name":"Santos","days":365,"vessel_type":"cargo","history":[]}` {
		t.Errorf("%d %s", status, body)
	}
	if r, want := store.dayReqs.last(t), (CongestionHistoryRequest{Port: "santos", VesselType: "cargo", From: today.AddDate(0, 0, -6), To: today.AddDate(0, 0, 1)}); r != want {
		t.Errorf("Free history is cut to 7 days: %+v, want %+v", r, want)
	}
}

// Through a real cache, the same request within a minute asks the store
// once; a new version of the table it reads asks again.
func TestCongestionCached(t *testing.T) {
	t.Parallel()
	store := &fakeCongestion{}
	versions := &fakeVersions{}
	cache := NewCache(versions, CacheOptions{Check: time.Hour})
	routes := mount(t, func(r route.Router) { congestionRoutes(r, store, cache, fixedNow) })
	h := routes.get("/congestion/history")
	for range 2 {
		if status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/congestion/history?port=santos"); status != 200 {
			t.Fatalf("%d %s", status, body)
		}
	}
	if n := store.dayReqs.count(); n != 1 {
		t.Errorf("two identical requests asked the store %d times", n)
	}
	serve(t, overwatch.PlanPro, h, "/v1/congestion/history?port=busan")
	if n := store.dayReqs.count(); n != 2 {
		t.Errorf("another port: %d store calls, want 2", n)
	}
	versions.bump(tablePortCalls) // not a table the history reads
	cache.Invalidate()
	serve(t, overwatch.PlanPro, h, "/v1/congestion/history?port=santos")
	if n := store.dayReqs.count(); n != 2 {
		t.Errorf("another table's new version: %d store calls, want 2", n)
	}
	versions.bump(tableCongestion)
	cache.Invalidate()
	serve(t, overwatch.PlanPro, h, "/v1/congestion/history?port=santos")
	if n := store.dayReqs.count(); n != 3 {
		t.Errorf("after the table changed: %d store calls, want 3", n)
	}
	// Requests carry their times cut to the minute: the calls within a
	// minute share the live answer.
	var tick atomic.Int64
	clock := func() time.Time { return testNow.Add(time.Duration(tick.Add(1)) * 10 * time.Second) }
	live := mount(t, func(r route.Router) { congestionRoutes(r, store, cache, clock) }).get("/congestion")
	serve(t, overwatch.PlanPro, live, "/v1/congestion")
	serve(t, overwatch.PlanPro, live, "/v1/congestion")
	if n, m := store.liveReqs.count(), store.baseReqs.count(); n != 1 || m != 1 {
		t.Errorf("live %d, baseline %d store calls, want 1 each", n, m)
	}
	if r, want := store.liveReqs.last(t), (CongestionNowRequest{Now: testNow, Since: testNow.Add(-CongestionWindow)}); r != want {
		t.Errorf("live request %+v, want %+v", r, want)
	}
	versions.bump(tablePortCalls)
	cache.Invalidate()
	serve(t, overwatch.PlanPro, live, "/v1/congestion")
	if n, m := store.liveReqs.count(), store.baseReqs.count(); n != 2 || m != 1 {
		t.Errorf("after the port calls changed: live %d, baseline %d store calls, want 2 and 1", n, m)
	}
}

func TestLaterDayAndMonday(t *testing.T) {
	t.Parallel()
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ floor, want time.Time }{
		{time.Time{}, from},
		{time.Date(2025, 12, 1, 5, 0, 0, 0, time.UTC), from},
		{time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)},
		{time.Date(2026, 1, 3, 0, 0, 1, 0, time.UTC), time.Date(2026, 1, 4, 0, 0, 0, 0, time.UTC)},
	} {
		if got := laterDay(from, tc.floor); !got.Equal(tc.want) {
			t.Errorf("laterDay(%v) = %v, want %v", tc.floor, got, tc.want)
		}
	}
	for _, d := range []int{16, 17, 18, 22} {
		if got := mondayOf(time.Date(2026, 3, d, 23, 0, 0, 0, time.UTC)); !got.Equal(time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("mondayOf(March %d) = %v", d, got)
		}
	}
}
