package read

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// fakeAnalytics is every analytics store of the read side: it records what
// it was asked and returns the rows it was given.
type fakeAnalytics struct {
	err error

	live         []CongestionLiveRow
	liveFilter   CongestionFilter
	base         []CongestionBaselineRow
	baseArgs     []any
	days         []CongestionDayRow
	daysArgs     []any
	usage        []BerthUsageRow
	usageArgs    []any
	weeks        []BerthWeekRow
	weeksArgs    []any
	ages         []FleetAgeBucketRow
	ageFilter    FleetAgeFilter
	ageHistory   []FleetAgeBucketRow
	ageHistArgs  []any
	estimates    []EstimateRow
	estFilter    EstimateFilter
	reliability  []ReliabilityRow
	relFilter    ReliabilityFilter
	visits       []VisitRow
	exportFilter ExportFilter
}

func (f *fakeAnalytics) CongestionNow(_ context.Context, flt CongestionFilter) ([]CongestionLiveRow, error) {
	f.liveFilter = flt
	return f.live, f.err
}

func (f *fakeAnalytics) CongestionBaseline(_ context.Context, ports []string, vt string, from, to time.Time) ([]CongestionBaselineRow, error) {
	f.baseArgs = []any{len(ports), vt, from, to}
	return f.base, f.err
}

func (f *fakeAnalytics) CongestionHistory(_ context.Context, port, vt string, from, to time.Time) ([]CongestionDayRow, error) {
	f.daysArgs = []any{port, vt, from, to}
	return f.days, f.err
}

func (f *fakeAnalytics) BerthUsage(_ context.Context, ports []string, from, to time.Time) ([]BerthUsageRow, error) {
	f.usageArgs = []any{len(ports), from, to}
	return f.usage, f.err
}

func (f *fakeAnalytics) BerthWeeks(_ context.Context, port, zone string, from time.Time) ([]BerthWeekRow, error) {
	f.weeksArgs = []any{port, zone, from}
	return f.weeks, f.err
}

func (f *fakeAnalytics) FleetAge(_ context.Context, flt FleetAgeFilter) ([]FleetAgeBucketRow, error) {
	f.ageFilter = flt
	return f.ages, f.err
}

func (f *fakeAnalytics) FleetAgeHistory(_ context.Context, port, vt string, from time.Time) ([]FleetAgeBucketRow, error) {
	f.ageHistArgs = []any{port, vt, from}
	return f.ageHistory, f.err
}

func (f *fakeAnalytics) Estimates(_ context.Context, flt EstimateFilter) ([]EstimateRow, error) {
	f.estFilter = flt
	return f.estimates, f.err
}

func (f *fakeAnalytics) DestinationReliability(_ context.Context, flt ReliabilityFilter) ([]ReliabilityRow, error) {
	f.relFilter = flt
	return f.reliability, f.err
}

func (f *fakeAnalytics) ExportVisits(_ context.Context, flt ExportFilter) ([]VisitRow, error) {
	f.exportFilter = flt
	return f.visits, f.err
}

func (f *fakeAnalytics) ExportEstimates(_ context.Context, flt ExportFilter) ([]EstimateRow, error) {
	f.exportFilter = flt
	return f.estimates, f.err
}

// testNow is a Wednesday afternoon.
var testNow = time.Date(2026, 3, 18, 15, 30, 0, 0, time.UTC)

var testStatus = map[overwatch.Code]int{overwatch.Invalid: 400, overwatch.Forbidden: 403, overwatch.NotFound: 404}

// serve answers one GET with the handler behind a caller of the plan (""
// for none), through an error path like the service's.
func serve(t *testing.T, plan overwatch.Plan, h fiber.Handler, target string) (int, string, http.Header) {
	t.Helper()
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		status, ok := testStatus[overwatch.ErrorCode(err)]
		if !ok {
			status = 500
		}
		c.Response().Header.Del(fiber.HeaderContentDisposition)
		var e *overwatch.Error
		msg := "internal error"
		if errors.As(err, &e) {
			msg = e.Message
		}
		return c.Status(status).JSON(fiber.Map{"error": msg})
	}})
	app.Get("/*", func(c *fiber.Ctx) error {
		if plan != "" {
			c.SetUserContext(overwatch.WithCaller(c.UserContext(), &overwatch.Caller{Plan: plan}))
		}
		return c.Next()
	}, h)
	resp, err := app.Test(httptest.NewRequest("GET", target, nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// expectErrors checks that each query answers the status with a message
// containing the text.
func expectErrors(t *testing.T, h fiber.Handler, path string, cases map[string]struct {
	status int
	msg    string
}) {
	t.Helper()
	for q, want := range cases {
		status, body, _ := serve(t, overwatch.PlanPro, h, path+"?"+q)
		if status != want.status || !strings.Contains(body, want.msg) {
			t.Errorf("%s?%s: %d %s, want %d %q", path, q, status, body, want.status, want.msg)
		}
	}
}

type errCase = struct {
	status int
	msg    string
}

func decode(t *testing.T, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
}

func fixedNow() time.Time { return testNow }

func TestCongestionParams(t *testing.T) {
	store := &fakeAnalytics{}
	expectErrors(t, Congestion(store, fixedNow), "/v1/congestion", map[string]errCase{
		"vessel_type=submarine": {400, "vessel_type must be one of cargo, tanker"},
		"port=atlantis":         {404, "unknown port 'atlantis'"},
	})
	expectErrors(t, CongestionHistory(store, fixedNow), "/v1/congestion/history", map[string]errCase{
		"":                                {400, "port is required"},
		"port=atlantis":                   {404, "unknown port 'atlantis'"},
		"port=santos&days=0":              {400, "days must be an integer from 1 to 365"},
		"port=santos&days=366":            {400, "days must be an integer from 1 to 365"},
		"port=santos&days=x":              {400, "days must be an integer from 1 to 365"},
		"port=santos&vessel_type=rowboat": {400, "vessel_type must be one of"},
	})
	store.err = errors.New("store down")
	if status, _, _ := serve(t, overwatch.PlanPro, Congestion(store, fixedNow), "/v1/congestion"); status != 500 {
		t.Errorf("store error: %d", status)
	}
}

func TestCongestionItems(t *testing.T) {
	med, nan := 12.34, math.NaN()
	store := &fakeAnalytics{
		live: []CongestionLiveRow{
			{Port: "santos", Waiting: 3, AtBerth: 2, InPort: 5, MedianWaitHours: &med, P90WaitHours: &nan, Arrivals24h: 1, Departures24h: 2, Arrivals7d: 14, Departures7d: 9},
		},
		base: []CongestionBaselineRow{{Port: "santos", Days: 10, Waiting: 2, MedianWaitHours: ptrTo(10.0), Arrivals: 1.5}, {Port: "busan", Days: 4}},
	}
	status, body, _ := serve(t, overwatch.PlanPro, Congestion(store, fixedNow), "/v1/congestion")
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
	if f := store.liveFilter; len(f.Ports) != len(seaport.All()) || f.Category != "" || !f.Now.Equal(testNow) || !f.Since.Equal(testNow.Add(-7*24*time.Hour)) {
		t.Errorf("live filter %+v", f)
	}
	today := time.Date(2026, 3, 18, 0, 0, 0, 0, time.UTC)
	if a := store.baseArgs; a[1] != "all" || !a[2].(time.Time).Equal(today.AddDate(0, 0, -90)) || !a[3].(time.Time).Equal(today) {
		t.Errorf("baseline args %v", a)
	}

	// One port, a category, and Free's 7 days of history: the baseline
	// starts at the first midnight after the floor.
	status, body, _ = serve(t, overwatch.PlanFree, Congestion(store, fixedNow), "/v1/congestion?port=santos&vessel_type=tanker")
	decode(t, body, &got)
	if status != 200 || len(got.Congestion) != 1 || got.Congestion[0]["vessel_type"] != "tanker" || store.liveFilter.Category != "tanker" {
		t.Fatalf("%d %s", status, body)
	}
	if a := store.baseArgs; a[0] != 1 || a[1] != "tanker" || !a[2].(time.Time).Equal(today.AddDate(0, 0, -6)) {
		t.Errorf("Free baseline args %v", a)
	}
}

func ptrTo[T any](v T) *T { return &v }

func TestCongestionHistoryBody(t *testing.T) {
	day := time.Date(2026, 3, 17, 0, 0, 0, 0, time.UTC)
	store := &fakeAnalytics{days: []CongestionDayRow{
		{Day: day, Waiting: 4, AtBerth: 2, InPort: 6, Arrivals: 3, Departures: 0, Waits: 0, MedianWaitHours: math.NaN(), MedianPortHours: 99},
		{Day: day.AddDate(0, 0, 1), Waiting: 5, Departures: 2, Waits: 2, MedianWaitHours: 10.06, P90WaitHours: 20.04, MedianPortHours: 40.25},
	}}
	status, body, _ := serve(t, overwatch.PlanPro, CongestionHistory(store, fixedNow), "/v1/congestion/history?port=santos")
	want := `{"port":"santos","port_name":"Santos","days":30,"vessel_type":null,"history":[` +
		`{"date":"2026-03-17","waiting":4,"at_berth":2,"in_port":6,"arrivals":3,"departures":0,"median_wait_hours":null,"p90_wait_hours":null,"median_port_hours":null},` +
		`{"date":"2026-03-18","waiting":5,"at_berth":0,"in_port":0,"arrivals":0,"departures":2,"median_wait_hours":10.1,"p90_wait_hours":20,"median_port_hours":40.3}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	today := time.Date(2026, 3, 18, 0, 0, 0, 0, time.UTC)
	if a := store.daysArgs; a[0] != "santos" || a[1] != "all" || !a[2].(time.Time).Equal(today.AddDate(0, 0, -29)) || !a[3].(time.Time).Equal(today.AddDate(0, 0, 1)) {
		t.Errorf("args %v", a)
	}
	store.days = nil
	status, body, _ = serve(t, overwatch.PlanFree, CongestionHistory(store, fixedNow), "/v1/congestion/history?port=santos&days=365&vessel_type=cargo")
	if status != 200 || body != `{"port":"santos","port_name":"Santos","days":365,"vessel_type":"cargo","history":[]}` {
		t.Errorf("%d %s", status, body)
	}
	if a := store.daysArgs; a[1] != "cargo" || !a[2].(time.Time).Equal(today.AddDate(0, 0, -6)) {
		t.Errorf("Free history is cut to 7 days: %v", a)
	}
}

func TestLaterDayAndMonday(t *testing.T) {
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
