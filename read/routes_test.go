package read

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// Helpers shared by the handler tests: a router that records the routes an
// area mounts, fake-store bookkeeping, and a one-request Fiber app with the
// service's error path.

// routeTable is a Router that keeps the handlers mounted on it by
// "METHOD /path", with their access.
type routeTable struct {
	t        *testing.T
	handlers map[string]fiber.Handler
	access   map[string]overwatch.Access
}

func (r *routeTable) Handle(method, path string, access overwatch.Access, h fiber.Handler) {
	key := method + " " + path
	if _, dup := r.handlers[key]; dup {
		r.t.Errorf("%s is mounted twice", key)
	}
	if h == nil {
		r.t.Errorf("%s is mounted without a handler", key)
	}
	r.handlers[key], r.access[key] = h, access
}

func (r *routeTable) HandleBody(method, path string, access overwatch.Access, _ route.Body, h fiber.Handler) {
	r.Handle(method, path, access, h)
}

// mount returns the routes that fn mounts, as an area's route function
// does: mount(t, func(r route.Router) { congestionRoutes(r, store, nil, fixedNow) }).
func mount(t *testing.T, fn func(r route.Router)) *routeTable {
	t.Helper()
	r := &routeTable{t: t, handlers: map[string]fiber.Handler{}, access: map[string]overwatch.Access{}}
	fn(r)
	return r
}

// get is the handler of "GET path", failing the test when none is mounted.
func (r *routeTable) get(path string) fiber.Handler {
	r.t.Helper()
	h, ok := r.handlers[fiber.MethodGet+" "+path]
	if !ok {
		r.t.Fatalf("GET %s is not mounted (routes: %v)", path, r.keys())
	}
	return h
}

func (r *routeTable) keys() []string { return slices.Sorted(maps.Keys(r.handlers)) }

// recorder keeps the requests a fake store query was asked, in order.
type recorder[K any] struct {
	mu   sync.Mutex
	reqs []K
}

func (r *recorder[K]) add(req K) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
}

// all is every request so far.
func (r *recorder[K]) all() []K {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}

// count is how many requests were asked.
func (r *recorder[K]) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// last is the latest request, failing the test when there was none.
func (r *recorder[K]) last(t *testing.T) K {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) == 0 {
		t.Fatal("the store was not asked")
	}
	return r.reqs[len(r.reqs)-1]
}

// fakeVersions is a TableVersions whose versions a test sets.
type fakeVersions struct {
	mu sync.Mutex
	v  map[string]uint64
}

func (f *fakeVersions) TableVersions(context.Context) (map[string]uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.v), nil
}

// bump gives the table a new version.
func (f *fakeVersions) bump(table string) {
	f.mu.Lock()
	if f.v == nil {
		f.v = map[string]uint64{}
	}
	f.v[table]++
	f.mu.Unlock()
}

// testNow is a Wednesday afternoon.
var testNow = time.Date(2026, 3, 18, 15, 30, 0, 0, time.UTC)

func fixedNow() time.Time { return testNow }

var testStatus = map[overwatch.Code]int{overwatch.Invalid: 400, overwatch.Forbidden: 403, overwatch.NotFound: 404}

// testApp is a Fiber app whose error path answers as the service's does,
// with route's GET served by h behind a caller of the plan ("" for none).
func testApp(plan overwatch.Plan, route string, h fiber.Handler) *fiber.App {
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
	app.Get(route, func(c *fiber.Ctx) error {
		if plan != "" {
			c.SetUserContext(overwatch.WithCaller(c.UserContext(), &overwatch.Caller{Plan: plan}))
		}
		return c.Next()
	}, h)
	return app
}

// serve answers one GET with the handler behind a caller of the plan (""
// for none), through an error path like the service's.
func serve(t *testing.T, plan overwatch.Plan, h fiber.Handler, target string) (int, string, http.Header) {
	t.Helper()
	return serveApp(t, testApp(plan, "/*", h), target)
}

// serveRoute answers one GET of a route with path parameters: route as
// mounted (e.g. "/risk/vessel/:imo"), served under /v1 as the service does.
func serveRoute(t *testing.T, plan overwatch.Plan, route string, h fiber.Handler, target string) (int, string) {
	t.Helper()
	status, body, _ := serveApp(t, testApp(plan, "/v1"+route, h), target)
	return status, body
}

func serveApp(t *testing.T, app *fiber.App, target string) (int, string, http.Header) {
	t.Helper()
	resp, err := app.Test(httptest.NewRequest("GET", target, nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

type errCase = struct {
	status int
	msg    string
}

// expectErrors checks that each query answers the status with a body
// containing the text.
func expectErrors(t *testing.T, h fiber.Handler, path string, cases map[string]errCase) {
	t.Helper()
	for q, want := range cases {
		status, body, _ := serve(t, overwatch.PlanPro, h, path+"?"+q)
		if status != want.status || !strings.Contains(body, want.msg) {
			t.Errorf("%s?%s: %d %s, want %d %q", path, q, status, body, want.status, want.msg)
		}
	}
}

func decode(t *testing.T, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
}

func ptrTo[T any](v T) *T { return &v }

func mustPort(slug string) seaport.Port {
	p, ok := seaport.BySlug(slug)
	if !ok {
		panic(slug)
	}
	return p
}

// The route tables of the analytics areas: each area mounts its paths, all
// behind an API key. The fake stores of the area tests implement the area
// store interfaces.
func TestAreaRoutes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		area  string
		mount func(route.Router)
		paths []string
	}{
		{"congestion", func(r route.Router) { congestionRoutes(r, &fakeCongestion{}, nil, fixedNow) },
			[]string{"/congestion", "/congestion/history"}},
		{"berths", func(r route.Router) { berthRoutes(r, &fakeBerths{}, nil, fixedNow) },
			[]string{"/berth-utilization", "/berth-utilization/weekly"}},
		{"fleet age", func(r route.Router) { fleetAgeRoutes(r, &fakeFleetAge{}, nil, fixedNow) },
			[]string{"/fleet-age", "/fleet-age/history"}},
		{"estimates", func(r route.Router) { estimateRoutes(r, &fakeEstimates{}, nil, nil, fixedNow) }, []string{"/estimates"}},
		{"reliability", func(r route.Router) { reliabilityRoutes(r, &fakeReliability{}, nil, fixedNow) },
			[]string{"/destination-reliability"}},
		{"export", func(r route.Router) { exportRoutes(r, &fakeExport{}, nil, fixedNow) }, []string{"/export"}},
		{"risk", func(r route.Router) { riskRoutes(r, &fakeRisk{}, nil, fixedNow) }, []string{
			"/risk/baselines", "/risk/events", "/risk/hotspots", "/risk/identity", "/risk/identity/history", "/risk/loitering",
			"/risk/mismatches", "/risk/stats", "/risk/sts", "/risk/sts/stats", "/risk/vessel/:imo", "/risk/vessels"}},
		{"emissions", func(r route.Router) { emissionsRoutes(r, &fakeEmissions{}, nil, fixedNow) },
			[]string{"/emissions", "/emissions/report"}},
	} {
		routes := mount(t, tc.mount)
		var want []string
		for _, p := range tc.paths {
			want = append(want, fiber.MethodGet+" "+p)
		}
		slices.Sort(want)
		if got := routes.keys(); !slices.Equal(got, want) {
			t.Errorf("%s mounts %v, want %v", tc.area, got, want)
		}
		for k, a := range routes.access {
			if a != overwatch.AccessKey {
				t.Errorf("%s: %s has access %d, want AccessKey", tc.area, k, a)
			}
		}
	}
}
